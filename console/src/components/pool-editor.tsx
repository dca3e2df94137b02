import { useState } from 'preact/hooks'
import { ApiError, call, zonePath } from '../api.ts'
import { getAt, hasRecordInfo, poolFieldOf, poolFields, poolKindOf, recordFields, setAt, writableProfile, type SimpleField } from '../pool-profile.ts'
import { PoolState } from './pool-state.tsx'

/** A pool as GET rrsets lists it. */
export interface PoolRrset {
  ownerName: string
  ttl: number
  rdata: string[]
  profile: Record<string, unknown>
}

/**
 * A pool on the zone page: its records and their live state, and for users who may change the
 * zone an "Edit pool" control opening {@link PoolForm}.
 */
export function PoolCell (props: { zone: string, type: string, rrset: PoolRrset, editable: boolean, onSaved: (message: string) => void }) {
  const [editing, setEditing] = useState(false)
  const label = `${props.type} ${props.rrset.ownerName}`
  return (
    <>
      <PoolState profile={props.rrset.profile} rdata={props.rrset.rdata} />
      {props.editable && !editing && <button type='button' class='ghost' aria-label={`Edit pool ${label}`} onClick={() => setEditing(true)}>Edit pool</button>}
      {props.editable && editing && (
        <PoolForm
          zone={props.zone} type={props.type} rrset={props.rrset}
          onSaved={() => { setEditing(false); props.onSaved(`Saved the ${label} pool.`) }}
          onCancel={() => setEditing(false)}
        />
      )}
    </>
  )
}

type Errors = Record<string, string[]>

/** The JSON text of the editor as a profile object, or the reason it is not one. */
function parse (text: string): { profile: Record<string, unknown> } | { problem: string } {
  try {
    const v: unknown = JSON.parse(text)
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return { problem: 'The profile must be a JSON object: { … }.' }
    return { profile: v as Record<string, unknown> }
  } catch (err) {
    return { problem: `The profile is not valid JSON: ${err instanceof Error ? err.message : String(err)}` }
  }
}

const pretty = (profile: Record<string, unknown>): string => JSON.stringify(profile, null, 2)

/**
 * Edit a pool: its TTL, its records, the simple fields of its kind (RD order; SF and SLB monitor
 * and failover records; SB and TC record priority, threshold, state and weight) and the whole
 * profile as JSON, the one source the simple fields read and write. Save sends one PUT of the
 * rrset; the service's messages are shown at the field whose path they name, above the form
 * when they name none; the form keeps what was typed until it is saved.
 */
export function PoolForm (props: { zone: string, type: string, rrset: PoolRrset, onSaved: () => void, onCancel: () => void }) {
  const [ttl, setTtl] = useState(String(props.rrset.ttl))
  const [records, setRecords] = useState<string[]>(props.rrset.rdata)
  const [text, setText] = useState(() => pretty(writableProfile(props.rrset.profile)))
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)
  // The JSON is open from the start for the kinds without simple fields, and opened by an error about it.
  const [advanced, setAdvanced] = useState(() => { const k = poolKindOf(props.rrset.profile); return k === 'DIR' || k === '' })
  const parsed = parse(text)
  const profile = 'profile' in parsed ? parsed.profile : undefined
  const kind = poolKindOf(profile ?? props.rrset.profile)
  const id = `pool-${props.type}-${props.rrset.ownerName}`.replace(/[^\w-]/g, '_')
  const fieldId = (path: string): string => `${id}-${path.replace(/[^\w]/g, '_')}`
  const shown = new Set([...poolFields(kind), ...records.flatMap((_, i) => recordFields(kind, i))].map(f => f.path))

  /** A simple field changed: written into the JSON (nothing when the JSON cannot be read). */
  const set = (path: string, value: unknown): void => { if (profile !== undefined) setText(pretty(setAt(profile, path, value))) }

  function addRecord (): void {
    setRecords([...records, ''])
    if (profile !== undefined && hasRecordInfo(kind)) {
      const info = Array.isArray(profile.rdataInfo) ? profile.rdataInfo : []
      setText(pretty({ ...profile, rdataInfo: [...info, {}] }))
    }
  }

  function removeRecord (i: number): void {
    setRecords(records.filter((_, n) => n !== i))
    if (profile !== undefined && hasRecordInfo(kind) && Array.isArray(profile.rdataInfo)) {
      setText(pretty({ ...profile, rdataInfo: profile.rdataInfo.filter((_, n) => n !== i) }))
    }
  }

  async function submit (event: Event): Promise<void> {
    event.preventDefault()
    const local: Errors = {}
    const ttlNumber = Number(ttl)
    if (ttl.trim() === '' || !Number.isInteger(ttlNumber) || ttlNumber < 0) local.ttl = ['The TTL is a whole number of seconds, such as 300.']
    const rdata = records.map(r => r.trim())
    rdata.forEach((r, i) => { if (r === '') local[`record-${i}`] = [`Give record ${i + 1}, or remove it.`] })
    if (rdata.length === 0) local.rdata = ['A pool needs at least one record.']
    if (profile === undefined) local.json = [(parsed as { problem: string }).problem]
    setErrors(local)
    if (local.json !== undefined) setAdvanced(true)
    if (Object.keys(local).length > 0 || profile === undefined) return
    setBusy(true)
    try {
      await call('PUT', `/zones/${zonePath(props.zone)}/rrsets/${props.type}/${encodeURIComponent(props.rrset.ownerName)}`, { body: { ttl: ttlNumber, rdata, profile } })
      props.onSaved()
    } catch (err) {
      const found: Errors = {}
      const items = err instanceof ApiError ? err.items : [{ errorMessage: String(err) }]
      for (const item of items) (found[poolFieldOf(item.errorMessage, shown)] ??= []).push(item.errorMessage)
      setErrors(found)
      if (found.json !== undefined) setAdvanced(true)
    } finally {
      setBusy(false)
    }
  }

  const described = (key: string): Record<string, string> =>
    errors[key] === undefined ? {} : { 'aria-invalid': 'true', 'aria-describedby': `${fieldId(key)}-error` }
  const problem = (key: string) => errors[key] !== undefined && (
    <p id={`${fieldId(key)}-error`} class='field-error' role='alert'>{errors[key].join(' ')}</p>
  )

  /** One simple field, its value read from the JSON (disabled while the JSON cannot be read). */
  const simple = (f: SimpleField, record?: number) => {
    // A record's fields say which record to assistive technology; on screen the row says it.
    const label = record === undefined ? f.label : <>{f.label}<span class='sr-only'> of record {record + 1}</span></>
    const value = profile === undefined ? undefined : getAt(profile, f.path)
    const common = { id: fieldId(f.path), disabled: profile === undefined, ...described(f.path) }
    let control
    if (f.input === 'bool') {
      const checked = typeof value === 'boolean' ? value : f.fallback === true
      return (
        <div class='field' key={f.path}>
          <label class='check'><input type='checkbox' {...common} checked={checked} onChange={e => set(f.path, e.currentTarget.checked)} /> {label}</label>
          {problem(f.path)}
        </div>
      )
    } else if (f.input === 'select') {
      const current = typeof value === 'string' ? value : typeof f.fallback === 'string' ? f.fallback : ''
      const options = [...(f.fallback === undefined && current === '' ? [''] : []), ...(f.options ?? []), ...(current !== '' && f.options?.includes(current) !== true ? [current] : [])]
      control = (
        <select {...common} value={current} onChange={e => set(f.path, e.currentTarget.value === '' ? undefined : e.currentTarget.value)}>
          {options.map(o => <option key={o} value={o}>{o === '' ? '(not set)' : o}</option>)}
        </select>
      )
    } else {
      const shownValue = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value)
      control = (
        <input
          {...common} value={shownValue} inputMode={f.input === 'int' ? 'numeric' : undefined}
          placeholder={f.input === 'int' ? 'default' : ''}
          onInput={e => {
            const v = e.currentTarget.value
            // A whole number is written as a number; anything else as typed, for the service to refuse at this field.
            set(f.path, v.trim() === '' ? undefined : f.input === 'int' && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v)
          }}
        />
      )
    }
    return (
      <div class='field' key={f.path}>
        <label for={common.id}>{label}</label>
        {control}
        {problem(f.path)}
      </div>
    )
  }

  const label = `${props.type} ${props.rrset.ownerName}`
  return (
    <form class='record-form pool-form card' onSubmit={submit} aria-label={`Edit pool ${label}`}>
      <h3>Edit pool {label}</h3>
      {problem('form')}
      <div class='grid'>
        <div class='field'>
          <label for={fieldId('ttl')}>TTL (seconds)</label>
          <input id={fieldId('ttl')} inputMode='numeric' value={ttl} onInput={e => setTtl(e.currentTarget.value)} {...described('ttl')} />
          {problem('ttl')}
        </div>
        {poolFields(kind).map(f => simple(f))}
      </div>
      {profile === undefined && <p class='muted'>Fix the JSON below to use the fields above.</p>}
      <fieldset class='pool-records' aria-describedby={errors.rdata === undefined ? undefined : `${fieldId('rdata')}-error`}>
        <legend>Records</legend>
        {problem('rdata')}
        <ol>
          {records.map((r, i) => (
            <li key={i} class='pool-record'>
              <div class='field'>
                <label for={fieldId(`record-${i}`)}>Record {i + 1}</label>
                <input id={fieldId(`record-${i}`)} value={r} onInput={e => setRecords(records.map((x, n) => n === i ? e.currentTarget.value : x))} {...described(`record-${i}`)} />
                {problem(`record-${i}`)}
              </div>
              {recordFields(kind, i).map(f => simple(f, i))}
              {records.length > 1 && <button type='button' class='ghost' onClick={() => removeRecord(i)}>Remove<span class='sr-only'> record {i + 1}</span></button>}
            </li>
          ))}
        </ol>
        <button type='button' class='ghost' onClick={addRecord}>Add a record</button>
      </fieldset>
      <details open={advanced} onToggle={e => setAdvanced(e.currentTarget.open)}>
        <summary>Advanced: profile as JSON</summary>
        <div class='field'>
          <label for={fieldId('json')}>Profile (JSON)</label>
          <textarea id={fieldId('json')} rows={Math.min(24, text.split('\n').length + 1)} spellcheck={false} value={text} onInput={e => setText(e.currentTarget.value)} {...described('json')} />
          {problem('json')}
        </div>
      </details>
      <div class='actions'>
        <button type='submit' disabled={busy}>{busy ? 'Saving…' : 'Save pool'}</button>
        <button type='button' class='ghost' onClick={props.onCancel}>Cancel</button>
      </div>
    </form>
  )
}
