import { useState } from 'preact/hooks'
import { ApiError, json, zonePath } from '../api.ts'

export interface HealthRow {
  zoneName: string
  accountName: string
  okCount: number
  errorCount: number
  warningCount: number
  bestPracticeViolationCount: number
  infoCount: number
  naCount: number
  healthScore: number
}

interface CheckReport {
  version: string
  checks: Array<{ category: string, results: Array<{ name: string, description: string, hint?: string, status: string, messages: Array<{ status: string, message: string }> }> }>
}

const FAILING = new Set(['ERROR', 'WARNING', 'BEST_PRACTICE'])

/** The checks of a zone's newest health check that did not pass (GET /zones/{zone}/healthchecks/latest). */
function FailingChecks (props: { zone: string }) {
  const [report, setReport] = useState<CheckReport | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [open, setOpen] = useState(false)
  const toggle = (): void => {
    setOpen(!open)
    if (report !== undefined || open) return
    json<CheckReport>('GET', `/zones/${zonePath(props.zone)}/healthchecks/latest`).then(setReport, (err: unknown) => setError(err instanceof ApiError ? err.message : String(err)))
  }
  const failing = report?.checks.flatMap(c => c.results.filter(r => FAILING.has(r.status)).map(r => ({ ...r, category: c.category }))) ?? []
  return (
    <>
      <button type='button' class='ghost' aria-expanded={open} onClick={toggle}>{open ? 'Hide checks' : 'Failing checks'}</button>
      {open && (
        <div class='checks'>
          {error !== undefined && <p class='error' role='alert'>{error}</p>}
          {report === undefined && error === undefined && <p class='muted' role='status'>Reading the checks…</p>}
          {report !== undefined && failing.length === 0 && <p>Every check of {report.version} passed or did not apply.</p>}
          {failing.length > 0 && (
            <ul>
              {failing.map((r, i) => (
                <li key={i}><strong>{r.status}</strong> {r.category}: {r.description}{r.messages.length > 0 && <> — {r.messages.map(m => m.message).join(' ')}</>}{r.hint !== undefined && <span class='muted'> ({r.hint})</span>}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </>
  )
}

/** Health scores per zone (0–10, lowest first) with their result counts and failing checks. */
export function HealthResult (props: { rows: HealthRow[] }) {
  if (props.rows.length === 0) return <p class='empty'>No zone has a completed health check yet. A zone is checked daily and after changes; the API starts one at once: POST /zones/{'{zone}'}/healthchecks.</p>
  return (
    <section class='report' aria-labelledby='report-title'>
      <h2 id='report-title'>Health scores per zone</h2>
      <div class='table-wrap'>
        <table class='report-data'>
          <caption>Newest completed health check of each zone, lowest score first</caption>
          <thead><tr><th scope='col'>Zone</th><th scope='col'>Score (of 10)</th><th scope='col' class='num'>Errors</th><th scope='col' class='num'>Warnings</th><th scope='col' class='num'>Best practice</th><th scope='col' class='num'>OK</th><th scope='col'><span class='sr-only'>Checks</span></th></tr></thead>
          <tbody>
            {props.rows.map(r => (
              <tr key={r.zoneName}>
                <th scope='row'>{r.zoneName}</th>
                <td><meter min={0} max={10} low={5} high={8} optimum={10} value={r.healthScore} aria-label={`Health score of ${r.zoneName}`} /> {r.healthScore.toFixed(2)}</td>
                <td class='num'>{r.errorCount}</td>
                <td class='num'>{r.warningCount}</td>
                <td class='num'>{r.bestPracticeViolationCount}</td>
                <td class='num'>{r.okCount}</td>
                <td><FailingChecks zone={r.zoneName} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
