import { advancedResponseCodesReport } from '../advanced-response-codes.ts'
import { classCNetworkReport } from '../class-c-network.ts'
import { clientIpReport } from '../client-ip.ts'
import { countryCodeReport } from '../country-code.ts'
import { hostQueryVolumeReport } from '../host-query-volume.ts'
import { projectedQueryVolumeReport } from '../projected-query-volume.ts'
import { rawQueryReport } from '../raw-query.ts'
import { zoneDailyQueryVolumeReport } from '../zone-daily-query-volume.ts'
import { zoneQueryVolumeReport } from '../zone-query-volume.ts'
import type { ReportDefinition } from './definition.ts'

/** Every asynchronous report the service answers, by its POST path. */
export const reportDefinitions: ReadonlyArray<ReportDefinition<any>> = [
  zoneQueryVolumeReport,
  zoneDailyQueryVolumeReport,
  projectedQueryVolumeReport,
  advancedResponseCodesReport,
  rawQueryReport,
  hostQueryVolumeReport,
  clientIpReport,
  countryCodeReport,
  classCNetworkReport
]

const byPath = new Map(reportDefinitions.map(d => [d.path, d]))

/** The definition a request row's kind (its path) names. */
export function definitionOfKind (kind: string): ReportDefinition<any> | undefined {
  return byPath.get(kind)
}
