/** The pool kinds by their profile's `@context` (…/SBPool.jsonschema → SB). */
const KINDS: Record<string, string> = {
  RDPool: 'Resource distribution pool',
  SBPool: 'Simple failover (SiteBacker) pool',
  TCPool: 'Traffic controller pool',
  SFPool: 'Simple failover pool',
  SLBPool: 'Simple load balancing pool',
  DirPool: 'Directional pool'
}

interface RecordInfo { state?: string, availableToServe?: boolean, priority?: number, weight?: number }

/**
 * A pool's records with their live state as the service answers it (GET rrsets: `status`, and
 * per record `availableToServe` and the forced `state`), in words beside each record.
 */
export function PoolState (props: { profile: Record<string, unknown>, rdata: string[] }) {
  const context = typeof props.profile['@context'] === 'string' ? props.profile['@context'] : ''
  const kind = /\/(\w+)\.jsonschema$/.exec(context)?.[1] ?? ''
  const status = typeof props.profile.status === 'string' ? props.profile.status : undefined
  const info = Array.isArray(props.profile.rdataInfo) ? props.profile.rdataInfo as RecordInfo[] : []
  const backups = Array.isArray(props.profile.backupRecords)
    ? props.profile.backupRecords as Array<{ rdata?: string }>
    : typeof props.profile.backupRecord === 'object' && props.profile.backupRecord !== null ? [props.profile.backupRecord as { rdata?: string }] : []
  return (
    <div class='pool'>
      <p class='pool-kind'>{KINDS[kind] ?? 'Pool'}{status !== undefined && <> — status <strong class={`pool-status pool-${status.toLowerCase()}`}>{status}</strong></>}</p>
      <ul class='rdata'>
        {props.rdata.map((d, i) => {
          const r = info[i]
          const serving = r?.availableToServe
          return (
            <li key={i}>
              <code>{d}</code>
              {serving !== undefined && <span class={serving ? 'live up' : 'live down'}>{serving ? 'serving' : 'not serving'}</span>}
              {r?.state !== undefined && r.state !== 'NORMAL' && <span class='tag'>forced {r.state.toLowerCase()}</span>}
              {r?.priority !== undefined && <span class='muted'> priority {r.priority}</span>}
            </li>
          )
        })}
        {backups.map((b, i) => <li key={`b${i}`}><code>{b.rdata}</code> <span class='muted'>backup</span></li>)}
      </ul>
    </div>
  )
}
