import { Chart } from './chart.tsx'

export interface UsageRow {
  month: string
  domainsCount: number
  recordsCount: number
  queryResponsesCount: number
}

const fmt = (n: number): string => n.toLocaleString('en-US')

/** Usage per month of an account: responses as bars, peaks of zones and records in the table. */
export function UsageResult (props: { account: string, rows: UsageRow[] }) {
  // The service lists the newest month first; the chart reads left to right in time.
  const rows = [...props.rows].reverse()
  const total = rows.reduce((a, r) => a + r.queryResponsesCount, 0)
  if (rows.length === 0) return <p class='empty'>No usage recorded for {props.account} yet.</p>
  return (
    <section class='report' aria-labelledby='report-title'>
      <h2 id='report-title'>Usage per month of {props.account}</h2>
      <p>Total: <strong>{fmt(total)}</strong> responses in {rows.length} months.</p>
      <Chart kind='stacked' x={rows.map(r => r.month)} series={[{ label: 'Responses', colour: '#2f7fd0', values: rows.map(r => r.queryResponsesCount) }]} summary={`Bar chart of responses per month for ${props.account}: ${fmt(total)} in all`} />
      <div class='table-wrap'>
        <table class='report-data'>
          <caption>Usage per month (zones and records: the month's peak)</caption>
          <thead><tr><th scope='col'>Month</th><th scope='col' class='num'>Responses</th><th scope='col' class='num'>Zones</th><th scope='col' class='num'>Records</th></tr></thead>
          <tbody>
            {props.rows.map(r => <tr key={r.month}><th scope='row'>{r.month}</th><td class='num'>{fmt(r.queryResponsesCount)}</td><td class='num'>{fmt(r.domainsCount)}</td><td class='num'>{fmt(r.recordsCount)}</td></tr>)}
          </tbody>
        </table>
      </div>
    </section>
  )
}
