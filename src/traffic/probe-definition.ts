import { isIP } from 'node:net'
import { ZonalError } from '../errors/catalog.ts'
import { parseTypeName, typeName } from '../zone/rrtype.ts'
import type { PoolMonitor } from '../zone/pools/profile.ts'
import type { HttpTransaction, ProbeCheck } from './checks/index.ts'

/**
 * Probe definitions of SiteBacker and Traffic Controller pools as the real API has them (its
 * "Pool Probes" page, Probe Info DTO and the Details DTOs): validated, defaults filled, and turned
 * into what a run checks. SF and SLB pools have no probe definitions: their `monitor` is probed
 * ({@link monitorCheck}).
 */

export const PROBE_TYPES = ['HTTP', 'PING', 'FTP', 'TCP', 'SMTP', 'SMTP_SEND', 'DNS'] as const
export type ProbeType = typeof PROBE_TYPES[number]

/** Interval names and their seconds. */
export const INTERVALS: Readonly<Record<string, number>> = {
  HALF_MINUTE: 30, ONE_MINUTE: 60, TWO_MINUTES: 120, FIVE_MINUTES: 300, TEN_MINUTES: 600, FIFTEEN_MINUTES: 900
}

/** The agent (region) names the real API accepts: the current regions and the older site names. */
export const AGENT_NAMES: readonly string[] = [
  'ASIA', 'CHINA', 'EUROPE_EAST', 'EUROPE_WEST', 'NORTH_AMERICA_CENTRAL', 'NORTH_AMERICA_EAST', 'NORTH_AMERICA_WEST', 'SOUTH_AMERICA',
  'NEW_YORK', 'PALO_ALTO', 'DALLAS', 'AMSTERDAM'
]

/** HTTP headers a probe may not set (the real API's list). */
const FORBIDDEN_HEADERS = new Set(['host', 'connection', 'content-length', 'cookie', ':method', ':authority', ':scheme', ':path'])
const MAX_TRANSACTIONS = 10
const MAX_TEXT = 2048

/** A probe's settings, validated: what the store keeps and GET shows. */
export interface ProbeSettings {
  probeType: ProbeType
  interval: string
  agents: string[]
  threshold: number
  /** The details as GET shows them (the given fields, checked). */
  details: Record<string, unknown>
}

type Obj = Record<string, unknown>

function bad (text: string): ZonalError {
  return new ZonalError('PROBE_DETAILS_INVALID', text)
}

function objectAt (v: unknown, path: string, optional = true): Obj | undefined {
  if (v === undefined || v === null) {
    if (optional) return undefined
    throw bad(`${path} is required`)
  }
  if (typeof v !== 'object' || Array.isArray(v)) throw bad(`${path} must be an object`)
  return v as Obj
}

function onlyKeys (o: Obj, path: string, keys: readonly string[]): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw bad(`${path}.${k.slice(0, 40)} is not a field of this probe type`)
}

function intAt (o: Obj, key: string, path: string, min: number, max: number): number | undefined {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw bad(`${path}.${key} must be a whole number from ${min} to ${max}`)
  return v
}

function textAt (o: Obj, key: string, path: string, max = MAX_TEXT): string | undefined {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string' || v.length > max) throw bad(`${path}.${key} must be text of at most ${max} characters`)
  return v
}

function boolAt (o: Obj, key: string, path: string): boolean | undefined {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'boolean') throw bad(`${path}.${key} must be true or false`)
  return v
}

/** A `limits` entry `{warning?, critical?, fail?}` of seconds (fail only is acted on). */
function secondsLimit (limits: Obj | undefined, key: string, path: string, max: number): number | undefined {
  const l = objectAt(limits?.[key], `${path}.${key}`)
  if (l === undefined) return undefined
  onlyKeys(l, `${path}.${key}`, ['warning', 'critical', 'fail'])
  intAt(l, 'warning', `${path}.${key}`, 0, max)
  intAt(l, 'critical', `${path}.${key}`, 0, max)
  return intAt(l, 'fail', `${path}.${key}`, 1, max)
}

function textLimit (limits: Obj | undefined, key: string, path: string): string | undefined {
  const l = objectAt(limits?.[key], `${path}.${key}`)
  if (l === undefined) return undefined
  onlyKeys(l, `${path}.${key}`, ['warning', 'critical', 'fail'])
  textAt(l, 'warning', `${path}.${key}`)
  textAt(l, 'critical', `${path}.${key}`)
  return textAt(l, 'fail', `${path}.${key}`)
}

/** `expectedResponse`: `2XX`, `3XX`, `2XX|3XX` or codes 100–599 separated by `|`. */
function checkExpected (text: string): void {
  const parts = text.split('|')
  for (const p of parts) {
    const t = p.trim().toUpperCase()
    if (t === '2XX' || t === '3XX') continue
    if (!/^\d{3}$/.test(t)) throw new ZonalError('PROBE_EXPECTED_RESPONSE')
    if (Number(t) < 100 || Number(t) > 599) throw new ZonalError('PROBE_EXPECTED_RESPONSE')
  }
}

function checkUrl (text: string, path: string): void {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw bad(`${path} is not a URL`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') throw bad(`${path} must be an http:// or https:// URL`)
}

function checkHttp (d: Obj): void {
  onlyKeys(d, 'details', ['transactions', 'totalLimits'])
  const list = d.transactions
  if (!Array.isArray(list) || list.length === 0) throw bad('details.transactions must list at least one transaction')
  if (list.length > MAX_TRANSACTIONS) throw bad(`details.transactions has more than ${MAX_TRANSACTIONS} transactions`)
  for (const [i, value] of list.entries()) {
    const path = `details.transactions[${i}]`
    const t = objectAt(value, path, false)!
    onlyKeys(t, path, ['method', 'protocolVersion', 'url', 'transmittedData', 'followRedirects', 'expectedResponse', 'limits'])
    if (t.method !== 'GET' && t.method !== 'POST') throw bad(`${path}.method must be GET or POST`)
    const url = textAt(t, 'url', path)
    if (url === undefined || url === '') throw bad(`${path}.url is required`)
    checkUrl(url, `${path}.url`)
    const version = textAt(t, 'protocolVersion', path)
    if (version === 'HTTP/2') throw new ZonalError('PROBE_TYPE_UNSUPPORTED', `${path}.protocolVersion HTTP/2: this server's probes speak HTTP/1.1 only`)
    if (version !== undefined && version !== 'HTTP/1.0' && version !== 'HTTP/1.1') throw bad(`${path}.protocolVersion must be HTTP/1.0 or HTTP/1.1`)
    textAt(t, 'transmittedData', path, 8 * MAX_TEXT)
    boolAt(t, 'followRedirects', path)
    const expected = textAt(t, 'expectedResponse', path, 200)
    if (expected !== undefined) checkExpected(expected)
    const limits = objectAt(t.limits, `${path}.limits`)
    if (limits !== undefined) {
      onlyKeys(limits, `${path}.limits`, ['connect', 'avgConnect', 'run', 'avgRun', 'searchString'])
      secondsLimit(limits, 'connect', `${path}.limits`, 20)
      secondsLimit(limits, 'avgConnect', `${path}.limits`, 20)
      secondsLimit(limits, 'run', `${path}.limits`, 60)
      secondsLimit(limits, 'avgRun', `${path}.limits`, 60)
      // A search string that is not a valid regular expression is still searched as text.
      textLimit(limits, 'searchString', `${path}.limits`)
    }
  }
  const total = objectAt(d.totalLimits, 'details.totalLimits')
  if (total !== undefined) {
    onlyKeys(total, 'details.totalLimits', ['warning', 'critical', 'fail'])
    intAt(total, 'fail', 'details.totalLimits', 1, 60)
  }
}

function checkHeaders (v: unknown): void {
  const h = objectAt(v, 'headers')
  if (h === undefined) return
  const keys = Object.keys(h)
  if (keys.length > 5) throw bad('headers: at most 5 headers')
  let total = 0
  const seen = new Set<string>()
  for (const key of keys) {
    if (!/^[A-Za-z0-9_-]{1,50}$/.test(key)) throw bad(`headers: key '${key.slice(0, 60)}' must be 1–50 letters, digits, '-' or '_'`)
    if (FORBIDDEN_HEADERS.has(key.toLowerCase())) throw bad(`headers: ${key} may not be set`)
    if (seen.has(key.toLowerCase())) throw bad(`headers: ${key} is given twice`)
    seen.add(key.toLowerCase())
    const values = h[key]
    if (!Array.isArray(values) || values.some(x => typeof x !== 'string' || x.length > 512 || /[\r\n]/.test(x))) throw bad(`headers.${key} must be a list of values of at most 512 characters`)
    const length = key.length + (values as string[]).join(', ').length
    if (length > 562) throw bad(`headers.${key}: key and value are longer than 562 characters`)
    total += length
  }
  if (total > 2810) throw bad('headers: all headers together are longer than 2810 characters')
}

function checkDetails (type: ProbeType, d: Obj): void {
  switch (type) {
    case 'HTTP':
      checkHttp(d)
      return
    case 'TCP': {
      onlyKeys(d, 'details', ['port', 'controlIP', 'limits'])
      if (intAt(d, 'port', 'details', 1, 65535) === undefined) throw bad('details.port is required')
      const control = textAt(d, 'controlIP', 'details', 64)
      if (control !== undefined && control !== '' && isIP(control) === 0) throw bad('details.controlIP must be an IP address')
      const limits = objectAt(d.limits, 'details.limits')
      if (limits !== undefined) {
        onlyKeys(limits, 'details.limits', ['connect', 'avgConnect'])
        secondsLimit(limits, 'connect', 'details.limits', 20)
        secondsLimit(limits, 'avgConnect', 'details.limits', 20)
      }
      return
    }
    case 'DNS': {
      onlyKeys(d, 'details', ['port', 'tcpOnly', 'type', 'ownerName', 'limits'])
      intAt(d, 'port', 'details', 1, 65535)
      boolAt(d, 'tcpOnly', 'details')
      const qtype = textAt(d, 'type', 'details', 16)
      if (qtype !== undefined && qtype.toUpperCase() === 'AXFR') throw new ZonalError('PROBE_TYPE_UNSUPPORTED', 'details.type AXFR: DNS probes ask one question, not a zone transfer')
      if (qtype !== undefined && parseTypeName(qtype.toUpperCase()) === undefined) throw bad(`details.type '${qtype}' is not a record type`)
      const owner = textAt(d, 'ownerName', 'details', 255)
      if (owner !== undefined && owner !== '' && !/^[A-Za-z0-9_.*-]+\.?$/.test(owner)) throw bad('details.ownerName is not a domain name')
      const limits = objectAt(d.limits, 'details.limits')
      if (limits !== undefined) {
        onlyKeys(limits, 'details.limits', ['run', 'avgRun', 'response'])
        secondsLimit(limits, 'run', 'details.limits', 60)
        secondsLimit(limits, 'avgRun', 'details.limits', 60)
        textLimit(limits, 'response', 'details.limits')
      }
      return
    }
    case 'SMTP':
    case 'FTP': {
      const ftp = type === 'FTP'
      onlyKeys(d, 'details', ftp ? ['port', 'passiveMode', 'username', 'password', 'path', 'limits'] : ['port', 'limits'])
      intAt(d, 'port', 'details', 1, 65535)
      if (ftp) {
        boolAt(d, 'passiveMode', 'details')
        for (const k of ['username', 'password', 'path']) {
          const v = textAt(d, k, 'details', 255)
          if (v !== undefined && /[\r\n]/.test(v)) throw bad(`details.${k} may not hold a line break`)
        }
      }
      const limits = objectAt(d.limits, 'details.limits')
      if (limits !== undefined) {
        onlyKeys(limits, 'details.limits', ['connect', 'avgConnect', 'run', 'avgRun', 'searchString'])
        secondsLimit(limits, 'connect', 'details.limits', 20)
        secondsLimit(limits, 'avgConnect', 'details.limits', 20)
        secondsLimit(limits, 'run', 'details.limits', 60)
        secondsLimit(limits, 'avgRun', 'details.limits', 60)
        if (textLimit(limits, 'searchString', 'details.limits') !== undefined) throw new ZonalError('PROBE_TYPE_UNSUPPORTED', 'details.limits.searchString: this server\'s SMTP and FTP probes read replies on the control connection only')
      }
      return
    }
    case 'PING':
    case 'SMTP_SEND':
      return
    default: {
      const never: never = type
      throw bad(`type ${String(never)}`)
    }
  }
}

/**
 * Validate a Probe Info DTO (POST, PUT, or a PATCH merged onto the stored probe): type, interval
 * (default FIVE_MINUTES), agents (one or more, known names, each once), threshold (1 to the
 * number of agents), headers (HTTP) and the type's details.
 *
 * @throws ZonalError PROBE_TYPE_UNSUPPORTED (PING: ICMP cannot be sent by this process;
 *   SMTP_SEND: it would send mail; HTTP/2; DNS AXFR), PROBE_AGENTS_EMPTY, PROBE_AGENT_INVALID,
 *   PROBE_THRESHOLD, PROBE_EXPECTED_RESPONSE, PROBE_DETAILS_INVALID, INVALID_INPUT.
 */
export function validateProbe (body: unknown, accountName: string): ProbeSettings {
  const b = objectAt(body, 'probe', false)!
  for (const k of Object.keys(b)) {
    if (!['id', 'poolRecord', 'type', 'interval', 'agents', 'threshold', 'details', 'headers'].includes(k)) throw new ZonalError('INVALID_INPUT', `${k.slice(0, 40)} is not a field of a probe`)
  }
  const type = b.type
  if (typeof type !== 'string' || !(PROBE_TYPES as readonly string[]).includes(type)) throw new ZonalError('INVALID_INPUT', `type must be one of ${PROBE_TYPES.join(', ')}`)
  if (type === 'PING') throw new ZonalError('PROBE_TYPE_UNSUPPORTED', 'PING probes send ICMP echo requests, which this server\'s process cannot send (no raw sockets); use a TCP or HTTP probe')
  if (type === 'SMTP_SEND') throw new ZonalError('PROBE_TYPE_UNSUPPORTED', 'SMTP_SEND probes would send mail through the target; this server probes SMTP with the SMTP type (greeting and EHLO) only')
  const interval = b.interval ?? 'FIVE_MINUTES'
  if (typeof interval !== 'string' || INTERVALS[interval] === undefined) throw new ZonalError('INVALID_INPUT', `interval must be one of ${Object.keys(INTERVALS).join(', ')}`)
  const agents = b.agents
  if (agents === undefined || agents === null || (Array.isArray(agents) && agents.length === 0)) throw new ZonalError('PROBE_AGENTS_EMPTY')
  if (!Array.isArray(agents) || agents.some(a => typeof a !== 'string')) throw new ZonalError('INVALID_INPUT', 'agents must be a list of agent names')
  const names: string[] = []
  for (const a of agents as string[]) {
    const name = a.toUpperCase()
    if (!AGENT_NAMES.includes(name)) throw new ZonalError('PROBE_AGENT_INVALID', a.slice(0, 40), accountName)
    if (names.includes(name)) throw new ZonalError('INVALID_INPUT', `agents: ${name} is named twice`)
    names.push(name)
  }
  const threshold = b.threshold
  if (typeof threshold !== 'number' || !Number.isInteger(threshold) || threshold < 1 || threshold > names.length) throw new ZonalError('PROBE_THRESHOLD')
  if (b.headers !== undefined && type !== 'HTTP') throw bad('headers are for HTTP probes only')
  checkHeaders(b.headers)
  const details = objectAt(b.details, 'details', type !== 'HTTP' && type !== 'TCP') ?? {}
  checkDetails(type as ProbeType, details)
  const shown: Record<string, unknown> = { ...details }
  if (b.headers !== undefined && b.headers !== null) shown.headers = b.headers
  return { probeType: type as ProbeType, interval, agents: names, threshold, details: shown }
}

type Limits = Record<string, { fail?: number | string } | undefined> | undefined

function failSeconds (limits: Limits, key: string, fallback: number): number {
  const v = limits?.[key]?.fail
  return (typeof v === 'number' ? v : fallback) * 1000
}

/** The timeouts a run uses when a probe sets none (seconds): connecting, and the whole run. */
export const DEFAULT_CONNECT_SECONDS = 10
export const DEFAULT_RUN_SECONDS = 20

/**
 * What a stored probe checks against one record: the details with their defaults. `ownerName`
 * is the pool's owner, asked by a DNS probe without an owner name.
 */
export function probeCheck (probe: { probeType: string, details: unknown }, ownerName: string): ProbeCheck {
  const d = (probe.details ?? {}) as Obj
  const limits = d.limits as Limits
  switch (probe.probeType) {
    case 'HTTP': {
      const transactions = ((d.transactions ?? []) as Obj[]).map((t): HttpTransaction => {
        const l = t.limits as Limits
        return {
          method: t.method === 'POST' ? 'POST' : 'GET',
          url: String(t.url),
          transmittedData: typeof t.transmittedData === 'string' ? t.transmittedData : '',
          followRedirects: t.followRedirects === true,
          expectedResponse: typeof t.expectedResponse === 'string' && t.expectedResponse !== '' ? t.expectedResponse : '2XX',
          searchString: typeof l?.searchString?.fail === 'string' ? l.searchString.fail : '',
          connectMs: failSeconds(l, 'connect', DEFAULT_CONNECT_SECONDS),
          runMs: failSeconds(l, 'run', DEFAULT_RUN_SECONDS)
        }
      })
      const total = (d.totalLimits as { fail?: number } | undefined)?.fail
      const headers = (d.headers ?? {}) as Record<string, string[]>
      return { kind: 'HTTP', transactions, headers, totalMs: (typeof total === 'number' ? total : DEFAULT_RUN_SECONDS * transactions.length) * 1000 }
    }
    case 'TCP':
      return { kind: 'TCP', port: Number(d.port), controlIP: typeof d.controlIP === 'string' && d.controlIP !== '' ? d.controlIP : null, connectMs: failSeconds(limits, 'connect', DEFAULT_CONNECT_SECONDS) }
    case 'DNS': {
      const type = typeof d.type === 'string' ? parseTypeName(d.type.toUpperCase()) : undefined
      const owner = typeof d.ownerName === 'string' && d.ownerName !== '' ? d.ownerName : ownerName
      return {
        kind: 'DNS',
        port: typeof d.port === 'number' ? d.port : 53,
        tcpOnly: d.tcpOnly === true,
        qtype: type ?? parseTypeName('NULL')!,
        qname: owner,
        failResponse: typeof (limits?.response?.fail) === 'string' ? limits.response.fail : '',
        runMs: failSeconds(limits, 'run', DEFAULT_RUN_SECONDS)
      }
    }
    case 'SMTP':
      return { kind: 'SMTP', port: typeof d.port === 'number' ? d.port : 25, connectMs: failSeconds(limits, 'connect', DEFAULT_CONNECT_SECONDS), runMs: failSeconds(limits, 'run', DEFAULT_RUN_SECONDS) }
    case 'FTP':
      return {
        kind: 'FTP',
        port: typeof d.port === 'number' ? d.port : 21,
        username: typeof d.username === 'string' ? d.username : '',
        password: typeof d.password === 'string' ? d.password : '',
        path: typeof d.path === 'string' ? d.path : '',
        connectMs: failSeconds(limits, 'connect', DEFAULT_CONNECT_SECONDS),
        runMs: failSeconds(limits, 'run', DEFAULT_RUN_SECONDS)
      }
    default:
      throw new Error(`probe type ${probe.probeType} cannot run`)
  }
}

/**
 * The check of an SF or SLB pool's `monitor`: one HTTP transaction (its method, URL, data and
 * search string), passing on 2XX or 3XX (the monitor has no expected status), run against each
 * monitored record.
 */
export function monitorCheck (monitor: PoolMonitor): ProbeCheck {
  return {
    kind: 'HTTP',
    headers: {},
    totalMs: DEFAULT_RUN_SECONDS * 1000,
    transactions: [{
      method: monitor.method,
      url: monitor.url,
      transmittedData: monitor.transmittedData,
      followRedirects: false,
      expectedResponse: '2XX|3XX',
      searchString: monitor.searchString,
      connectMs: DEFAULT_CONNECT_SECONDS * 1000,
      runMs: DEFAULT_RUN_SECONDS * 1000
    }]
  }
}

/** The record type name of a pool (A, AAAA). */
export function recordTypeName (rrtype: number): string {
  return typeName(rrtype)
}
