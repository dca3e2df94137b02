/**
 * The health of a pool's records as probes and monitors judge it (`traffic/`), and as the DNS
 * answer path reads it to choose what a pool serves (`dns/`): the one shape both sides share.
 * A record missing from `health` counts as UP (a pool nothing has probed yet serves as configured).
 */

export type PoolRecordHealth = 'UP' | 'DOWN'

/** The health of the records of one pool: one rrset (zone, owner, type). */
export interface PoolRecordStates {
  zoneId: string
  /** The rrset's owner, presentation form, lowercase, with the final dot (`www.example.org.`). */
  owner: string
  /** The rrset's type (RRType: A or AAAA for probed pools). */
  type: number
  /** By record: the rdata in presentation form (`192.0.2.1`; a backup or all-fail record too). */
  health: ReadonlyMap<string, PoolRecordHealth>
}
