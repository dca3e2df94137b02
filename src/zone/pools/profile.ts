/**
 * A validated pool profile as the service holds it: a union by pool kind, each with the fields of
 * its type (defaults filled, computed fields dropped). The field names are the pool's own
 * vocabulary, which the profile document clients write shares (`order`, `rdataInfo` …); the
 * document adds `@context` ({@link profileDocument} in `index.ts`).
 */

export type PoolKind = 'RD_POOLS' | 'SB_POOLS' | 'TC_POOLS' | 'SF_POOLS' | 'SLB_POOLS' | 'DIR_POOLS'

export type PoolOrder = 'FIXED' | 'RANDOM' | 'ROUND_ROBIN'
export type ForcedState = 'FORCED_ACTIVE' | 'FORCED_INACTIVE' | 'NOT_FORCED'
export type Sensitivity = 'HIGH' | 'LOW'

export interface RdPoolFields {
  order: PoolOrder
  description: string
}

export interface PoolRecordInfo {
  state: 'NORMAL' | 'ACTIVE' | 'INACTIVE'
  runProbes: boolean
  priority: number
  failoverDelay: number
  /** Minutes a failed record must pass before it serves again; absent: `failoverDelay`. */
  restorationDelay?: number
  threshold: number
}

export interface BackupRecord {
  rdata: string
  failoverDelay: number
}

export interface SbPoolFields {
  description: string
  runProbes: boolean
  actOnProbes: boolean
  order: PoolOrder
  maxActive: number
  maxServed: number
  failureThreshold: number
  rdataInfo: PoolRecordInfo[]
  backupRecords: BackupRecord[]
}

export interface TcPoolFields {
  description: string
  runProbes: boolean
  actOnProbes: boolean
  maxToLB: number
  failureThreshold: number
  rdataInfo: (PoolRecordInfo & { weight: number })[]
  backupRecord?: BackupRecord
}

export interface PoolMonitor {
  method: 'GET' | 'POST'
  url: string
  transmittedData: string
  searchString: string
}

export interface SfPoolFields {
  liveRecordState: 'NOT_FORCED' | 'FORCED_INACTIVE'
  liveRecordDescription: string
  poolDescription: string
  regionFailureSensitivity: Sensitivity
  monitor: PoolMonitor
  backupRecord: { rdata: string, description: string }
}

export interface SlbPoolFields {
  description: string
  responseMethod: 'PRIORITY_HUNT' | 'RANDOM' | 'ROUND_ROBIN'
  servingPreference: 'AUTO_SELECT' | 'SERVE_PRIMARY' | 'SERVE_ALL_FAIL'
  regionFailureSensitivity: Sensitivity
  rdataInfo: { description: string, forcedState: ForcedState, probingEnabled: boolean }[]
  allFailRecord: { rdata: string, description: string }
  monitor: PoolMonitor
}

export interface GeoGroup {
  name: string
  codes: string[]
  isExistingGroupFromPool: boolean
  forceOverlap: boolean
  isAccountLevel: boolean
}

/** One source-IP entry: a range, a CIDR block or one address. */
export type IpGroupEntry = { start: string, end: string } | { cidr: string } | { address: string }

export interface IpGroup {
  name: string
  ips: IpGroupEntry[]
  isExistingGroupFromPool: boolean
  isAccountLevel: boolean
}

export interface DirGroups {
  allNonConfigured: boolean
  geoInfo?: GeoGroup
  ipInfo?: IpGroup
}

export interface DirPoolFields {
  description: string
  conflictResolve: 'GEO' | 'IP'
  ignoreECS: boolean
  rdataInfo: (DirGroups & { ttl?: number })[]
  noResponse?: DirGroups
}

/** The fields of each pool kind. */
export interface PoolFieldsByKind {
  RD_POOLS: RdPoolFields
  SB_POOLS: SbPoolFields
  TC_POOLS: TcPoolFields
  SF_POOLS: SfPoolFields
  SLB_POOLS: SlbPoolFields
  DIR_POOLS: DirPoolFields
}

/** A pool profile: its kind and the fields of that kind. */
export type PoolProfile = { [K in PoolKind]: { kind: K } & PoolFieldsByKind[K] }[PoolKind]
