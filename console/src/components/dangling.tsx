import { useEffect, useState } from 'preact/hooks'
import { ApiError, json, zonePath } from '../api.ts'

interface DanglingReport {
  version: string
  status: string
  message?: string
  resultInfo: { totalCount: number }
  danglingRecordList: Array<{ host: string, type: string, recordData: string, ultimateTarget: string, description: string }>
}

const POLL_MS = 1000

/**
 * The zone's dangling records: CNAMEs whose chain ends at a name that does not exist
 * (GET /zones/{zone}/healthchecks/dangling), and a button that scans again (POST), its progress
 * shown until it completes.
 */
export function Dangling (props: { zone: string, canScan: boolean }) {
  const [report, setReport] = useState<DanglingReport | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [tick, setTick] = useState(0)
  const path = `/v1/zones/${zonePath(props.zone)}/healthchecks/dangling`

  useEffect(() => {
    let live = true
    json<DanglingReport>('GET', `${path}?limit=1000`).then(r => {
      if (!live) return
      setReport(r)
      setError(undefined)
      if (r.status === 'IN_PROGRESS') setTimeout(() => { if (live) setTick(t => t + 1) }, POLL_MS)
    }, (err: unknown) => {
      if (!live) return
      // No scan yet is not an error to show: the section offers one.
      if (err instanceof ApiError && err.status === 404) setReport(undefined)
      else setError(err instanceof ApiError ? err.message : String(err))
    })
    return () => { live = false }
  }, [path, tick])

  async function scan (): Promise<void> {
    setError(undefined)
    try {
      setReport(await json<DanglingReport>('POST', path, { body: {} }))
      setTick(t => t + 1)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err))
    }
  }

  const running = report?.status === 'IN_PROGRESS'
  return (
    <section class='dangling' aria-labelledby='dangling-title'>
      <div class='title-row'>
        <h2 id='dangling-title'>Dangling records</h2>
        {props.canScan && <button type='button' class='ghost' disabled={running} onClick={() => { scan().catch(() => {}) }}>{running ? 'Scanning…' : 'Scan CNAME records'}</button>}
      </div>
      {error !== undefined && <p class='error' role='alert'>{error}</p>}
      {report === undefined && error === undefined && <p class='muted'>Not scanned yet. A scan follows every CNAME record to where its chain ends, through the service's recursive resolvers.</p>}
      {running && <p role='status' class='muted'>The scan is running…</p>}
      {report !== undefined && !running && report.status !== 'COMPLETED' && <p class='error' role='alert'>The scan {report.status.toLowerCase()}{report.message !== undefined ? `: ${report.message}` : '.'}</p>}
      {report?.status === 'COMPLETED' && report.danglingRecordList.length === 0 && <p role='status'>No dangling record (scan of {report.version}).</p>}
      {report?.status === 'COMPLETED' && report.danglingRecordList.length > 0 && (
        <div class='table-wrap'>
          <table class='report-data'>
            <caption>{report.resultInfo.totalCount} dangling {report.resultInfo.totalCount === 1 ? 'record' : 'records'} (scan of {report.version})</caption>
            <thead><tr><th scope='col'>Owner</th><th scope='col'>Type</th><th scope='col'>Points to</th><th scope='col'>Ends at</th><th scope='col'>Why</th></tr></thead>
            <tbody>
              {report.danglingRecordList.map((d, i) => (
                <tr key={i}><th scope='row'>{d.host}</th><td>{d.type}</td><td><code>{d.recordData}</code></td><td><code>{d.ultimateTarget}</code></td><td>{d.description}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
