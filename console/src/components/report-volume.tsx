import { Chart } from './chart.tsx'
import { runReport } from '../reports.ts'

/** A zone daily query volume record (the fields the console reads). */
export interface DailyRow { date: string, rspTotal: number, udpTotal: number, tcpTotal: number }

/** One zone's daily rows. */
export interface ZoneVolume { zone: string, rows: DailyRow[] }

/** How many zones one query volume report draws at most (lines a reader can tell apart). */
export const MAX_VOLUME_ZONES = 10

/** Line colours, one per zone, told apart in both themes. */
const COLOURS = ['#2f7fd0', '#d9822b', '#4c9a5a', '#c23b3b', '#8e5ec9', '#1a9e9e', '#b5892b', '#d05fa5', '#7a7f87', '#5b6fd6']

const fmt = (n: number): string => n.toLocaleString('en-US')

/** At most `limit` tasks at a time; results in the order of `items`. */
async function inTurn<T, R> (items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      out[i] = await work(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}

/** The daily query volume of each zone (a zone daily report each, three at a time). */
export async function dailyVolumes (zones: string[], from: string, to: string, progress: (message: string) => void): Promise<ZoneVolume[]> {
  let done = 0
  return await inTurn(zones, 3, async zone => {
    const rows = await runReport<DailyRow>('/reports/dns_resolution/query_volume/zone/daily', { zoneDailyQueryVolume: { zoneName: zone, startDate: from, endDate: to } }, m => progress(zones.length === 1 ? m : `${m} (${done} of ${zones.length} zones done)`))
    done++
    if (zones.length > 1) progress(`${done} of ${zones.length} zones done…`)
    return { zone, rows }
  })
}

/**
 * The zones of an account that had responses in the days, busiest first (the zone query volume
 * report: a row per zone and month), and how many had any.
 */
export async function busiestZones (accountName: string, from: string, to: string, progress: (message: string) => void): Promise<{ zones: string[], withResponses: number }> {
  const rows = await runReport<{ zoneName: string, rspTotal: number }>('/reports/dns_resolution/query_volume/zone', { zoneQueryVolume: { accountName, startDate: from, endDate: to } }, progress)
  const totals = new Map<string, number>()
  for (const r of rows) totals.set(r.zoneName, (totals.get(r.zoneName) ?? 0) + r.rspTotal)
  const busy = [...totals].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  return { zones: busy.slice(0, MAX_VOLUME_ZONES).map(([z]) => z), withResponses: busy.length }
}

/**
 * Responses per day: one zone as a line with its UDP and TCP split in the table; several zones
 * as a line each (a legend names them) and a column each in the table, with the day's total.
 */
export function VolumeResult (props: { volumes: ZoneVolume[], days: string[], note?: string }) {
  const series = props.volumes.map((v, i) => {
    const byDay = new Map(v.rows.map(r => [r.date, r]))
    const values = props.days.map(d => byDay.get(d)?.rspTotal ?? 0)
    return { zone: v.zone, byDay, values, total: values.reduce((a, n) => a + n, 0), colour: COLOURS[i % COLOURS.length]! }
  })
  const total = series.reduce((a, s) => a + s.total, 0)
  const days = `${props.days.length} ${props.days.length === 1 ? 'day' : 'days'}`
  if (series.length === 1) {
    const s = series[0]!
    if (total === 0) return <p class='empty'>No responses for {s.zone} in these days. Queries answered by this service's DNS server are counted; try a wider range.</p>
    return (
      <section class='report' aria-labelledby='report-title'>
        <h2 id='report-title'>Responses per day for {s.zone}</h2>
        <p>Total: <strong data-total={total}>{fmt(total)}</strong> responses in {days}.</p>
        <Chart kind='line' x={props.days} series={[{ label: 'Responses', colour: s.colour, values: s.values }]} summary={`Line chart of responses per day for ${s.zone}: ${fmt(total)} in all`} />
        <div class='table-wrap'>
          <table class='report-data'>
            <caption>Responses per day (UTC)</caption>
            <thead><tr><th scope='col'>Day</th><th scope='col' class='num'>Responses</th><th scope='col' class='num'>UDP</th><th scope='col' class='num'>TCP</th></tr></thead>
            <tbody>
              {props.days.map(d => {
                const r = s.byDay.get(d)
                return <tr key={d}><th scope='row'>{d}</th><td class='num'>{fmt(r?.rspTotal ?? 0)}</td><td class='num'>{fmt(r?.udpTotal ?? 0)}</td><td class='num'>{fmt(r?.tcpTotal ?? 0)}</td></tr>
              })}
            </tbody>
          </table>
        </div>
      </section>
    )
  }
  if (total === 0) return <p class='empty'>No responses for these {series.length} zones in these days. Queries answered by this service's DNS server are counted; try a wider range.</p>
  const each = series.map(s => `${s.zone} ${fmt(s.total)}`).join(', ')
  return (
    <section class='report' aria-labelledby='report-title'>
      <h2 id='report-title'>Responses per day for {series.length} zones</h2>
      {props.note !== undefined && <p class='muted'>{props.note}</p>}
      <p>Total: <strong data-total={total}>{fmt(total)}</strong> responses in {days}.</p>
      <Chart kind='line' x={props.days} series={series.map(s => ({ label: s.zone, colour: s.colour, values: s.values }))} summary={`Line chart of responses per day for ${series.length} zones: ${each}; ${fmt(total)} in all`} />
      <div class='table-wrap'>
        <table class='report-data'>
          <caption>Responses per day (UTC), by zone</caption>
          <thead>
            <tr>
              <th scope='col'>Day</th>
              {series.map(s => <th key={s.zone} scope='col' class='num'><span class='swatch' style={{ background: s.colour }} aria-hidden='true' />{s.zone}</th>)}
              <th scope='col' class='num'>All</th>
            </tr>
          </thead>
          <tbody>
            {props.days.map((d, i) => (
              <tr key={d}><th scope='row'>{d}</th>{series.map(s => <td key={s.zone} class='num'>{fmt(s.values[i]!)}</td>)}<td class='num'>{fmt(series.reduce((a, s) => a + s.values[i]!, 0))}</td></tr>
            ))}
          </tbody>
          <tfoot>
            <tr><th scope='row'>Total</th>{series.map(s => <td key={s.zone} class='num'>{fmt(s.total)}</td>)}<td class='num'>{fmt(total)}</td></tr>
          </tfoot>
        </table>
      </div>
    </section>
  )
}
