import { useEffect, useState } from 'preact/hooks'
import { ApiError, json, zonePath } from '../api.ts'

interface DnssecInfo {
  status: 'SIGNED' | 'UNSIGNED'
  keys: Array<{ type: string, keyId: number, status: string, dsRecords?: string[] }>
}

/** Copy text to the clipboard; false when the browser refuses (then the text is there to select). */
async function copy (text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

/** The zone's DNSSEC status and the DS records to give the registrar (GET /zones/{zone}/dnssec). */
export function Dnssec (props: { zone: string }) {
  const [info, setInfo] = useState<DnssecInfo | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [copied, setCopied] = useState<string | undefined>()

  useEffect(() => {
    json<DnssecInfo>('GET', `/zones/${zonePath(props.zone)}/dnssec`).then(setInfo, (err: unknown) => setError(err instanceof ApiError ? err.message : String(err)))
  }, [props.zone])

  const ds = info?.keys.filter(k => k.type === 'KSK' && k.status !== 'EXPIRED').flatMap(k => k.dsRecords ?? []) ?? []
  return (
    <section class='dnssec' aria-labelledby='dnssec-title'>
      <h2 id='dnssec-title'>DNSSEC</h2>
      {error !== undefined && <p class='error' role='alert'>The DNSSEC status could not be read: {error}</p>}
      {info === undefined && error === undefined && <p class='muted' role='status'>Reading the DNSSEC status…</p>}
      {info?.status === 'UNSIGNED' && <p>This zone is not signed. Signing is done through the API (POST /zones/{'{zone}'}/dnssec).</p>}
      {info?.status === 'SIGNED' && (
        <>
          <p>This zone is signed. Give these DS records to the registrar of the parent zone:</p>
          {ds.length === 0 && <p class='muted'>No key signing key has DS records yet.</p>}
          {ds.length > 0 && (
            <>
              <pre class='ds' tabIndex={0} aria-label='DS records'>{ds.join('\n')}</pre>
              <button type='button' onClick={() => { copy(ds.join('\n')).then(ok => setCopied(ok ? 'Copied the DS records.' : 'The browser refused to copy; select the records above and copy them.'), () => {}) }}>Copy DS records</button>
              {copied !== undefined && <span role='status' class='muted'> {copied}</span>}
            </>
          )}
        </>
      )}
    </section>
  )
}
