import { useState } from 'preact/hooks'
import { ApiError, call, zonePath } from '../api.ts'

export const RECORD_TYPES = ['A', 'AAAA', 'CAA', 'CNAME', 'DS', 'HTTPS', 'MX', 'NAPTR', 'NS', 'PTR', 'SRV', 'SSHFP', 'SVCB', 'TLSA', 'TXT', 'SPF', 'HINFO']

/** What a record form edits: an rrset's owner, type, TTL and records (one a line). */
export interface RecordDraft {
  owner: string
  type: string
  ttl: string
  rdata: string
  /** A new A or AAAA record set made an RD pool served in this order (FIXED, RANDOM, ROUND_ROBIN); none for plain records. */
  rdOrder?: string
}

/** The orders of an RD (resource distribution) pool. */
export const RD_ORDERS = ['ROUND_ROBIN', 'FIXED', 'RANDOM'] as const

type Field = 'owner' | 'type' | 'ttl' | 'rdata' | 'form'

/**
 * The field an API validation message is about, by the words it names. The service answers
 * `[{errorCode, errorMessage}]` without a field name, so the console reads it from the text.
 */
export function fieldOf (message: string): Field {
  const m = message.toLowerCase()
  if (/\bttl\b/.test(m)) return 'ttl'
  if (/\bowner|host ?name|\bname\b|label/.test(m) && !/target|exchange|rdata|record data/.test(m)) return 'owner'
  if (/\btype\b|rrtype/.test(m)) return 'type'
  if (/rdata|record|address|value|text|priority|exchange|target|invalid input/.test(m)) return 'rdata'
  return 'form'
}

/**
 * Add a record set, or change one (`existing` given: the owner and type are fixed). Sends
 * POST (add) or PUT (replace) /zones/{zone}/rrsets/{type}/{owner} and shows the service's
 * validation messages at the field they are about.
 */
export function RecordForm (props: { zone: string, existing?: RecordDraft, onDone: () => void, onCancel: () => void }) {
  const [draft, setDraft] = useState<RecordDraft>(props.existing ?? { owner: '', type: 'A', ttl: '300', rdata: '' })
  const [errors, setErrors] = useState<Partial<Record<Field, string[]>>>({})
  const [busy, setBusy] = useState(false)
  const editing = props.existing !== undefined
  const id = editing ? `edit-${props.existing!.owner}-${props.existing!.type}` : 'add'

  async function submit (event: Event): Promise<void> {
    event.preventDefault()
    const rdata = draft.rdata.split('\n').map(l => l.trim()).filter(l => l !== '')
    const ttl = Number(draft.ttl)
    const local: Partial<Record<Field, string[]>> = {}
    if (draft.owner.trim() === '') local.owner = ['Give the owner name: @ for the zone apex, or a name such as www.']
    if (draft.ttl.trim() === '' || !Number.isInteger(ttl) || ttl < 0) local.ttl = ['The TTL is a whole number of seconds, such as 300.']
    if (rdata.length === 0) local.rdata = ['Give at least one record, one a line.']
    setErrors(local)
    if (Object.keys(local).length > 0) return
    setBusy(true)
    const owner = draft.owner.trim() === '@' ? props.zone : draft.owner.trim()
    try {
      const pool = !editing && draft.rdOrder !== undefined && isAddress(draft.type)
      const profile = pool ? { profile: { '@context': 'http://schemas.ultradns.com/RDPool.jsonschema', order: draft.rdOrder } } : {}
      await call(editing ? 'PUT' : 'POST', `/zones/${zonePath(props.zone)}/rrsets/${draft.type}/${encodeURIComponent(owner)}`, { body: { ttl, rdata, ...profile } })
      props.onDone()
    } catch (err) {
      const found: Partial<Record<Field, string[]>> = {}
      const items = err instanceof ApiError ? err.items : [{ errorMessage: String(err) }]
      for (const item of items) (found[fieldOf(item.errorMessage)] ??= []).push(item.errorMessage)
      setErrors(found)
    } finally {
      setBusy(false)
    }
  }

  const described = (field: Field): Record<string, string> =>
    errors[field] === undefined ? {} : { 'aria-invalid': 'true', 'aria-describedby': `${id}-${field}-error` }
  const problem = (field: Field) => errors[field] !== undefined && (
    <p id={`${id}-${field}-error`} class='field-error' role='alert'>{errors[field]!.join(' ')}</p>
  )

  return (
    <form class='record-form card' onSubmit={submit} aria-label={editing ? `Edit ${draft.type} records of ${draft.owner}` : 'Add records'}>
      <h3>{editing ? `Edit ${draft.type} ${draft.owner}` : 'Add records'}</h3>
      <div class='grid'>
        <div class='field'>
          <label for={`${id}-owner`}>Owner</label>
          <input id={`${id}-owner`} value={draft.owner} disabled={editing} placeholder='www, or @ for the apex' onInput={e => setDraft({ ...draft, owner: e.currentTarget.value })} {...described('owner')} />
          {problem('owner')}
        </div>
        <div class='field'>
          <label for={`${id}-type`}>Type</label>
          <select id={`${id}-type`} value={draft.type} disabled={editing} onChange={e => setDraft({ ...draft, type: e.currentTarget.value })} {...described('type')}>
            {RECORD_TYPES.map(t => <option key={t} value={t}>{t}</option>)}
          </select>
          {problem('type')}
        </div>
        <div class='field'>
          <label for={`${id}-ttl`}>TTL (seconds)</label>
          <input id={`${id}-ttl`} inputMode='numeric' value={draft.ttl} onInput={e => setDraft({ ...draft, ttl: e.currentTarget.value })} {...described('ttl')} />
          {problem('ttl')}
        </div>
      </div>
      <div class='field'>
        <label for={`${id}-rdata`}>Records, one a line</label>
        <textarea id={`${id}-rdata`} rows={3} value={draft.rdata} placeholder={placeholderOf(draft.type)} onInput={e => setDraft({ ...draft, rdata: e.currentTarget.value })} {...described('rdata')} />
        {problem('rdata')}
      </div>
      {!editing && isAddress(draft.type) && (
        <div class='grid'>
          <div class='field'>
            <label class='check'>
              <input type='checkbox' checked={draft.rdOrder !== undefined} onChange={e => setDraft({ ...draft, rdOrder: e.currentTarget.checked ? RD_ORDERS[0] : undefined })} />
              Pool (RD): serve the records in an order
            </label>
          </div>
          {draft.rdOrder !== undefined && (
            <div class='field'>
              <label for={`${id}-order`}>Pool order</label>
              <select id={`${id}-order`} value={draft.rdOrder} onChange={e => setDraft({ ...draft, rdOrder: e.currentTarget.value })}>
                {RD_ORDERS.map(o => <option key={o} value={o}>{o}</option>)}
              </select>
            </div>
          )}
        </div>
      )}
      {problem('form')}
      <div class='actions'>
        <button type='submit' disabled={busy}>{busy ? 'Saving…' : editing ? 'Save' : 'Add'}</button>
        <button type='button' class='ghost' onClick={props.onCancel}>Cancel</button>
      </div>
    </form>
  )
}

const isAddress = (type: string): boolean => type === 'A' || type === 'AAAA'

function placeholderOf (type: string): string {
  switch (type) {
    case 'A': return '192.0.2.10'
    case 'AAAA': return '2001:db8::10'
    case 'MX': return '10 mail.example.org.'
    case 'TXT': return 'v=spf1 -all'
    case 'CNAME': return 'target.example.org.'
    case 'SRV': return '10 60 5060 sip.example.org.'
    case 'CAA': return '0 issue "ca.example.net"'
    default: return ''
  }
}
