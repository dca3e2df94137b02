import { useEffect, useState } from 'preact/hooks'
import { ApiError, call, json, zonePath } from '../api.ts'
import { Dangling } from '../components/dangling.tsx'
import { Dnssec } from '../components/dnssec.tsx'
import { PoolCell } from '../components/pool-editor.tsx'
import { ExportZone } from '../components/export-zone.tsx'
import { ZoneActions } from '../components/zone-actions.tsx'
import { SecondaryTransfers, type PrimaryServerDto, type TransferStatusDto } from '../components/secondary-transfers.tsx'
import { ZoneSettings, type NotifyAddressDto, type RestrictRangeDto, type TsigDto } from '../components/zone-settings.tsx'
import { RecordForm, type RecordDraft } from '../components/record-form.tsx'
import { WebForwards } from '../components/web-forwards.tsx'
import { Link } from '../link.tsx'
import { may, type Me } from '../me.ts'

interface ZoneDto {
  properties: {
    name: string
    accountName: string
    type: string
    status?: string
    dnssecStatus: string
    recordCount?: number
    lastModifiedDateTime: string
    owner?: string
  }
  originalZoneName?: string
  primaryNameServers?: { nameServerIpList: Record<string, PrimaryServerDto> }
  restrictIpList?: RestrictRangeDto[]
  notifyAddresses?: NotifyAddressDto[]
  tsig?: TsigDto
  transferStatusDetails?: TransferStatusDto
}

interface Rrset {
  ownerName: string
  rrtype: string
  ttl: number
  rdata: string[]
  profile?: Record<string, unknown>
}

interface RrsetList {
  rrSets: Rrset[]
  resultInfo: { totalCount: number, offset: number, returnedCount: number }
}

const RRSET_PAGE = 1000

/** `A (1)` → `A`. */
const typeOf = (rrtype: string): string => rrtype.replace(/\s*\(\d+\)$/, '')

/** The owner as typed in the zone: relative to the zone, `@` for the apex. */
function relative (owner: string, zone: string): string {
  const o = owner.toLowerCase()
  const z = zone.toLowerCase()
  if (o === z) return '@'
  return o.endsWith('.' + z) ? owner.slice(0, owner.length - zone.length - 1) : owner
}

/** A zone: its properties, its records grouped by owner and type, DNSSEC, and record editing. */
export function ZonePage (props: { me: Me | undefined, zone: string }) {
  const [zone, setZone] = useState<ZoneDto | undefined>()
  const [rrsets, setRrsets] = useState<Rrset[] | undefined>()
  const [total, setTotal] = useState(0)
  const [error, setError] = useState<string | undefined>()
  const [version, setVersion] = useState(0)
  const [adding, setAdding] = useState(false)
  const [editing, setEditing] = useState<string | undefined>()
  const [confirming, setConfirming] = useState<string | undefined>()
  const [notice, setNotice] = useState<string | undefined>()
  const [removeError, setRemoveError] = useState<string | undefined>()
  const [loadingMore, setLoadingMore] = useState(false)
  /** Owners whose A and AAAA records a web forward wrote (the API refuses other changes to them). */
  const [forwarded, setForwarded] = useState<ReadonlySet<string>>(new Set())
  const path = zonePath(props.zone)

  useEffect(() => {
    let live = true
    setError(undefined)
    Promise.all([
      json<ZoneDto>('GET', `/zones/${path}`),
      json<RrsetList>('GET', `/zones/${path}/rrsets?limit=${RRSET_PAGE}`)
    ]).then(([z, list]) => {
      if (!live) return
      setZone(z)
      setRrsets(list.rrSets)
      setTotal(list.resultInfo.totalCount)
    }, (err: unknown) => {
      if (!live) return
      setError(err instanceof ApiError && err.status === 404 ? `There is no zone ${props.zone} in your accounts.` : err instanceof ApiError ? err.message : String(err))
    })
    return () => { live = false }
  }, [path, version])

  if (error !== undefined) {
    return <section><h1>{props.zone}</h1><p class='error' role='alert'>{error}</p><p><Link to='/zones'>Back to the zones</Link></p></section>
  }
  if (zone === undefined || rrsets === undefined) return <section><h1>{props.zone}</h1><p role='status' class='muted'>Loading the zone…</p></section>

  const p = zone.properties
  const editable = may(props.me, p.accountName, 'write') && p.type === 'PRIMARY' && p.status !== 'SUSPENDED'
  const reload = (message?: string): void => { setRemoveError(undefined); setAdding(false); setEditing(undefined); setConfirming(undefined); setNotice(message); setVersion(v => v + 1) }

  /** The next page of record sets (offset paging of GET rrsets), added below those shown. */
  async function more (): Promise<void> {
    setLoadingMore(true)
    try {
      const list = await json<RrsetList>('GET', `/zones/${path}/rrsets?limit=${RRSET_PAGE}&offset=${rrsets!.length}`)
      setRrsets([...rrsets!, ...list.rrSets])
      setTotal(list.resultInfo.totalCount)
    } catch (err) {
      setRemoveError(err instanceof ApiError ? err.message : String(err))
    } finally {
      setLoadingMore(false)
    }
  }

  async function remove (r: Rrset): Promise<void> {
    const type = typeOf(r.rrtype)
    try {
      await call('DELETE', `/zones/${path}/rrsets/${type}/${encodeURIComponent(r.ownerName)}`)
      reload(`Deleted the ${type} records of ${r.ownerName}.`)
    } catch (err) {
      setConfirming(undefined)
      setNotice(undefined)
      setRemoveError(err instanceof ApiError ? err.message : String(err))
    }
  }

  // Grouped by owner (in the service's order), then by type.
  const owners = new Map<string, Rrset[]>()
  for (const r of rrsets) {
    const list = owners.get(r.ownerName) ?? []
    list.push(r)
    owners.set(r.ownerName, list)
  }

  return (
    <section>
      <p class='crumbs'><Link to='/zones'>Zones</Link> / <span>{p.name}</span></p>
      <h1>{p.name}</h1>
      <dl class='properties'>
        <div><dt>Type</dt><dd>{p.type}{zone.originalZoneName !== undefined && <> of <Link to={`/zones/${encodeURIComponent(zone.originalZoneName)}`}>{zone.originalZoneName}</Link></>}</dd></div>
        {p.status !== undefined && <div><dt>Status</dt><dd>{p.status}</dd></div>}
        <div><dt>Account</dt><dd>{p.accountName}</dd></div>
        <div><dt>DNSSEC</dt><dd>{p.dnssecStatus}</dd></div>
        <div><dt>Records</dt><dd>{p.recordCount ?? total}</dd></div>
        <div><dt>Last modified</dt><dd>{p.lastModifiedDateTime}</dd></div>
      </dl>
      {may(props.me, p.accountName, 'export') && <ExportZone zone={p.name} />}
      {p.type === 'SECONDARY' && zone.primaryNameServers !== undefined && (
        <SecondaryTransfers zone={p.name} servers={zone.primaryNameServers.nameServerIpList} status={zone.transferStatusDetails ?? {}} canTransfer={may(props.me, p.accountName, 'update') && p.status !== 'SUSPENDED'} onChanged={message => reload(message)} />
      )}
      {p.type === 'PRIMARY' && (
        <ZoneSettings zone={p.name} ranges={zone.restrictIpList ?? []} notify={zone.notifyAddresses ?? []} tsig={zone.tsig} canEdit={may(props.me, p.accountName, 'update') && p.status !== 'SUSPENDED'} onChanged={message => reload(message)} />
      )}
      {p.type === 'PRIMARY' && (
        <WebForwards zone={p.name} version={version} canEdit={may(props.me, p.accountName, 'update') && p.status !== 'SUSPENDED'} onChanged={message => reload(message)} onHosts={setForwarded} />
      )}
      {notice !== undefined && <p class='notice' role='status'>{notice}</p>}
      {removeError !== undefined && <p class='error' role='alert'>{removeError}</p>}

      <div class='title-row'>
        <h2>Records</h2>
        {editable && !adding && <button type='button' onClick={() => { setAdding(true); setNotice(undefined) }}>Add records</button>}
      </div>
      {!editable && <p class='muted'>{may(props.me, p.accountName, 'write') ? `A ${p.type.toLowerCase()} zone's records cannot be edited here.` : 'You can read this zone; changing it needs write access to its account.'}</p>}
      {adding && <RecordForm zone={p.name} onDone={() => reload('Records added.')} onCancel={() => setAdding(false)} />}
      {total > rrsets.length && <p class='notice'>Showing the first {rrsets.length} of {total} record sets; more at the end of the list.</p>}
      {rrsets.length === 0 && <p class='empty'>This zone has no records{editable ? '; add some above.' : '.'}</p>}
      {[...owners].map(([owner, sets]) => (
        <section class='owner' key={owner} aria-labelledby={`owner-${owner}`}>
          <h3 id={`owner-${owner}`}>{owner}</h3>
          <div class='table-wrap'>
            <table class='records'>
              <thead><tr><th scope='col'>Type</th><th scope='col' class='num'>TTL</th><th scope='col'>Data</th>{editable && <th scope='col'><span class='sr-only'>Actions</span></th>}</tr></thead>
              <tbody>
                {sets.map(r => {
                  const type = typeOf(r.rrtype)
                  const key = `${type} ${r.ownerName}`
                  const draft: RecordDraft = { owner: relative(r.ownerName, p.name), type, ttl: String(r.ttl), rdata: r.rdata.join('\n') }
                  const byForward = (type === 'A' || type === 'AAAA') && forwarded.has(r.ownerName.toLowerCase())
                  return (
                    <tr key={key} data-rrtype={type}>
                      <th scope='row'>{type}{r.profile !== undefined && <span class='tag'>pool</span>}{byForward && <span class='tag'>web forward</span>}</th>
                      <td class='num'>{r.ttl}</td>
                      <td>
                        {r.profile === undefined
                          ? <ul class='rdata'>{r.rdata.map((d, i) => <li key={i}><code>{d}</code></li>)}</ul>
                          : <PoolCell zone={p.name} type={type} rrset={{ ...r, profile: r.profile }} editable={editable} onSaved={message => reload(message)} />}
                        {editing === key && <RecordForm zone={p.name} existing={draft} onDone={() => reload(`Saved the ${type} records of ${r.ownerName}.`)} onCancel={() => setEditing(undefined)} />}
                      </td>
                      {editable && (
                        <td class='row-actions'>
                          {byForward
                            ? <span class='muted'>Written by its web forwards; changed with them.</span>
                            : confirming === key
                              ? (
                                <span role='group' aria-label={`Confirm deleting ${key}`}>
                                  <span>Delete the {type} records of {r.ownerName}?</span>
                                  <button type='button' class='danger' onClick={() => { remove(r).catch(() => {}) }}>Delete</button>
                                  <button type='button' class='ghost' onClick={() => setConfirming(undefined)}>Keep</button>
                                </span>
                                )
                              : (
                                <>
                                  {type !== 'SOA' && r.profile === undefined && <button type='button' class='ghost' aria-label={`Edit ${key}`} onClick={() => setEditing(key)}>Edit</button>}
                                  {type !== 'SOA' && <button type='button' class='ghost' aria-label={`Delete ${key}`} onClick={() => setConfirming(key)}>Delete</button>}
                                </>
                                )}
                        </td>
                      )}
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
        </section>
      ))}
      {total > rrsets.length && (
        <p class='actions'>
          <button type='button' class='ghost' disabled={loadingMore} onClick={() => { more().catch(() => {}) }}>{loadingMore ? 'Loading…' : `Show ${Math.min(RRSET_PAGE, total - rrsets.length)} more record sets`}</button>
          <span class='muted'>{rrsets.length} of {total} shown</span>
        </p>
      )}
      <Dnssec zone={p.name} />
      {p.type === 'PRIMARY' && <Dangling zone={p.name} canScan={may(props.me, p.accountName, 'read')} />}
      <ZoneActions me={props.me} zone={p.name} accountName={p.accountName} type={p.type} status={p.status} onChanged={message => reload(message)} />
    </section>
  )
}
