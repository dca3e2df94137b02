import { useEffect, useState } from 'preact/hooks'
import { ApiError, call } from '../api.ts'
import { Link } from '../link.tsx'
import { accountsWhere, type Me } from '../me.ts'
import { navigate } from '../router.ts'
import { waitForTask } from '../tasks.ts'

/** One problem of an upload: the line of the file (when the message names one) and the words. */
interface Problem {
  line?: number
  message: string
}

/** The service's upload errors read as problems by line (`Invalid input: line 7: CODE message`). */
export function problemsOf (err: unknown): Problem[] {
  const items = err instanceof ApiError ? err.items : [{ errorMessage: String(err) }]
  return items.map(i => {
    const m = /^(?:Invalid input: )?line (\d+): (?:[A-Z_]+:? )?(.*)$/s.exec(i.errorMessage)
    return m === null ? { message: i.errorMessage } : { line: Number(m[1]), message: m[2]! }
  })
}

/** Create a primary zone from an uploaded BIND zone file (POST /zones, multipart). */
export function CreateZonePage (props: { me: Me | undefined }) {
  const accounts = accountsWhere(props.me, 'create')
  const [name, setName] = useState('')
  const [account, setAccount] = useState('')
  const [file, setFile] = useState<File | undefined>()
  const [problems, setProblems] = useState<Problem[]>([])
  const [progress, setProgress] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)

  useEffect(() => { if (account === '' && accounts.length > 0) setAccount(accounts[0]!) }, [accounts.join('\n')])

  async function submit (event: Event): Promise<void> {
    event.preventDefault()
    const local: Problem[] = []
    if (name.trim() === '') local.push({ message: 'Give the zone name, such as example.org.' })
    if (file === undefined) local.push({ message: 'Choose the BIND zone file to upload.' })
    setProblems(local)
    if (local.length > 0) return
    const form = new FormData()
    const zone = { properties: { name: name.trim(), accountName: account, type: 'PRIMARY' }, primaryCreateInfo: { forceImport: true, createType: 'UPLOAD' } }
    form.append('zone', new Blob([JSON.stringify(zone)], { type: 'application/json' }))
    form.append('file', file!, file!.name)
    setBusy(true)
    setProgress('Uploading…')
    try {
      const res = await call('POST', '/zones', { body: form })
      const task = res.headers.get('x-task-id')
      if (res.status === 202 && task !== null) {
        const done = await waitForTask(task, t => setProgress(t.message))
        if (done.code !== 'COMPLETE') throw new ApiError(400, [{ errorMessage: done.message }])
      }
      const zoneName = name.trim().endsWith('.') ? name.trim() : `${name.trim()}.`
      navigate(`/zones/${encodeURIComponent(zoneName)}`)
    } catch (err) {
      setProblems(problemsOf(err))
    } finally {
      setBusy(false)
      setProgress(undefined)
    }
  }

  if (props.me !== undefined && accounts.length === 0) {
    return (
      <section>
        <h1>Create a zone</h1>
        <p>Your accounts do not let you create zones. Ask an administrator of your account for write access.</p>
        <p><Link to='/zones'>Back to the zones</Link></p>
      </section>
    )
  }

  return (
    <section>
      <p class='crumbs'><Link to='/zones'>Zones</Link> / <span>Create</span></p>
      <h1>Create a zone from a BIND file</h1>
      <form class='card upload' onSubmit={submit}>
        <div class='field'>
          <label for='zone-name'>Zone name</label>
          <input id='zone-name' value={name} placeholder='example.org' required onInput={e => setName(e.currentTarget.value)} />
        </div>
        {accounts.length > 1 && (
          <div class='field'>
            <label for='zone-account'>Account</label>
            <select id='zone-account' value={account} onChange={e => setAccount(e.currentTarget.value)}>
              {accounts.map(a => <option key={a} value={a}>{a}</option>)}
            </select>
          </div>
        )}
        <div class='field'>
          <label for='zone-file'>Zone file</label>
          <input id='zone-file' type='file' required onChange={e => { setFile(e.currentTarget.files?.[0]); setProblems([]) }} aria-describedby='zone-file-help' />
          <p id='zone-file-help' class='muted'>A master file as BIND reads it ($ORIGIN, $TTL, SOA and NS records). $INCLUDE is refused.</p>
        </div>
        {problems.length > 0 && (
          <div class='problems' role='alert' aria-labelledby='problems-title'>
            <h2 id='problems-title'>{problems.length === 1 ? 'The zone was not created: 1 problem' : `The zone was not created: ${problems.length} problems`}</h2>
            <ul>
              {problems.map((p, i) => <li key={i}>{p.line !== undefined && <strong>Line {p.line}: </strong>}{p.message}</li>)}
            </ul>
            <p>Fix the file and upload it again.</p>
          </div>
        )}
        {progress !== undefined && <p role='status' class='muted'>{progress}</p>}
        <div class='actions'>
          <button type='submit' disabled={busy}>{busy ? 'Creating…' : 'Upload and create'}</button>
          <Link to='/zones' class='button ghost'>Cancel</Link>
        </div>
      </form>
    </section>
  )
}
