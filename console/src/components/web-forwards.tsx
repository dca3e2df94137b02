import { useEffect, useState } from 'preact/hooks'
import { ApiError, call, json, zonePath } from '../api.ts'
import { forwardFieldOf, type ForwardField } from '../forward-fields.ts'

interface HeaderRuleDto { header: string, matchCriteria: string, value: string, caseInsensitive?: boolean }
interface ForwardRecordDto { redirectTo: string, forwardType: string, priority: number, rules: HeaderRuleDto[] }

/** A web forward as the API gives it (GET /zones/{zone}/webforwards). */
export interface WebForwardDto {
  guid: string
  requestTo: string
  defaultRedirectTo: string
  defaultForwardType: string
  relativeForwardType?: string
  records?: ForwardRecordDto[]
}

interface WebForwardList { webForwards: WebForwardDto[], resultInfo: { totalCount: number } }

/** The API's forward types, in plain words. */
const TYPES: ReadonlyArray<[string, string]> = [
  ['HTTP_301_REDIRECT', 'Permanent redirect (301)'],
  ['HTTP_302_REDIRECT', 'Temporary redirect (302)'],
  ['HTTP_303_REDIRECT', 'See other (303)'],
  ['HTTP_307_REDIRECT', 'Temporary redirect keeping the method (307)'],
  ['Framed', 'Framed: the target shown in a frame, the address kept']
]

/** The API's relative types (what of the request the target gets), in plain words; '' for none. */
const RELATIVE: ReadonlyArray<[string, string]> = [
  ['', 'Nothing: always the target as given'],
  ['PATH', 'The path below the forwarded address'],
  ['PARAMETER', 'The query parameters'],
  ['PARAMETER_AND_PATH', 'The path and the query parameters']
]

const MATCHES: Record<string, string> = { BEGINS_WITH: 'begins with', CONTAINS: 'contains', ENDS_WITH: 'ends with', MATCHES: 'matches' }

const typeWords = (type: string): string => TYPES.find(([t]) => t.toLowerCase() === type.toLowerCase())?.[1] ?? type
const relativeWords = (relative: string | undefined): string => RELATIVE.find(([r]) => r === (relative ?? '').toUpperCase())?.[1] ?? String(relative)

/** What the forward form edits. */
interface ForwardDraft { requestTo: string, target: string, type: string, relative: string }

/**
 * Add a web forward (POST), or change the default target, type and relative type of one
 * (`existing` given: PATCH, the requested address fixed); the API's messages at their input.
 */
function ForwardForm (props: { zone: string, existing?: WebForwardDto, onDone: (draft: ForwardDraft) => void, onCancel: () => void }) {
  const e = props.existing
  const [draft, setDraft] = useState<ForwardDraft>(e === undefined
    ? { requestTo: '', target: '', type: 'HTTP_301_REDIRECT', relative: '' }
    : { requestTo: e.requestTo, target: e.defaultRedirectTo, type: TYPES.find(([t]) => t.toLowerCase() === e.defaultForwardType.toLowerCase())?.[0] ?? e.defaultForwardType, relative: e.relativeForwardType ?? '' })
  const [errors, setErrors] = useState<Partial<Record<ForwardField, string[]>>>({})
  const [busy, setBusy] = useState(false)
  const id = e === undefined ? 'forward-add' : `forward-edit-${e.guid}`
  const path = `/zones/${zonePath(props.zone)}/webforwards`

  async function submit (event: Event): Promise<void> {
    event.preventDefault()
    const local: Partial<Record<ForwardField, string[]>> = {}
    if (draft.requestTo.trim() === '') local['request-to'] = [`Give the address to forward, a name in ${props.zone} with an optional path (www.${props.zone.replace(/\.$/, '')}/docs).`]
    if (draft.target.trim() === '') local.target = ['Give the target, such as https://www.example.com/.']
    setErrors(local)
    if (Object.keys(local).length > 0) return
    setBusy(true)
    try {
      if (e === undefined) {
        await call('POST', path, { body: { requestTo: draft.requestTo.trim(), defaultRedirectTo: draft.target.trim(), defaultForwardType: draft.type, ...(draft.relative === '' ? {} : { relativeForwardType: draft.relative }) } })
      } else {
        await call('PATCH', `${path}/${encodeURIComponent(e.guid)}`, { body: { defaultRedirectTo: draft.target.trim(), defaultForwardType: draft.type, relativeForwardType: draft.relative === '' ? null : draft.relative } })
      }
      props.onDone(draft)
    } catch (err) {
      const found: Partial<Record<ForwardField, string[]>> = {}
      const items = err instanceof ApiError ? err.items : [{ errorMessage: String(err) }]
      for (const item of items) (found[forwardFieldOf(item.errorMessage)] ??= []).push(item.errorMessage)
      setErrors(found)
    } finally {
      setBusy(false)
    }
  }

  const described = (field: ForwardField): Record<string, string> =>
    errors[field] === undefined ? {} : { 'aria-invalid': 'true', 'aria-describedby': `${id}-${field}-error` }
  const problem = (field: ForwardField) => errors[field] !== undefined && (
    <p id={`${id}-${field}-error`} class='field-error' role='alert'>{errors[field]!.join(' ')}</p>
  )

  return (
    <form class='card forward-form' aria-label={e === undefined ? 'Add a web forward' : `Edit the web forward of ${e.requestTo}`} onSubmit={ev => { submit(ev).catch(() => {}) }}>
      <h3>{e === undefined ? 'Add a web forward' : `Edit the web forward of ${e.requestTo}`}</h3>
      <div class='grid'>
        <div class='field'>
          <label for={`${id}-request-to`}>Forwarded address</label>
          <input id={`${id}-request-to`} value={draft.requestTo} disabled={e !== undefined} placeholder={`www.${props.zone.replace(/\.$/, '')}`} onInput={ev => setDraft({ ...draft, requestTo: ev.currentTarget.value })} {...described('request-to')} />
          {problem('request-to')}
        </div>
        <div class='field'>
          <label for={`${id}-target`}>Target</label>
          <input id={`${id}-target`} value={draft.target} placeholder='https://www.example.com/' onInput={ev => setDraft({ ...draft, target: ev.currentTarget.value })} {...described('target')} />
          {problem('target')}
        </div>
      </div>
      <div class='grid'>
        <div class='field'>
          <label for={`${id}-type`}>Forward type</label>
          <select id={`${id}-type`} value={draft.type} onChange={ev => setDraft({ ...draft, type: ev.currentTarget.value })} {...described('type')}>
            {TYPES.map(([t, words]) => <option key={t} value={t}>{words}</option>)}
          </select>
          {problem('type')}
        </div>
        <div class='field'>
          <label for={`${id}-relative`}>Carried over to the target</label>
          <select id={`${id}-relative`} value={draft.relative} onChange={ev => setDraft({ ...draft, relative: ev.currentTarget.value })} {...described('relative')}>
            {RELATIVE.map(([r, words]) => <option key={r} value={r}>{words}</option>)}
          </select>
          {problem('relative')}
        </div>
      </div>
      {problem('form')}
      <div class='actions'>
        <button type='submit' disabled={busy}>{busy ? 'Saving…' : e === undefined ? 'Add web forward' : 'Save web forward'}</button>
        <button type='button' class='ghost' onClick={props.onCancel}>Cancel</button>
      </div>
    </form>
  )
}

/**
 * The web forwards of a primary zone (GET /zones/{zone}/webforwards): each with its address,
 * target, type and relative type, its advanced records (header rules) read-only; add one,
 * change a forward's default target and types, delete one (confirmed naming its address), as
 * `canEdit` allows. `version` changing reads the list again; `onChanged` reloads the zone page
 * (a forward writes and removes its host's A/AAAA records).
 */
/** The owner name a forward's `requestTo` names (`http://Go.Example.org/a#b` → `go.example.org.`). */
export function forwardedOwner (requestTo: string): string {
  const host = requestTo.trim().replace(/^http:\/\//i, '').split(/[/#]/)[0] ?? ''
  return `${host.toLowerCase().replace(/\.$/, '')}.`
}

export function WebForwards (props: { zone: string, canEdit: boolean, version: number, onChanged: (message: string) => void, onHosts?: (owners: ReadonlySet<string>) => void }) {
  const [forwards, setForwards] = useState<WebForwardDto[] | undefined>()
  const [total, setTotal] = useState(0)
  const [error, setError] = useState<string | undefined>()
  const [adding, setAdding] = useState(false)
  const [editing, setEditing] = useState<string | undefined>()
  const [confirming, setConfirming] = useState<string | undefined>()
  const path = `/zones/${zonePath(props.zone)}/webforwards`

  useEffect(() => {
    let live = true
    setError(undefined)
    setAdding(false)
    setEditing(undefined)
    setConfirming(undefined)
    json<WebForwardList>('GET', `${path}?limit=1000`).then(list => {
      if (!live) return
      setForwards(list.webForwards)
      props.onHosts?.(new Set(list.webForwards.map(f => forwardedOwner(f.requestTo))))
      setTotal(list.resultInfo.totalCount)
    }, (err: unknown) => {
      if (live) setError(err instanceof ApiError ? err.message : String(err))
    })
    return () => { live = false }
  }, [path, props.version])

  async function remove (f: WebForwardDto): Promise<void> {
    try {
      await call('DELETE', `${path}/${encodeURIComponent(f.guid)}`)
      props.onChanged(`Deleted the web forward of ${f.requestTo}.`)
    } catch (err) {
      setConfirming(undefined)
      setError(err instanceof ApiError ? err.message : String(err))
    }
  }

  return (
    <section class='web-forwards' aria-labelledby='web-forwards-title'>
      <div class='title-row'>
        <h2 id='web-forwards-title'>Web forwards</h2>
        {props.canEdit && !adding && forwards !== undefined && <button type='button' class='ghost' onClick={() => { setAdding(true); setEditing(undefined) }}>Add a web forward</button>}
      </div>
      {error !== undefined && <p class='error' role='alert'>{error}</p>}
      {adding && <ForwardForm zone={props.zone} onDone={d => props.onChanged(`Added the web forward of ${d.requestTo.trim()}; its host now answers with the forwarding server's addresses.`)} onCancel={() => setAdding(false)} />}
      {forwards === undefined && error === undefined && <p class='muted' role='status'>Loading the web forwards…</p>}
      {forwards !== undefined && forwards.length === 0 && (
        <p class='empty'>
          No web forwards. A web forward sends the visitors of an address in this zone (such as www.{props.zone.replace(/\.$/, '')}) to another web address, by a redirect or in a frame; the service points that host's A and AAAA records at its forwarding server.
          {props.canEdit ? ' Add one with "Add a web forward".' : ' Adding one needs update access to the zone\'s account.'}
        </p>
      )}
      {forwards !== undefined && total > forwards.length && <p class='notice'>Showing the first {forwards.length} of {total} web forwards.</p>}
      {forwards !== undefined && forwards.length > 0 && (
        <ul class='forward-list'>
          {forwards.map(f => {
            const advanced = f.records !== undefined && f.records.length > 0
            return (
              <li key={f.guid} class='forward' aria-label={`Web forward of ${f.requestTo}`}>
                <div class='forward-head'>
                  <h3><code>{f.requestTo}</code>{advanced && <span class='tag'>advanced</span>}</h3>
                  {props.canEdit && (
                    <div class='row-actions'>
                      {confirming === f.guid
                        ? (
                          <span role='group' aria-label={`Confirm deleting the web forward of ${f.requestTo}`}>
                            <span>Delete the web forward of {f.requestTo}? Its host's forwarding records go with it.</span>
                            <button type='button' class='danger' onClick={() => { remove(f).catch(() => {}) }}>Delete</button>
                            <button type='button' class='ghost' onClick={() => setConfirming(undefined)}>Keep</button>
                          </span>
                          )
                        : (
                          <>
                            <button type='button' class='ghost' aria-label={`Edit the web forward of ${f.requestTo}`} onClick={() => { setEditing(f.guid); setAdding(false) }}>Edit</button>
                            <button type='button' class='ghost' aria-label={`Delete the web forward of ${f.requestTo}`} onClick={() => setConfirming(f.guid)}>Delete</button>
                          </>
                          )}
                    </div>
                  )}
                </div>
                <dl class='properties'>
                  <div><dt>Target</dt><dd><code>{f.defaultRedirectTo}</code></dd></div>
                  <div><dt>Type</dt><dd>{typeWords(f.defaultForwardType)}</dd></div>
                  <div><dt>Carried over</dt><dd>{relativeWords(f.relativeForwardType)}</dd></div>
                </dl>
                {advanced && (
                  <div class='forward-records'>
                    <p class='muted'>Advanced records, the first whose header rules all match (by priority) taken before the target above. Read-only here: edit header rules through the API.</p>
                    <div class='table-wrap'>
                      <table>
                        <caption class='sr-only'>Advanced records of {f.requestTo}</caption>
                        <thead><tr><th scope='col' class='num'>Priority</th><th scope='col'>Header rules</th><th scope='col'>Target</th><th scope='col'>Type</th></tr></thead>
                        <tbody>
                          {[...f.records!].sort((a, b) => a.priority - b.priority).map(r => (
                            <tr key={r.priority}>
                              <td class='num'>{r.priority}</td>
                              <td><ul class='rdata'>{r.rules.map((rule, i) => <li key={i}><code>{rule.header}</code> {MATCHES[rule.matchCriteria.toUpperCase()] ?? rule.matchCriteria} <code>{rule.value}</code>{rule.caseInsensitive === true && ' (any case)'}</li>)}</ul></td>
                              <td><code>{r.redirectTo}</code></td>
                              <td>{typeWords(r.forwardType)}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  </div>
                )}
                {editing === f.guid && <ForwardForm zone={props.zone} existing={f} onDone={() => props.onChanged(`Saved the web forward of ${f.requestTo}.`)} onCancel={() => setEditing(undefined)} />}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
