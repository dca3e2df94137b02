import { useEffect, useState } from 'preact/hooks'
import { ApiError, json } from '../api.ts'
import { Link } from '../link.tsx'
import { accountsWhere, type Me } from '../me.ts'
import { navigate } from '../router.ts'

interface ZoneProperties {
  name: string
  accountName: string
  type: string
  status: string
  dnssecStatus: string
  resourceRecordCount: number
  lastModifiedDateTime: string
}

interface ZoneList {
  zones: Array<{ properties: ZoneProperties }>
  cursorInfo?: { next?: string, previous?: string, first?: string, last?: string }
}

const PAGE_SIZE = 50
const SORTS = [['NAME', 'Name'], ['ACCOUNT_NAME', 'Account'], ['RECORD_COUNT', 'Records'], ['ZONE_TYPE', 'Type']] as const

/** The filters of the list, as the page's query string holds them (so a page can be linked and kept). */
interface Filters {
  name: string
  type: string
  status: string
  sort: string
  reverse: boolean
  cursor: string
}

function filtersOf (query: URLSearchParams): Filters {
  return {
    name: query.get('name') ?? '',
    type: query.get('type') ?? '',
    status: query.get('status') ?? 'ACTIVE',
    sort: query.get('sort') ?? 'NAME',
    reverse: query.get('reverse') === 'true',
    cursor: query.get('cursor') ?? ''
  }
}

function pageUrl (f: Filters): string {
  const q = new URLSearchParams()
  if (f.name !== '') q.set('name', f.name)
  if (f.type !== '') q.set('type', f.type)
  if (f.status !== 'ACTIVE') q.set('status', f.status)
  if (f.sort !== 'NAME') q.set('sort', f.sort)
  if (f.reverse) q.set('reverse', 'true')
  if (f.cursor !== '') q.set('cursor', f.cursor)
  const s = q.toString()
  return '/zones' + (s === '' ? '' : `?${s}`)
}

/** The v3 list's `q`: name (substring), zone_type, zone_status. */
function apiQuery (f: Filters): string {
  const q = new URLSearchParams({ limit: String(PAGE_SIZE), sort: f.sort, reverse: String(f.reverse) })
  const terms = [f.name.trim() === '' ? '' : `name:${f.name.trim()}`, f.type === '' ? '' : `zone_type:${f.type}`, `zone_status:${f.status}`]
  q.set('q', terms.filter(t => t !== '').join(' '))
  if (f.cursor !== '') q.set('cursor', f.cursor)
  return q.toString()
}

/** The zone list: search, type and status filters, sorting, cursor paging (GET /v3/zones). */
export function ZonesPage (props: { me: Me | undefined, query: URLSearchParams }) {
  const f = filtersOf(props.query)
  const [list, setList] = useState<ZoneList | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [name, setName] = useState(f.name)
  const key = apiQuery(f)
  const canCreate = accountsWhere(props.me, 'create').length > 0

  useEffect(() => {
    let live = true
    setError(undefined)
    json<ZoneList>('GET', `/v3/zones?${key}`).then(
      l => { if (live) setList(l) },
      (err: unknown) => { if (live) setError(err instanceof ApiError ? err.message : String(err)) }
    )
    return () => { live = false }
  }, [key])
  useEffect(() => setName(f.name), [f.name])

  const go = (change: Partial<Filters>): void => navigate(pageUrl({ ...f, cursor: '', ...change }))
  const filtered = f.name !== '' || f.type !== '' || f.status !== 'ACTIVE'
  const cursors = list?.cursorInfo ?? {}

  return (
    <section>
      <div class='title-row'>
        <h1>Zones</h1>
        {canCreate && <Link to='/zones/new' class='button'>Create zone</Link>}
      </div>
      <form class='filters' role='search' onSubmit={e => { e.preventDefault(); go({ name }) }}>
        <div class='field'>
          <label for='zone-search'>Name contains</label>
          <input id='zone-search' type='search' value={name} onInput={e => setName(e.currentTarget.value)} placeholder='example.org' />
        </div>
        <div class='field'>
          <label for='zone-type'>Type</label>
          <select id='zone-type' value={f.type} onChange={e => go({ type: e.currentTarget.value })}>
            <option value=''>All types</option>
            <option value='PRIMARY'>Primary</option>
            <option value='SECONDARY'>Secondary</option>
            <option value='ALIAS'>Alias</option>
          </select>
        </div>
        <div class='field'>
          <label for='zone-status'>Status</label>
          <select id='zone-status' value={f.status} onChange={e => go({ status: e.currentTarget.value })}>
            <option value='ACTIVE'>Active</option>
            <option value='SUSPENDED'>Suspended</option>
            <option value='ALL'>All</option>
          </select>
        </div>
        <div class='field'>
          <label for='zone-sort'>Sort by</label>
          <select id='zone-sort' value={f.sort} onChange={e => go({ sort: e.currentTarget.value })}>
            {SORTS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </div>
        <label class='check'><input type='checkbox' checked={f.reverse} onChange={e => go({ reverse: e.currentTarget.checked })} /> Descending</label>
        <button type='submit'>Search</button>
      </form>
      {props.query.get('deleted') !== null && <p class='notice' role='status'>Deleted the zone {props.query.get('deleted')}.</p>}
      {error !== undefined && <p class='error' role='alert'>The zones could not be listed: {error}</p>}
      {list === undefined && error === undefined && <p role='status' class='muted'>Loading zones…</p>}
      {list !== undefined && list.zones.length === 0 && (
        <div class='empty' role='status'>
          {filtered
            ? <p>No zone matches these filters. <Link to='/zones'>Clear the filters</Link>.</p>
            : canCreate
              ? <p>There are no zones yet. <Link to='/zones/new'>Create a zone</Link> by uploading a BIND zone file.</p>
              : <p>There are no zones in your accounts yet. Someone with write access to an account can create one.</p>}
        </div>
      )}
      {list !== undefined && list.zones.length > 0 && (
        <div class='table-wrap'>
          <table class='zones'>
            <caption class='sr-only'>Zones, {list.zones.length} on this page</caption>
            <thead>
              <tr><th scope='col'>Name</th><th scope='col'>Type</th><th scope='col'>Status</th><th scope='col'>DNSSEC</th><th scope='col' class='num'>Records</th><th scope='col'>Account</th><th scope='col'>Last modified</th></tr>
            </thead>
            <tbody>
              {list.zones.map(({ properties: z }) => (
                <tr key={z.name}>
                  <th scope='row'><Link to={`/zones/${encodeURIComponent(z.name)}`}>{z.name}</Link></th>
                  <td data-label='Type'>{z.type}</td>
                  <td data-label='Status'>{z.status}</td>
                  <td data-label='DNSSEC'>{z.dnssecStatus}</td>
                  <td data-label='Records' class='num'>{z.resourceRecordCount}</td>
                  <td data-label='Account'>{z.accountName}</td>
                  <td data-label='Last modified'>{z.lastModifiedDateTime}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list !== undefined && Object.keys(cursors).length > 0 && (
        <nav class='pager' aria-label='Pages of zones'>
          <button type='button' disabled={cursors.first === undefined} onClick={() => navigate(pageUrl({ ...f, cursor: cursors.first! }))}>First</button>
          <button type='button' disabled={cursors.previous === undefined} onClick={() => navigate(pageUrl({ ...f, cursor: cursors.previous! }))}>Previous</button>
          <button type='button' disabled={cursors.next === undefined} onClick={() => navigate(pageUrl({ ...f, cursor: cursors.next! }))}>Next</button>
          <button type='button' disabled={cursors.last === undefined} onClick={() => navigate(pageUrl({ ...f, cursor: cursors.last! }))}>Last</button>
        </nav>
      )}
    </section>
  )
}
