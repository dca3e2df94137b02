import { useState } from 'preact/hooks'
import { ApiError, call, json, zonePath } from '../api.ts'

/** One primary name server of a secondary zone, as GET /zones/{zone} shows it. */
export interface PrimaryServerDto {
  ip: string
  tsigKey?: string
  tsigAlgorithm?: string
}

/** `transferStatusDetails` of a secondary zone. */
export interface TransferStatusDto {
  lastRefresh?: string
  nextRefresh?: string
  lastRefreshStatus?: string
  lastRefreshStatusMessage?: string
}

const POLL_MS = 500
const WAIT_MS = 60_000

/**
 * A secondary zone's primary name servers (with the TSIG key's name, never its secret) and its
 * transfer state; "Transfer now" (POST /zones/{zone}/transfer) for users who may update the
 * zone, then waits while the transfer is in progress and reloads the zone.
 */
export function SecondaryTransfers (props: { zone: string, servers: Record<string, PrimaryServerDto>, status: TransferStatusDto, canTransfer: boolean, onChanged: (message: string) => void }) {
  const [busy, setBusy] = useState<string | undefined>()
  const [error, setError] = useState<string | undefined>()
  const s = props.status
  const servers = Object.entries(props.servers)

  async function transfer (): Promise<void> {
    setError(undefined)
    setBusy('Transfer requested…')
    try {
      const path = `/zones/${zonePath(props.zone)}`
      await call('POST', `${path}/transfer`)
      const end = Date.now() + WAIT_MS
      let status: TransferStatusDto = {}
      do {
        await new Promise(resolve => setTimeout(resolve, POLL_MS))
        status = (await json<{ transferStatusDetails?: TransferStatusDto }>('GET', path)).transferStatusDetails ?? {}
        if (status.lastRefreshStatusMessage !== undefined) setBusy(status.lastRefreshStatusMessage)
      } while (status.lastRefreshStatus === 'IN_PROGRESS' && Date.now() < end)
      props.onChanged(status.lastRefreshStatus === 'FAILED'
        ? `The transfer of ${props.zone} failed: ${status.lastRefreshStatusMessage ?? 'no reason given'}.`
        : status.lastRefreshStatus === 'IN_PROGRESS' ? `The transfer of ${props.zone} is still in progress.` : `Transferred ${props.zone}: ${status.lastRefreshStatusMessage ?? 'done'}.`)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err))
    } finally {
      setBusy(undefined)
    }
  }

  return (
    <section class='transfers' aria-labelledby='transfers-title'>
      <h2 id='transfers-title'>Transfers from the primary</h2>
      <div class='table-wrap'>
        <table>
          <caption class='sr-only'>Primary name servers</caption>
          <thead><tr><th scope='col'>Primary name server</th><th scope='col'>TSIG key</th></tr></thead>
          <tbody>
            {servers.map(([k, v]) => <tr key={k}><th scope='row'><code>{v.ip}</code></th><td>{v.tsigKey === undefined ? <span class='muted'>none</span> : <>{v.tsigKey} <span class='muted'>({v.tsigAlgorithm ?? 'hmac-md5'})</span></>}</td></tr>)}
          </tbody>
        </table>
      </div>
      <dl class='properties transfer-status'>
        <div><dt>Last transfer</dt><dd>{s.lastRefreshStatus ?? 'None yet'}</dd></div>
        {s.lastRefreshStatusMessage !== undefined && <div><dt>Result</dt><dd>{s.lastRefreshStatusMessage}</dd></div>}
        {s.lastRefresh !== undefined && <div><dt>Last refresh</dt><dd>{s.lastRefresh}</dd></div>}
        {s.nextRefresh !== undefined && <div><dt>Next refresh</dt><dd>{s.nextRefresh}</dd></div>}
      </dl>
      {props.canTransfer && (
        <p class='actions'>
          <button type='button' class='ghost' disabled={busy !== undefined} onClick={() => { transfer().catch(() => {}) }}>Transfer now</button>
          {busy !== undefined && <span class='muted' role='status'>{busy}</span>}
        </p>
      )}
      {error !== undefined && <p class='error' role='alert'>{error}</p>}
    </section>
  )
}
