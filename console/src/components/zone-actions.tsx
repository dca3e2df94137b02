import { useState } from 'preact/hooks'
import { ApiError, call, zonePath } from '../api.ts'
import { may, type Me } from '../me.ts'
import { navigate } from '../router.ts'
import { waitForTask } from '../tasks.ts'

type Action = 'suspend' | 'delete' | 'convert' | 'unalias'

interface ActionInfo {
  label: string
  what: string
  method: string
  path: string
  permission: string
  /** Whether the confirmation asks for the zone's name to be typed (for what cannot be undone here). */
  typeName: boolean
}

const ACTIONS: Record<Action, ActionInfo> = {
  suspend: { label: 'Suspend', what: 'The zone stops being served and cannot be changed; only support can make it active again.', method: 'POST', path: '/suspend', permission: 'suspend', typeName: true },
  delete: { label: 'Delete', what: 'The zone and all its records are removed.', method: 'DELETE', path: '', permission: 'delete', typeName: true },
  convert: { label: 'Convert to primary', what: 'The secondary zone becomes a primary zone this service manages; transfers from its primary stop.', method: 'POST', path: '/convert', permission: 'write', typeName: false },
  unalias: { label: 'Unalias', what: 'The alias becomes an independent primary zone with a copy of the original\'s records.', method: 'POST', path: '/unalias', permission: 'unalias', typeName: false }
}

/** The same zone name, with or without the final dot, in any case. */
const sameName = (a: string, b: string): boolean => a.trim().toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '')

/**
 * Suspend, delete, convert (secondary) and unalias (alias), as the zone's type, status and the
 * user's permissions allow; each asks for confirmation naming the zone (suspend and delete:
 * by typing its name).
 */
export function ZoneActions (props: { me: Me | undefined, zone: string, accountName: string, type: string, status: string | undefined, onChanged: (message: string) => void }) {
  const [open, setOpen] = useState<Action | undefined>()
  const [typed, setTyped] = useState('')
  const [busy, setBusy] = useState<string | undefined>()
  const [error, setError] = useState<string | undefined>()

  const available = (Object.keys(ACTIONS) as Action[]).filter(a => {
    if (!may(props.me, props.accountName, ACTIONS[a].permission)) return false
    if (a === 'suspend') return props.status !== 'SUSPENDED' && props.type !== 'ALIAS'
    if (a === 'convert') return props.type === 'SECONDARY'
    if (a === 'unalias') return props.type === 'ALIAS'
    return true
  })
  if (available.length === 0) return null

  async function run (action: Action): Promise<void> {
    const info = ACTIONS[action]
    setError(undefined)
    setBusy('Working…')
    try {
      const res = await call(info.method, `/zones/${zonePath(props.zone)}${info.path}`)
      const task = res.headers.get('x-task-id')
      if (res.status === 202 && task !== null) {
        const done = await waitForTask(task, t => setBusy(t.message))
        if (done.code !== 'COMPLETE') throw new ApiError(400, [{ errorMessage: done.message }])
      }
      setOpen(undefined)
      setTyped('')
      if (action === 'delete') navigate(`/zones?deleted=${encodeURIComponent(props.zone)}`)
      else props.onChanged(`${info.label}: done for ${props.zone}.`)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err))
    } finally {
      setBusy(undefined)
    }
  }

  const current = open === undefined ? undefined : ACTIONS[open]
  return (
    <section class='zone-actions' aria-labelledby='zone-actions-title'>
      <h2 id='zone-actions-title'>Zone actions</h2>
      <div class='actions'>
        {available.map(a => (
          <button key={a} type='button' class={a === 'delete' || a === 'suspend' ? 'ghost danger-text' : 'ghost'} aria-expanded={open === a} onClick={() => { setOpen(a); setTyped(''); setError(undefined) }}>{ACTIONS[a].label}…</button>
        ))}
      </div>
      {open !== undefined && current !== undefined && (
        <form class='card confirm' aria-label={`${current.label} ${props.zone}`} onSubmit={e => { e.preventDefault(); run(open).catch(() => {}) }}>
          <p><strong>{current.label} {props.zone}?</strong> {current.what}</p>
          {current.typeName && (
            <div class='field'>
              <label for='confirm-name'>Type the zone name, {props.zone}, to confirm</label>
              <input id='confirm-name' autocomplete='off' value={typed} onInput={e => setTyped(e.currentTarget.value)} />
            </div>
          )}
          {error !== undefined && <p class='error' role='alert'>{error}</p>}
          {busy !== undefined && <p class='muted' role='status'>{busy}</p>}
          <div class='actions'>
            <button type='submit' class={open === 'delete' || open === 'suspend' ? 'danger' : ''} disabled={busy !== undefined || (current.typeName && !sameName(typed, props.zone))}>{current.label} {props.zone}</button>
            <button type='button' class='ghost' onClick={() => setOpen(undefined)}>Cancel</button>
          </div>
        </form>
      )}
    </section>
  )
}
