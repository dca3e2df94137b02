export interface FailoverRow {
  zoneName: string
  poolName: string
  poolRecord: string
  poolRecordType: string
  poolRecordState: string
  failoverReason: string
  allFailRecord: boolean
  trafficServicePoolType: string
  failoverTime: string
}

/** Failover events on a timeline, oldest first: when, which pool and record, the new state and why. */
export function FailoverResult (props: { rows: FailoverRow[] }) {
  if (props.rows.length === 0) return <p class='empty'>No failover events in this period. Events come from probes of SB, TC, SF and SLB pools and from records forced active or inactive.</p>
  const rows = [...props.rows].sort((a, b) => a.failoverTime.localeCompare(b.failoverTime))
  return (
    <section class='report' aria-labelledby='report-title'>
      <h2 id='report-title'>Failover events</h2>
      <p>{rows.length} {rows.length === 1 ? 'event' : 'events'}, oldest first (times UTC).</p>
      <ol class='timeline'>
        {rows.map((r, i) => (
          <li key={i} class={`event state-${r.poolRecordState.toLowerCase()}`}>
            <time dateTime={r.failoverTime}>{r.failoverTime.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')}</time>
            <span class='what'><strong>{r.poolRecord}</strong> {r.poolRecordState === 'ACTIVE' ? 'became active' : 'became inactive'}{r.allFailRecord && ' (the all-fail record)'}</span>
            <span class='why muted'>{r.failoverReason} — pool {r.poolName} ({r.trafficServicePoolType}) in {r.zoneName}</span>
          </li>
        ))}
      </ol>
    </section>
  )
}
