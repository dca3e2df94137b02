import { useState } from 'preact/hooks'
import { ApiError, json } from '../api.ts'
import { Chart } from '../components/chart.tsx'
import { ClientsResult, type CountryRow, type NetworkRow } from '../components/report-clients.tsx'
import { FailoverResult, type FailoverRow } from '../components/report-failover.tsx'
import { HealthResult, type HealthRow } from '../components/report-health.tsx'
import { UsageResult, type UsageRow } from '../components/report-usage.tsx'
import { busiestZones, dailyVolumes, MAX_VOLUME_ZONES, VolumeResult, type ZoneVolume } from '../components/report-volume.tsx'
import { zoneNamesOf } from '../zone-names.ts'
import { accountsWhere, type Me } from '../me.ts'
import { daysOf, runReport, spanDays, utcDay } from '../reports.ts'

type Kind = 'volume' | 'rcodes' | 'clients' | 'health' | 'usage' | 'failover'

interface RcodeRow { zoneName: string, responseCount: number, noerrorCount: number, nxdomainCount: number, refusedCount: number, servfailCount: number, formerrCount: number, notimpCount: number }

const RCODES: Array<{ key: keyof RcodeRow, label: string, colour: string }> = [
  { key: 'noerrorCount', label: 'NOERROR', colour: '#2f7fd0' },
  { key: 'nxdomainCount', label: 'NXDOMAIN', colour: '#d9822b' },
  { key: 'refusedCount', label: 'REFUSED', colour: '#8e5ec9' },
  { key: 'servfailCount', label: 'SERVFAIL', colour: '#c23b3b' },
  { key: 'formerrCount', label: 'FORMERR', colour: '#4c9a5a' },
  { key: 'notimpCount', label: 'NOTIMP', colour: '#7a7f87' }
]

const REPORTS: Record<Kind, { title: string, rules: string, maxSpan: number, maxAge: number }> = {
  volume: { title: 'Query volume per day', rules: `Up to ${MAX_VOLUME_ZONES} zones, named (separated by commas or spaces) or the busiest of an account, a line each; up to 60 days, within the last 13 months, not in the future.`, maxSpan: 60, maxAge: 396 },
  rcodes: { title: 'Response codes per zone', rules: 'One account (all its zones, or one); up to 90 days, starting within the last 90 days, not in the future.', maxSpan: 90, maxAge: 90 },
  clients: { title: 'Client networks and countries', rules: 'All the accounts you read, or one (all zones, or one); up to 90 days, starting within the last 90 days, not in the future.', maxSpan: 90, maxAge: 90 },
  health: { title: 'Health scores per zone', rules: 'The newest completed DNS health check of each zone (or of the zones whose name holds the text given).', maxSpan: 0, maxAge: 0 },
  usage: { title: 'Usage per month', rules: 'One account; the last 36 months, peaks of zones and records and the responses of each month.', maxSpan: 0, maxAge: 0 },
  failover: { title: 'Failover events', rules: 'One account (all its zones, or one); up to 30 days, starting within the last 3 months, not in the future.', maxSpan: 30, maxAge: 92 }
}

const fmt = (n: number): string => n.toLocaleString('en-US')

/** The date rules of a report, checked before asking (the service checks them too). */
function dateProblem (kind: Kind, from: string, to: string): string | undefined {
  const r = REPORTS[kind]
  const today = utcDay()
  if (from === '' || to === '') return 'Give both dates.'
  if (from > today || to > today) return 'The dates cannot be in the future (days are UTC).'
  if (to < from) return 'The end date is before the start date.'
  if (spanDays(from, to) > r.maxSpan) return `This report covers at most ${r.maxSpan} days.`
  if (spanDays(from, today) > r.maxAge + 1) return `The start date is older than this report keeps (${r.maxAge} days).`
  return undefined
}

/**
 * Reports with charts: query volume per day of one zone or several (a line each), response
 * codes per zone (stacked bars), the top client networks and countries (horizontal bars),
 * health, usage and failover, each requested, waited for with progress, then drawn with its
 * numbers in a table beside the chart.
 */
export function ReportsPage (props: { me: Me | undefined }) {
  const accounts = accountsWhere(props.me, 'read')
  const [kind, setKind] = useState<Kind>('volume')
  const [zone, setZone] = useState('')
  const [scope, setScope] = useState<'named' | 'account'>('named')
  const [account, setAccount] = useState('')
  const [from, setFrom] = useState(utcDay(-6))
  const [to, setTo] = useState(utcDay())
  const [progress, setProgress] = useState<string | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [result, setResult] = useState<{ kind: 'volume', volumes: ZoneVolume[], days: string[], note?: string } | { kind: 'rcodes', rows: RcodeRow[] } | { kind: 'clients', networks: NetworkRow[], countries: CountryRow[] } | { kind: 'health', rows: HealthRow[] } | { kind: 'usage', account: string, rows: UsageRow[] } | { kind: 'failover', rows: FailoverRow[] } | undefined>()
  const dated = kind === 'volume' || kind === 'rcodes' || kind === 'clients' || kind === 'failover'

  async function run (event: Event): Promise<void> {
    event.preventDefault()
    const names = zoneNamesOf(zone)
    const problem = kind === 'volume' && scope === 'named' && names.length === 0
      ? 'Give the zone, or several separated by commas.'
      : kind === 'volume' && scope === 'named' && names.length > MAX_VOLUME_ZONES
        ? `Give at most ${MAX_VOLUME_ZONES} zones (${names.length} given).`
        : dated ? dateProblem(kind, from, to) : undefined
    setError(problem)
    if (problem !== undefined) return
    setResult(undefined)
    setProgress('Requesting the report…')
    try {
      if (kind === 'volume') {
        if (scope === 'named') {
          setResult({ kind, volumes: await dailyVolumes(names, from, to, setProgress), days: daysOf(from, to) })
        } else {
          const accountName = account === '' ? accounts[0] ?? '' : account
          const busy = await busiestZones(accountName, from, to, setProgress)
          if (busy.zones.length === 0) throw new ApiError(404, [{ errorMessage: `no zone of ${accountName} had responses in these days.` }])
          const note = busy.withResponses > busy.zones.length
            ? `The ${busy.zones.length} busiest of the ${busy.withResponses} zones of ${accountName} with responses in these days.`
            : `Every zone of ${accountName} with responses in these days (${busy.withResponses}).`
          setResult({ kind, volumes: await dailyVolumes(busy.zones, from, to, setProgress), days: daysOf(from, to), note })
        }
      } else if (kind === 'clients') {
        // Every account read unless one is chosen; both reports take the same body.
        const body = { ...(account === '' ? {} : { accountName: account }), ...(zone.trim() === '' ? {} : { zoneName: zone.trim() }), reportStartDate: from, reportEndDate: to }
        const [networks, countries] = await Promise.all([
          runReport<NetworkRow>('/reports/dns_resolution/directional_response_counts/class_c_network', { classCNetworkDirectionalResponseCounts: body }, setProgress),
          runReport<CountryRow>('/reports/dns_resolution/directional_response_counts/country_code', { countryCodeDirectionalResponseCounts: body }, setProgress)
        ])
        setResult({ kind, networks, countries })
      } else if (kind === 'health') {
        const q = zone.trim() === '' ? '' : `&q=${encodeURIComponent(zone.trim())}`
        const body = await json<{ healthStatusRecordsList: HealthRow[] }>('GET', `/v1/dns_configuration/health_status/detail?sort=healthScore&order=ASC&limit=1000${q}`)
        setResult({ kind, rows: body.healthStatusRecordsList })
      } else if (kind === 'failover') {
        const accountName = account === '' ? accounts[0] ?? '' : account
        const end = to === utcDay() ? new Date().toISOString() : `${to}T23:59:59.999Z`
        const q = new URLSearchParams({ accountName, reportStartDateTime: `${from}T00:00:00.000Z`, reportEndDateTime: end, limit: '1000', ...(zone.trim() === '' ? {} : { zoneName: zone.trim() }) })
        const body = await json<{ failoverRecords: FailoverRow[] }>('GET', `/reports/traffic_services/failover_report?${q.toString()}`)
        setResult({ kind, rows: body.failoverRecords })
      } else if (kind === 'usage') {
        const accountName = account === '' ? accounts[0] ?? '' : account
        const body = await json<{ usageSummary: UsageRow[] }>('GET', `/reports/dns/usage_summary?accountName=${encodeURIComponent(accountName)}`)
        setResult({ kind, account: accountName, rows: body.usageSummary })
      } else {
        const accountName = account === '' ? accounts[0] ?? '' : account
        const rows = await runReport<RcodeRow>('/reports/dns_resolution/advanced_response_codes', { advancedResponseCodes: { accountName, ...(zone.trim() === '' ? {} : { zoneName: zone.trim() }), reportStartDate: from, reportEndDate: to } }, setProgress)
        setResult({ kind, rows })
      }
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err))
    } finally {
      setProgress(undefined)
    }
  }

  return (
    <section>
      <h1>Reports</h1>
      <form class='card report-form' onSubmit={e => { run(e).catch(() => {}) }} aria-label='Run a report'>
        <div class='filters'>
          <div class='field'>
            <label for='report-kind'>Report</label>
            <select id='report-kind' value={kind} onChange={e => { setKind(e.currentTarget.value as Kind); setResult(undefined); setError(undefined) }}>
              {(Object.keys(REPORTS) as Kind[]).map(k => <option key={k} value={k}>{REPORTS[k].title}</option>)}
            </select>
          </div>
          {kind === 'volume' && (
            <div class='field'>
              <label for='report-scope'>Scope</label>
              <select id='report-scope' value={scope} onChange={e => { setScope(e.currentTarget.value as 'named' | 'account'); setResult(undefined); setError(undefined) }}>
                <option value='named'>The zones named</option>
                <option value='account'>The busiest of an account</option>
              </select>
            </div>
          )}
          {(kind === 'rcodes' || kind === 'clients' || kind === 'usage' || kind === 'failover' || (kind === 'volume' && scope === 'account')) && accounts.length > 1 && (
            <div class='field'>
              <label for='report-account'>Account</label>
              <select id='report-account' value={account} onChange={e => setAccount(e.currentTarget.value)}>
                {kind === 'clients' && <option value=''>All accounts</option>}
                {accounts.map(a => <option key={a} value={a}>{a}</option>)}
              </select>
            </div>
          )}
          {kind !== 'usage' && !(kind === 'volume' && scope === 'account') && (
            <div class='field'>
              <label for='report-zone'>{kind === 'volume' ? 'Zones' : kind === 'health' ? 'Zone or account contains (optional)' : 'Zone (optional)'}</label>
              <input id='report-zone' value={zone} placeholder='example.org' onInput={e => setZone(e.currentTarget.value)} />
            </div>
          )}
          {dated && (
            <>
              <div class='field'>
                <label for='report-from'>From (UTC day)</label>
                <input id='report-from' type='date' value={from} max={utcDay()} onInput={e => setFrom(e.currentTarget.value)} />
              </div>
              <div class='field'>
                <label for='report-to'>To (UTC day)</label>
                <input id='report-to' type='date' value={to} max={utcDay()} onInput={e => setTo(e.currentTarget.value)} />
              </div>
            </>
          )}
          <button type='submit' disabled={progress !== undefined}>Run report</button>
        </div>
        <p class='muted'>{REPORTS[kind].rules}{(kind === 'volume' || kind === 'rcodes' || kind === 'clients') && ' Counts come from the DNS answers this service gave, added every few seconds.'}</p>
      </form>
      {progress !== undefined && <p role='status' class='muted'>{progress}</p>}
      {error !== undefined && <p class='error' role='alert'>The report could not be run: {error}</p>}
      {result?.kind === 'volume' && <VolumeResult volumes={result.volumes} days={result.days} {...(result.note === undefined ? {} : { note: result.note })} />}
      {result?.kind === 'rcodes' && <RcodesResult rows={result.rows} />}
      {result?.kind === 'clients' && <ClientsResult networks={result.networks} countries={result.countries} />}
      {result?.kind === 'health' && <HealthResult rows={result.rows} />}
      {result?.kind === 'usage' && <UsageResult account={result.account} rows={result.rows} />}
      {result?.kind === 'failover' && <FailoverResult rows={result.rows} />}
    </section>
  )
}

function RcodesResult (props: { rows: RcodeRow[] }) {
  if (props.rows.length === 0) return <p class='empty'>No responses in these days. Queries answered by this service's DNS server are counted; try a wider range.</p>
  const total = props.rows.reduce((a, r) => a + r.responseCount, 0)
  return (
    <section class='report' aria-labelledby='report-title'>
      <h2 id='report-title'>Response codes per zone</h2>
      <p>Total: <strong data-total={total}>{fmt(total)}</strong> responses in {props.rows.length} {props.rows.length === 1 ? 'zone' : 'zones'}.</p>
      <Chart kind='stacked' x={props.rows.map(r => r.zoneName)} series={RCODES.map(c => ({ label: c.label, colour: c.colour, values: props.rows.map(r => Number(r[c.key])) }))} summary={`Stacked bar chart of response codes for ${props.rows.length} ${props.rows.length === 1 ? 'zone' : 'zones'}: ${fmt(total)} responses in all`} />
      <div class='table-wrap'>
        <table class='report-data'>
          <caption>Responses by code</caption>
          <thead><tr><th scope='col'>Zone</th>{RCODES.map(c => <th key={c.key} scope='col' class='num'>{c.label}</th>)}<th scope='col' class='num'>Total</th></tr></thead>
          <tbody>
            {props.rows.map(r => (
              <tr key={r.zoneName}><th scope='row'>{r.zoneName}</th>{RCODES.map(c => <td key={c.key} class='num'>{fmt(Number(r[c.key]))}</td>)}<td class='num'>{fmt(r.responseCount)}</td></tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
