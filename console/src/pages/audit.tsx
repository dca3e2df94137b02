import { useEffect, useState } from 'preact/hooks'
import { ApiError, call } from '../api.ts'
import { navigate } from '../router.ts'
import { saveBlob } from '../tasks.ts'

interface AuditRecord {
  objectType: string
  changeType: string
  object: string
  user: string
  ipAddress: string | null
  changeTime: string
  account: string | null
  parent: string | null
  detail?: { changes?: Array<{ name: string, from?: unknown, to?: unknown }>, others?: Array<{ name: string, value?: unknown }> }
  changeComment?: string | null
}

const PAGE_SIZE = 50
const FIELDS = [
  ['users', 'User'],
  ['object_name', 'Object name'],
  ['object_type', 'Object type'],
  ['change_type', 'Change type'],
  ['account', 'Account']
] as const

type FilterKey = typeof FIELDS[number][0] | 'from' | 'to'

/** `2026-11-26T10:00` (a datetime-local value, read as UTC) → `20261126100000`. */
function stamp (local: string): string {
  return local.replace(/[-:T]/g, '').padEnd(14, '0').slice(0, 14)
}

/** The audit filter (`key:value::key:value`) of the page's fields; empty: the last 24 hours. */
export function auditFilter (values: Partial<Record<FilterKey, string>>): string {
  const terms: string[] = []
  const from = values.from?.trim() ?? ''
  const to = values.to?.trim() ?? ''
  if (from !== '' || to !== '') {
    const end = to !== '' ? stamp(to) : new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)
    const start = from !== '' ? stamp(from) : '19700101000000'
    terms.push(`date_range:${start}-${end}`)
  }
  for (const [key] of FIELDS) {
    const v = values[key]?.trim() ?? ''
    if (v !== '') terms.push(`${key}:${v}`)
  }
  return terms.join('::')
}

/** The URL of `rel` in a Link header (path-absolute, as the service writes them). */
function linkOf (header: string | null, rel: string): string | undefined {
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const m = /^<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim())
    if (m !== null && m[2] === rel) return m[1]
  }
  return undefined
}

function changesOf (r: AuditRecord): string {
  const changes = (r.detail?.changes ?? []).map(c => `${c.name}: ${c.from === undefined || c.from === null ? '' : String(c.from) + ' → '}${c.to === undefined || c.to === null ? '(removed)' : String(c.to)}`)
  const others = (r.detail?.others ?? []).map(o => `${o.name}: ${String(o.value ?? '')}`)
  return [...changes, ...others].join('; ')
}

/** The audit log with its filters, cursor paging and CSV download (GET /reports/dns_configuration/audit). */
export function AuditPage (props: { query: URLSearchParams }) {
  const values: Partial<Record<FilterKey, string>> = {}
  for (const key of ['from', 'to', ...FIELDS.map(f => f[0])] as FilterKey[]) values[key] = props.query.get(key) ?? ''
  const filter = auditFilter(values)
  const first = `/reports/dns_configuration/audit?${new URLSearchParams({ limit: String(PAGE_SIZE), ...(filter === '' ? {} : { filter }) }).toString()}`
  const [url, setUrl] = useState(first)
  const [draft, setDraft] = useState(values)
  const [page, setPage] = useState<{ records: AuditRecord[], next?: string, previous?: string } | undefined>()
  const [error, setError] = useState<string | undefined>()

  useEffect(() => { setUrl(first); setDraft(values) }, [first])
  useEffect(() => {
    let live = true
    setError(undefined)
    call('GET', url).then(async res => {
      const body = await res.json() as { auditRecords: AuditRecord[] }
      const link = res.headers.get('link')
      if (live) setPage({ records: body.auditRecords, next: linkOf(link, 'next'), previous: linkOf(link, 'previous') })
    }, (err: unknown) => { if (live) setError(err instanceof ApiError ? err.message : String(err)) })
    return () => { live = false }
  }, [url])

  async function csv (): Promise<void> {
    try {
      const res = await call('GET', first.replace(`limit=${PAGE_SIZE}`, 'limit=250'), { headers: { accept: 'text/csv' } })
      saveBlob(await res.blob(), 'audit-log.csv')
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err))
    }
  }

  const apply = (event: Event): void => {
    event.preventDefault()
    const q = new URLSearchParams()
    for (const [k, v] of Object.entries(draft)) if (v !== undefined && v.trim() !== '') q.set(k, v.trim())
    const s = q.toString()
    navigate('/audit' + (s === '' ? '' : `?${s}`))
  }

  return (
    <section>
      <div class='title-row'>
        <h1>Audit log</h1>
        <button type='button' class='ghost' onClick={() => { csv().catch(() => {}) }}>Download CSV</button>
      </div>
      <p class='muted'>Every change to zones, records and users of your accounts. Without a date range: the last 24 hours, newest first. Times are UTC.</p>
      <form class='filters' onSubmit={apply} aria-label='Audit log filters'>
        <div class='field'>
          <label for='audit-from'>From (UTC)</label>
          <input id='audit-from' type='datetime-local' value={draft.from} onInput={e => setDraft({ ...draft, from: e.currentTarget.value })} />
        </div>
        <div class='field'>
          <label for='audit-to'>To (UTC)</label>
          <input id='audit-to' type='datetime-local' value={draft.to} onInput={e => setDraft({ ...draft, to: e.currentTarget.value })} />
        </div>
        {FIELDS.map(([key, label]) => (
          <div class='field' key={key}>
            <label for={`audit-${key}`}>{label}</label>
            <input id={`audit-${key}`} value={draft[key]} onInput={e => setDraft({ ...draft, [key]: e.currentTarget.value })} />
          </div>
        ))}
        <button type='submit'>Filter</button>
      </form>
      {error !== undefined && <p class='error' role='alert'>The audit log could not be read: {error}</p>}
      {page === undefined && error === undefined && <p role='status' class='muted'>Loading the audit log…</p>}
      {page !== undefined && page.records.length === 0 && <p class='empty'>No change matches{filter === '' ? ' in the last 24 hours' : ' these filters'}. Widen the date range or clear a filter.</p>}
      {page !== undefined && page.records.length > 0 && (
        <div class='table-wrap'>
          <table class='audit'>
            <thead><tr><th scope='col'>Time (UTC)</th><th scope='col'>User</th><th scope='col'>Change</th><th scope='col'>Object</th><th scope='col'>Account</th><th scope='col'>Details</th></tr></thead>
            <tbody>
              {page.records.map((r, i) => (
                <tr key={i}>
                  <td data-label='Time'>{r.changeTime}</td>
                  <td data-label='User'>{r.user}{r.ipAddress !== null && r.ipAddress !== '' && <span class='muted'> from {r.ipAddress}</span>}</td>
                  <td data-label='Change'>{r.changeType} {r.objectType}</td>
                  <td data-label='Object'><code>{r.object}</code>{r.parent !== null && r.parent !== '' && <span class='muted'> in {r.parent}</span>}</td>
                  <td data-label='Account'>{r.account ?? ''}</td>
                  <td data-label='Details'>{changesOf(r)}{r.changeComment !== undefined && r.changeComment !== null && r.changeComment !== '' && <em> “{r.changeComment}”</em>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page !== undefined && (page.next !== undefined || page.previous !== undefined) && (
        <nav class='pager' aria-label='Pages of the audit log'>
          <button type='button' disabled={page.previous === undefined} onClick={() => setUrl(page.previous!)}>Newer</button>
          <button type='button' disabled={page.next === undefined} onClick={() => setUrl(page.next!)}>Older</button>
        </nav>
      )}
    </section>
  )
}
