import { useEffect, useState } from 'preact/hooks'
import { ApiError, call } from '../api.ts'
import { TSIG_ALGORITHMS } from '../components/zone-settings.tsx'
import { Link } from '../link.tsx'
import { accountsWhere, type Me } from '../me.ts'
import { navigate } from '../router.ts'
import { waitForTask } from '../tasks.ts'

/** One problem of a create: the line of the file (when the message names one) and the words. */
interface Problem {
  line?: number
  message: string
}

/** The service's errors read as problems by line (`Invalid input: line 7: CODE message`). */
export function problemsOf (err: unknown): Problem[] {
  const items = err instanceof ApiError ? err.items : [{ errorMessage: String(err) }]
  return items.map(i => {
    const m = /^(?:Invalid input: )?line (\d+): (?:[A-Z_]+:? )?(.*)$/s.exec(i.errorMessage)
    return m === null ? { message: i.errorMessage } : { line: Number(m[1]), message: m[2]! }
  })
}

type Mode = 'UPLOAD' | 'NEW' | 'COPY' | 'TRANSFER' | 'SECONDARY' | 'ALIAS'

const MODES: Array<{ mode: Mode, label: string, help: string }> = [
  { mode: 'UPLOAD', label: 'Upload a BIND file', help: 'A primary zone with the records of a zone file.' },
  { mode: 'NEW', label: 'New, empty', help: 'A primary zone with an SOA and this service\'s NS records only.' },
  { mode: 'COPY', label: 'Copy a zone', help: 'A primary zone with the records of one of your primary zones, renamed.' },
  { mode: 'TRANSFER', label: 'By zone transfer', help: 'A primary zone with the records another name server sends by AXFR, once.' },
  { mode: 'SECONDARY', label: 'Secondary', help: 'A read-only copy this service keeps in step with a primary name server elsewhere.' },
  { mode: 'ALIAS', label: 'Alias', help: 'The records of one of your primary zones, served under another name.' }
]

/** The TSIG key a transfer is signed with (optional: none when its name is empty). */
export interface TransferKey {
  name: string
  algorithm: string
  secret: string
}

/** The primary name server of a transfer or a secondary: `{ip}`, with its TSIG key when one is given. */
function serverOf (server: string, key: TransferKey): Record<string, string> {
  if (key.name.trim() === '') return { ip: server }
  return { ip: server, tsigKey: key.name.trim(), tsigKeyValue: key.secret.trim(), tsigAlgorithm: key.algorithm }
}

/** The body of POST /zones for a mode (the file goes beside it as multipart for UPLOAD). */
function bodyOf (mode: Mode, name: string, accountName: string, original: string, server: string, key: TransferKey): unknown {
  const properties = { name, accountName, type: mode === 'SECONDARY' ? 'SECONDARY' : mode === 'ALIAS' ? 'ALIAS' : 'PRIMARY' }
  switch (mode) {
    case 'UPLOAD': case 'NEW': return { properties, primaryCreateInfo: { forceImport: true, createType: mode } }
    case 'COPY': return { properties, primaryCreateInfo: { forceImport: true, createType: 'COPY', originalZoneName: original } }
    case 'TRANSFER': return { properties, primaryCreateInfo: { forceImport: true, createType: 'TRANSFER', nameServer: serverOf(server, key) } }
    case 'SECONDARY': return { properties, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: serverOf(server, key) } } } }
    case 'ALIAS': return { properties, aliasCreateInfo: { originalZoneName: original } }
  }
}

/** Create a zone (POST /zones): by upload, new, copy, transfer, as a secondary or an alias. */
export function CreateZonePage (props: { me: Me | undefined }) {
  const accounts = accountsWhere(props.me, 'create')
  const [mode, setMode] = useState<Mode>('UPLOAD')
  const [name, setName] = useState('')
  const [account, setAccount] = useState('')
  const [original, setOriginal] = useState('')
  const [server, setServer] = useState('')
  const [key, setKey] = useState<TransferKey>({ name: '', algorithm: 'hmac-sha256', secret: '' })
  const [file, setFile] = useState<File | undefined>()
  const [problems, setProblems] = useState<Problem[]>([])
  const [progress, setProgress] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)

  useEffect(() => { if (account === '' && accounts.length > 0) setAccount(accounts[0]!) }, [accounts.join('\n')])

  async function submit (event: Event): Promise<void> {
    event.preventDefault()
    const local: Problem[] = []
    if (name.trim() === '') local.push({ message: 'Give the zone name, such as example.org.' })
    if (mode === 'UPLOAD' && file === undefined) local.push({ message: 'Choose the BIND zone file to upload.' })
    if ((mode === 'COPY' || mode === 'ALIAS') && original.trim() === '') local.push({ message: 'Give the name of the primary zone to copy or alias.' })
    if ((mode === 'TRANSFER' || mode === 'SECONDARY') && server.trim() === '') local.push({ message: 'Give the address of the primary name server.' })
    if ((mode === 'TRANSFER' || mode === 'SECONDARY') && key.name.trim() !== '' && key.secret.trim() === '') local.push({ message: 'Give the TSIG key\'s secret (base64), or leave the key name empty for transfers without a key.' })
    setProblems(local)
    if (local.length > 0) return
    const body = bodyOf(mode, name.trim(), account, original.trim(), server.trim(), key)
    let request: unknown = body
    if (mode === 'UPLOAD') {
      const form = new FormData()
      form.append('zone', new Blob([JSON.stringify(body)], { type: 'application/json' }))
      form.append('file', file!, file!.name)
      request = form
    }
    setBusy(true)
    setProgress(mode === 'UPLOAD' ? 'Uploading…' : 'Creating…')
    try {
      const res = await call('POST', '/zones', { body: request })
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

  const help = MODES.find(m => m.mode === mode)!.help
  return (
    <section>
      <p class='crumbs'><Link to='/zones'>Zones</Link> / <span>Create</span></p>
      <h1>Create a zone</h1>
      <form class='card upload' onSubmit={submit} aria-label='Create a zone'>
        <fieldset class='modes'>
          <legend>How</legend>
          {MODES.map(m => (
            <label key={m.mode} class='check'>
              <input type='radio' name='mode' value={m.mode} checked={mode === m.mode} onChange={() => { setMode(m.mode); setProblems([]) }} /> {m.label}
            </label>
          ))}
          <p class='muted'>{help}</p>
        </fieldset>
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
        {mode === 'UPLOAD' && (
          <div class='field'>
            <label for='zone-file'>Zone file</label>
            <input id='zone-file' type='file' onChange={e => { setFile(e.currentTarget.files?.[0]); setProblems([]) }} aria-describedby='zone-file-help' />
            <p id='zone-file-help' class='muted'>A master file as BIND reads it ($ORIGIN, $TTL, SOA and NS records). $INCLUDE is refused.</p>
          </div>
        )}
        {(mode === 'COPY' || mode === 'ALIAS') && (
          <div class='field'>
            <label for='zone-original'>{mode === 'COPY' ? 'Zone to copy' : 'Primary zone to alias'}</label>
            <input id='zone-original' value={original} placeholder='example.net' onInput={e => setOriginal(e.currentTarget.value)} />
          </div>
        )}
        {(mode === 'TRANSFER' || mode === 'SECONDARY') && (
          <div class='field'>
            <label for='zone-server'>Primary name server address</label>
            <input id='zone-server' value={server} placeholder='192.0.2.53' aria-describedby='zone-server-help' onInput={e => setServer(e.currentTarget.value)} />
            <p id='zone-server-help' class='muted'>An IPv4 or IPv6 address; another port than 53 after a colon (192.0.2.53:5353, [2001:db8::53]:5353).</p>
          </div>
        )}
        {(mode === 'TRANSFER' || mode === 'SECONDARY') && (
          <fieldset class='tsig'>
            <legend>TSIG key (optional)</legend>
            <p class='muted'>When the primary signs its transfers: the key's name, algorithm and secret as the primary has them.</p>
            <div class='grid'>
              <div class='field'>
                <label for='zone-tsig-name'>Key name</label>
                <input id='zone-tsig-name' autocomplete='off' value={key.name} placeholder='transfer-key' onInput={e => setKey({ ...key, name: e.currentTarget.value })} />
              </div>
              <div class='field'>
                <label for='zone-tsig-algorithm'>Algorithm</label>
                <select id='zone-tsig-algorithm' value={key.algorithm} onChange={e => setKey({ ...key, algorithm: e.currentTarget.value })}>
                  {TSIG_ALGORITHMS.map(a => <option key={a} value={a}>{a}</option>)}
                </select>
              </div>
            </div>
            <div class='field'>
              <label for='zone-tsig-secret'>Secret (base64)</label>
              <input id='zone-tsig-secret' type='password' autocomplete='off' value={key.secret} onInput={e => setKey({ ...key, secret: e.currentTarget.value })} />
            </div>
          </fieldset>
        )}
        {problems.length > 0 && (
          <div class='problems' role='alert' aria-labelledby='problems-title'>
            <h2 id='problems-title'>{problems.length === 1 ? 'The zone was not created: 1 problem' : `The zone was not created: ${problems.length} problems`}</h2>
            <ul>
              {problems.map((p, i) => <li key={i}>{p.line !== undefined && <strong>Line {p.line}: </strong>}{p.message}</li>)}
            </ul>
            {mode === 'UPLOAD' && <p>Fix the file and upload it again.</p>}
          </div>
        )}
        {progress !== undefined && <p role='status' class='muted'>{progress}</p>}
        <div class='actions'>
          <button type='submit' disabled={busy}>{busy ? 'Creating…' : mode === 'UPLOAD' ? 'Upload and create' : 'Create zone'}</button>
          <Link to='/zones' class='button ghost'>Cancel</Link>
        </div>
      </form>
    </section>
  )
}
