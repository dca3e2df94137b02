import type { Principal } from '../auth/principal.ts'
import { addCounts, ZERO_COUNTS } from '../health/score.ts'
import type { Store } from '../store/store.ts'

/**
 * The account health report (the real API's "Account Health Report", `GET /accounts/healthchecks`):
 * for each account the caller may read, checks of best practice over what the service holds of
 * it, each OK or WARNING. The real API's two-factor checks are not reported: this service has no
 * second factor, so there is nothing to check (docs/decisions.md, "Zone health").
 */

type Status = 'OK' | 'WARNING'

export interface AccountCheckResult {
  name: string
  status: Status
  description: string
  hint?: string
  messages: Array<{ status: Status, message: string }>
}

export interface AccountHealth {
  accountName: string
  status: Status
  results: AccountCheckResult[]
}

export interface AccountHealthReport {
  status: Status
  accountHealths: AccountHealth[]
}

type AccountZone = Awaited<ReturnType<Store['healthChecks']['accountZones']>>[number]

/** At most this many zone names in a hint. */
const NAMED = 10

const listed = (names: string[]): string => `[${names.slice(0, NAMED).join(', ')}${names.length > NAMED ? `, and ${names.length - NAMED} more` : ''}]`

function result (name: string, description: string, problem: { message: string, hint: string } | undefined, okMessage: string): AccountCheckResult {
  return problem === undefined
    ? { name, status: 'OK', description, messages: [{ status: 'OK', message: okMessage }] }
    : { name, status: 'WARNING', description, hint: problem.hint, messages: [{ status: 'WARNING', message: problem.message }] }
}

/** RFC 4033: the account's primary zones signed. */
function dnssecCheck (zones: AccountZone[]): AccountCheckResult {
  const primaries = zones.filter(z => z.type === 'PRIMARY')
  const unsigned = primaries.filter(z => z.dnssecStatus !== 'SIGNED').map(z => z.zoneName)
  return result('Are the account\'s zones signed with DNSSEC?',
    'DNSSEC allows your domains to be secured against spoofing and cache poisoning (RFC 4033).',
    unsigned.length === 0 ? undefined : { message: `${unsigned.length} of the account's ${primaries.length} primary zones are not signed.`, hint: `Sign the zones ${listed(unsigned)} with DNSSEC.` },
    primaries.length === 0 ? 'The account has no primary zone.' : `All ${primaries.length} primary zones of the account are signed.`)
}

/** The account's zones' newest DNS health checks without ERROR, and every primary and alias zone checked. */
function zoneHealthCheck (zones: AccountZone[]): AccountCheckResult {
  const checkable = zones.filter(z => z.type !== 'SECONDARY')
  const failing = checkable.filter(z => z.counts !== null && Object.values(z.counts).reduce(addCounts, ZERO_COUNTS).error > 0).map(z => z.zoneName)
  const unchecked = checkable.filter(z => z.counts === null).map(z => z.zoneName)
  const problems: string[] = []
  if (failing.length > 0) problems.push(`${failing.length} zone${failing.length === 1 ? ' has' : 's have'} errors in their latest DNS health check: ${listed(failing)}`)
  if (unchecked.length > 0) problems.push(`${unchecked.length} zone${unchecked.length === 1 ? ' has' : 's have'} no completed DNS health check: ${listed(unchecked)}`)
  return result('Do the account\'s zones pass their DNS health checks?',
    'A zone whose DNS health check finds errors is likely not reachable or not configured properly everywhere.',
    problems.length === 0 ? undefined : { message: problems.join('; ') + '.', hint: 'Read each zone\'s report (GET /zones/{zone}/healthchecks/latest) and fix its errors; run a check with POST /zones/{zone}/healthchecks.' },
    checkable.length === 0 ? 'The account has no primary or alias zone.' : `The latest DNS health checks of all ${checkable.length} zones found no error.`)
}

/** The report over the accounts the caller may read, in account name order. */
export async function accountHealth (store: Store, principal: Principal): Promise<AccountHealthReport> {
  const scope = principal.scope('read')
  const zones = await store.healthChecks.accountZones(scope)
  const names = [...new Set(principal.memberships.filter(m => scope.accountIds.includes(m.accountId)).map(m => m.accountName))].sort()
  const accountHealths = names.map((accountName): AccountHealth => {
    const own = zones.filter(z => z.accountName === accountName)
    const results = [dnssecCheck(own), zoneHealthCheck(own)]
    return { accountName, status: results.some(r => r.status === 'WARNING') ? 'WARNING' : 'OK', results }
  })
  return { status: accountHealths.some(a => a.status === 'WARNING') ? 'WARNING' : 'OK', accountHealths }
}
