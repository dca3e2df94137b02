import { useState } from 'preact/hooks'
import { ApiError, call, zonePath } from '../api.ts'
import { settingsFieldOf } from '../settings-fields.ts'

/** The TSIG algorithms the service takes, the usual one first. */
export const TSIG_ALGORITHMS = ['hmac-sha256', 'hmac-sha512', 'hmac-sha384', 'hmac-sha224', 'hmac-sha1', 'hmac-md5']

/** `restrictIpList[]` of a primary zone as GET /zones/{zone} shows it. */
export interface RestrictRangeDto { startIP: string, endIP: string, comment?: string }
/** `notifyAddresses[]`. */
export interface NotifyAddressDto { notifyAddress: string, description?: string }
/** `tsig` (the secret masked for users who may not write the zone). */
export interface TsigDto { tsigKeyName: string, tsigKeyValue?: string, tsigAlgorithm?: string, description?: string }

interface Draft {
  ranges: Array<{ start: string, end: string, comment: string }>
  notify: Array<{ address: string, description: string }>
  tsig: { name: string, algorithm: string, secret: string, description: string }
  comment: string
}

/** Who may transfer the zone from this service, in words (the DNS server's rule). */
function whoMayTransfer (ranges: RestrictRangeDto[], tsig: TsigDto | undefined): string {
  // The key's name ends a sentence: without its final dot.
  const key = tsig?.tsigKeyName.replace(/\.$/, '')
  if (ranges.length === 0 && tsig === undefined) return 'No one may transfer this zone: give the addresses of its secondaries, a TSIG key, or both.'
  if (ranges.length === 0) return `Any address may transfer this zone with the TSIG key ${key!}.`
  return tsig === undefined ? 'The addresses below may transfer this zone.' : `The addresses below may transfer this zone, with the TSIG key ${key!}.`
}

/**
 * A primary zone's transfer settings: who may transfer it (restrict list), the TSIG key
 * transfers are signed with, and the secondaries told of changes (notify addresses). Users who
 * may update the zone edit them (PATCH /zones/{zone}, the three sent whole), the API's errors
 * shown at the field they name; the others read them, the secret never shown.
 */
export function ZoneSettings (props: { zone: string, ranges: RestrictRangeDto[], notify: NotifyAddressDto[], tsig: TsigDto | undefined, canEdit: boolean, onChanged: (message: string) => void }) {
  const [draft, setDraft] = useState<Draft | undefined>()
  const [errors, setErrors] = useState<Record<string, string[]>>({})
  const [busy, setBusy] = useState(false)

  function edit (): void {
    setErrors({})
    setDraft({
      ranges: props.ranges.map(r => ({ start: r.startIP, end: r.endIP, comment: r.comment ?? '' })),
      notify: props.notify.map(n => ({ address: n.notifyAddress, description: n.description ?? '' })),
      tsig: { name: props.tsig?.tsigKeyName ?? '', algorithm: props.tsig?.tsigAlgorithm ?? 'hmac-sha256', secret: props.tsig?.tsigKeyValue ?? '', description: props.tsig?.description ?? '' },
      comment: ''
    })
  }

  async function save (event: Event): Promise<void> {
    event.preventDefault()
    if (draft === undefined) return
    const local: Record<string, string[]> = {}
    draft.ranges.forEach((r, i) => {
      if (r.start.trim() === '') local[`range-${i}-start`] = ['Give the first address of the range.']
    })
    draft.notify.forEach((n, i) => {
      if (n.address.trim() === '') local[`notify-${i}-address`] = ['Give the address of the secondary, or remove the line.']
    })
    if (draft.tsig.name.trim() !== '' && draft.tsig.secret.trim() === '') local['tsig-secret'] = ['Give the key\'s secret (base64), or leave the key name empty for no key.']
    setErrors(local)
    if (Object.keys(local).length > 0) return
    const t = draft.tsig
    const body = {
      primaryCreateInfo: {
        restrictIPList: draft.ranges.map(r => ({ startIP: r.start.trim(), endIP: r.end.trim() === '' ? r.start.trim() : r.end.trim(), comment: r.comment.trim() })),
        notifyAddresses: draft.notify.map(n => ({ notifyAddress: n.address.trim(), description: n.description.trim() })),
        tsig: t.name.trim() === '' ? null : { tsigKeyName: t.name.trim(), tsigKeyValue: t.secret.trim(), tsigAlgorithm: t.algorithm, description: t.description.trim() }
      },
      ...(draft.comment.trim() === '' ? {} : { changeComment: draft.comment.trim() })
    }
    setBusy(true)
    try {
      await call('PATCH', `/zones/${zonePath(props.zone)}`, { body })
      setDraft(undefined)
      props.onChanged(`Saved the transfer settings of ${props.zone}`)
    } catch (err) {
      const found: Record<string, string[]> = {}
      const items = err instanceof ApiError ? err.items : [{ errorMessage: String(err) }]
      for (const item of items) (found[settingsFieldOf(item.errorMessage, draft)] ??= []).push(item.errorMessage)
      setErrors(found)
    } finally {
      setBusy(false)
    }
  }

  const described = (id: string): Record<string, string> =>
    errors[id] === undefined ? {} : { 'aria-invalid': 'true', 'aria-describedby': `${id}-error` }
  const problem = (id: string) => errors[id] !== undefined && <p id={`${id}-error`} class='field-error' role='alert'>{errors[id]!.join(' ')}</p>
  const set = (change: Partial<Draft>): void => setDraft({ ...draft!, ...change })

  return (
    <section class='zone-settings' aria-labelledby='zone-settings-title'>
      <div class='title-row'>
        <h2 id='zone-settings-title'>Transfer settings</h2>
        {props.canEdit && draft === undefined && <button type='button' class='ghost' onClick={edit}>Edit transfer settings</button>}
      </div>
      {draft === undefined
        ? (
          <div class='settings-view'>
            <p>{whoMayTransfer(props.ranges, props.tsig)}</p>
            {props.ranges.length > 0 && (
              <div class='table-wrap'>
                <table>
                  <caption class='sr-only'>Addresses allowed to transfer</caption>
                  <thead><tr><th scope='col'>From</th><th scope='col'>To</th><th scope='col'>Comment</th></tr></thead>
                  <tbody>{props.ranges.map((r, i) => <tr key={i}><td><code>{r.startIP}</code></td><td><code>{r.endIP}</code></td><td>{r.comment}</td></tr>)}</tbody>
                </table>
              </div>
            )}
            <h3>TSIG key</h3>
            {props.tsig === undefined
              ? <p class='muted'>None.</p>
              : <p><code>{props.tsig.tsigKeyName}</code> ({props.tsig.tsigAlgorithm ?? 'hmac-md5'}){props.tsig.description !== undefined && props.tsig.description !== '' && <> — {props.tsig.description}</>}. <span class='muted'>The secret is not shown.</span></p>}
            <h3>Notify addresses</h3>
            {props.notify.length === 0
              ? <p class='muted'>None: no secondary is told when the zone changes.</p>
              : (
                <div class='table-wrap'>
                  <table>
                    <caption class='sr-only'>Notify addresses</caption>
                    <thead><tr><th scope='col'>Address</th><th scope='col'>Description</th></tr></thead>
                    <tbody>{props.notify.map((n, i) => <tr key={i}><td><code>{n.notifyAddress}</code></td><td>{n.description}</td></tr>)}</tbody>
                  </table>
                </div>
                )}
          </div>
          )
        : (
          <form class='card settings-form' aria-label={`Transfer settings of ${props.zone}`} onSubmit={e => { save(e).catch(() => {}) }}>
            <fieldset>
              <legend>Addresses allowed to transfer</legend>
              <p class='muted'>Ranges of IPv4 or IPv6 addresses (one address: leave the end empty). Without any, only a request signed with the TSIG key may transfer.</p>
              {draft.ranges.map((r, i) => (
                <div class='grid settings-row' key={i}>
                  <div class='field'>
                    <label for={`range-${i}-start`}>Start IP of range {i + 1}</label>
                    <input id={`range-${i}-start`} value={r.start} placeholder='192.0.2.1' onInput={e => set({ ranges: draft.ranges.map((x, j) => j === i ? { ...x, start: e.currentTarget.value } : x) })} {...described(`range-${i}-start`)} />
                    {problem(`range-${i}-start`)}
                  </div>
                  <div class='field'>
                    <label for={`range-${i}-end`}>End IP of range {i + 1}</label>
                    <input id={`range-${i}-end`} value={r.end} placeholder='192.0.2.254' onInput={e => set({ ranges: draft.ranges.map((x, j) => j === i ? { ...x, end: e.currentTarget.value } : x) })} {...described(`range-${i}-end`)} />
                    {problem(`range-${i}-end`)}
                  </div>
                  <div class='field'>
                    <label for={`range-${i}-comment`}>Comment of range {i + 1}</label>
                    <input id={`range-${i}-comment`} value={r.comment} onInput={e => set({ ranges: draft.ranges.map((x, j) => j === i ? { ...x, comment: e.currentTarget.value } : x) })} />
                  </div>
                  <button type='button' class='ghost remove' onClick={() => { setErrors({}); set({ ranges: draft.ranges.filter((_x, j) => j !== i) }) }}>Remove range {i + 1}</button>
                </div>
              ))}
              <button type='button' class='ghost' onClick={() => set({ ranges: [...draft.ranges, { start: '', end: '', comment: '' }] })}>Add a range</button>
            </fieldset>
            <fieldset>
              <legend>TSIG key</legend>
              <p class='muted'>Transfers of the zone are then signed with it. Leave the name empty for no key.</p>
              <div class='grid'>
                <div class='field'>
                  <label for='tsig-name'>TSIG key name</label>
                  <input id='tsig-name' autocomplete='off' value={draft.tsig.name} onInput={e => set({ tsig: { ...draft.tsig, name: e.currentTarget.value } })} {...described('tsig-name')} />
                  {problem('tsig-name')}
                </div>
                <div class='field'>
                  <label for='tsig-algorithm'>TSIG algorithm</label>
                  <select id='tsig-algorithm' value={draft.tsig.algorithm} onChange={e => set({ tsig: { ...draft.tsig, algorithm: e.currentTarget.value } })} {...described('tsig-algorithm')}>
                    {TSIG_ALGORITHMS.map(a => <option key={a} value={a}>{a}</option>)}
                  </select>
                  {problem('tsig-algorithm')}
                </div>
                <div class='field'>
                  <label for='tsig-secret'>TSIG secret (base64)</label>
                  <input id='tsig-secret' type='password' autocomplete='off' value={draft.tsig.secret} onInput={e => set({ tsig: { ...draft.tsig, secret: e.currentTarget.value } })} {...described('tsig-secret')} />
                  {problem('tsig-secret')}
                </div>
                <div class='field'>
                  <label for='tsig-description'>TSIG key description</label>
                  <input id='tsig-description' value={draft.tsig.description} onInput={e => set({ tsig: { ...draft.tsig, description: e.currentTarget.value } })} />
                </div>
              </div>
            </fieldset>
            <fieldset>
              <legend>Notify addresses</legend>
              <p class='muted'>Secondaries sent a NOTIFY when the zone changes; another port than 53 after a colon (192.0.2.53:5353).</p>
              {draft.notify.map((n, i) => (
                <div class='grid settings-row' key={i}>
                  <div class='field'>
                    <label for={`notify-${i}-address`}>Notify address {i + 1}</label>
                    <input id={`notify-${i}-address`} value={n.address} placeholder='192.0.2.53' onInput={e => set({ notify: draft.notify.map((x, j) => j === i ? { ...x, address: e.currentTarget.value } : x) })} {...described(`notify-${i}-address`)} />
                    {problem(`notify-${i}-address`)}
                  </div>
                  <div class='field'>
                    <label for={`notify-${i}-description`}>Description of notify address {i + 1}</label>
                    <input id={`notify-${i}-description`} value={n.description} onInput={e => set({ notify: draft.notify.map((x, j) => j === i ? { ...x, description: e.currentTarget.value } : x) })} />
                  </div>
                  <button type='button' class='ghost remove' onClick={() => { setErrors({}); set({ notify: draft.notify.filter((_x, j) => j !== i) }) }}>Remove notify address {i + 1}</button>
                </div>
              ))}
              <button type='button' class='ghost' onClick={() => set({ notify: [...draft.notify, { address: '', description: '' }] })}>Add a notify address</button>
            </fieldset>
            <div class='field'>
              <label for='change-comment'>Comment for the audit log (optional)</label>
              <input id='change-comment' maxLength={512} value={draft.comment} onInput={e => set({ comment: e.currentTarget.value })} {...described('change-comment')} />
              {problem('change-comment')}
            </div>
            {problem('form')}
            <div class='actions'>
              <button type='submit' disabled={busy}>{busy ? 'Saving…' : 'Save transfer settings'}</button>
              <button type='button' class='ghost' onClick={() => { setDraft(undefined); setErrors({}) }}>Cancel</button>
            </div>
          </form>
          )}
    </section>
  )
}
