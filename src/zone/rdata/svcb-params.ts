/**
 * The SvcParams shared by SVCB and HTTPS (RFC 9460 §2.1, §2.2, §7, §8; `dohpath` RFC 9461 §5;
 * `ohttp` RFC 9540 §4): presentation ⇄ wire for every registered key plus the generic
 * `keyNNNNN` form, the wire layout check, and the semantic checks.
 *
 * The writer follows BIND 9.18 `named-compilezone` (`lib/dns/rdata/in_1/svcb_64.c`): keys in
 * ascending order, `alpn` quoted with the value-list escapes, `ech` as bare base64, hints as
 * bare comma lists, other values as quoted character-strings, a key alone when its value is
 * empty. Unlike BIND 9.18, which writes `key7` and `key8`, keys 7 and 8 are written by their
 * registered names `dohpath` and `ohttp` (as BIND 9.20 does for `dohpath`).
 */
import { ByteReader, ByteWriter, WireError } from './bytes.ts'
import { decodeBase64, encodeBase64, formatIpv6, parseIpv4, parseIpv6, type Field } from './fields.ts'
import { RdataError, escapeBytes, unescapeBytes, type Token } from './tokens.ts'
import { wireNameLength } from '../name.ts'

/** SvcParamKey numbers (RFC 9460 §14.3.2, RFC 9461 §5, RFC 9540 §4). */
export const SVC_MANDATORY = 0
export const SVC_ALPN = 1
export const SVC_NO_DEFAULT_ALPN = 2
export const SVC_PORT = 3
export const SVC_IPV4HINT = 4
export const SVC_ECH = 5
export const SVC_IPV6HINT = 6
export const SVC_DOHPATH = 7
export const SVC_OHTTP = 8
/** RFC 9460 §14.3.2: 65535 is the "Invalid key". */
export const SVC_INVALID_KEY = 65535

/** How one registered key's value is written, read and checked. */
interface KeyCodec {
  readonly name: string
  /** Presentation value (escapes as written, quotes removed; '' when absent) → wire value. */
  parse (text: string): Uint8Array
  /** Wire value → presentation value; '' means the key is written alone. */
  format (value: Uint8Array): string
  /** @throws WireError when the wire value does not have the key's layout. */
  check (value: Uint8Array): void
}

/**
 * RFC 9460 Appendix A.1 value-list: split at commas that are not escaped; `\,` is a comma and
 * `\\` a backslash inside an item. `bytes` has had its character-string escapes decoded already.
 */
export function splitValueList (bytes: Uint8Array, label: string): Uint8Array[] {
  const items: Uint8Array[] = []
  let cur: number[] = []
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!
    if (b === 0x5c) {
      if (i + 1 >= bytes.length) throw new RdataError(`${label}: value ends with a lone backslash`)
      cur.push(bytes[++i]!)
    } else if (b === 0x2c) {
      if (cur.length === 0) throw new RdataError(`${label}: empty item in the comma-separated list`)
      items.push(Uint8Array.from(cur))
      cur = []
    } else {
      cur.push(b)
    }
  }
  if (cur.length === 0) throw new RdataError(`${label}: empty item in the comma-separated list`)
  items.push(Uint8Array.from(cur))
  return items
}

/** One alpn-id as BIND writes it inside the quoted list (`commatxt_totext`): `\\,` and `\\\\`. */
function escapeAlpnId (id: Uint8Array): string {
  let s = ''
  for (const b of id) {
    if (b <= 0x20 || b >= 0x7f) s += '\\' + String(b).padStart(3, '0')
    else if (b === 0x2c) s += '\\\\,'
    else if (b === 0x5c) s += '\\\\\\\\'
    else if (b === 0x22) s += '\\"'
    else s += String.fromCharCode(b)
  }
  return s
}

function latin1 (bytes: Uint8Array): string {
  return String.fromCharCode(...bytes)
}

function mustBeEmpty (name: string): KeyCodec {
  return {
    name,
    parse: (text) => {
      if (text !== '') throw new RdataError(`${name} takes no value, got "${text}"`)
      return new Uint8Array(0)
    },
    format: () => '',
    check: (v) => { if (v.length !== 0) throw new WireError(`${name} must have an empty value`) }
  }
}

function addressList (name: string, size: 4 | 16): KeyCodec {
  const family = size === 4 ? 'IPv4' : 'IPv6'
  return {
    name,
    parse: (text) => {
      if (text === '') throw new RdataError(`${name} needs at least one ${family} address`)
      const w = new ByteWriter()
      for (const item of latin1(unescapeBytes(text)).split(',')) {
        const b = size === 4 ? parseIpv4(item) : parseIpv6(item)
        if (b === undefined) throw new RdataError(`${name}: "${item}" is not an ${family} address`)
        w.bytes(b)
      }
      return w.finish()
    },
    format: (v) => {
      const out: string[] = []
      for (let i = 0; i < v.length; i += size) {
        const a = v.subarray(i, i + size)
        out.push(size === 4 ? Array.from(a).join('.') : formatIpv6(a))
      }
      return out.join(',')
    },
    check: (v) => {
      if (v.length === 0 || v.length % size !== 0) throw new WireError(`${name} must be one or more ${size}-octet addresses`)
    }
  }
}

/** A character-string value written quoted (dohpath, keyNNNNN): any octets. */
function opaque (name: string): KeyCodec {
  return {
    name,
    parse: (text) => unescapeBytes(text),
    format: (v) => v.length === 0 ? '' : `"${escapeBytes(v)}"`,
    check: () => {}
  }
}

const CODECS: ReadonlyMap<number, KeyCodec> = new Map<number, KeyCodec>([
  // RFC 9460 §8: a list of keys, in strictly increasing order on the wire.
  [SVC_MANDATORY, {
    name: 'mandatory',
    parse: (text) => {
      if (text === '') throw new RdataError('mandatory needs at least one key')
      const keys = splitValueList(unescapeBytes(text), 'mandatory').map(k => parseKeyName(latin1(k)))
      keys.sort((a, b) => a - b)
      for (let i = 1; i < keys.length; i++) {
        if (keys[i] === keys[i - 1]) throw new RdataError(`mandatory lists ${keyName(keys[i]!)} twice`)
      }
      const w = new ByteWriter()
      for (const k of keys) w.u16(k)
      return w.finish()
    },
    format: (v) => {
      const r = new ByteReader(v)
      const out: string[] = []
      while (r.remaining > 0) out.push(keyName(r.u16()))
      return out.join(',')
    },
    check: (v) => {
      if (v.length === 0 || v.length % 2 !== 0) throw new WireError('mandatory must be a non-empty list of 2-octet keys')
      for (let i = 2; i < v.length; i += 2) {
        if (((v[i - 2]! << 8) | v[i - 1]!) >= ((v[i]! << 8) | v[i + 1]!)) throw new WireError('mandatory keys must be in strictly increasing order')
      }
    }
  }],
  // RFC 9460 §7.1.1: alpn-ids as length-prefixed strings; a comma-separated value-list.
  [SVC_ALPN, {
    name: 'alpn',
    parse: (text) => {
      if (text === '') throw new RdataError('alpn needs at least one protocol id')
      const w = new ByteWriter()
      for (const id of splitValueList(unescapeBytes(text), 'alpn')) {
        if (id.length > 255) throw new RdataError('alpn: a protocol id is longer than 255 octets')
        w.u8(id.length)
        w.bytes(id)
      }
      return w.finish()
    },
    format: (v) => {
      const r = new ByteReader(v)
      const ids: string[] = []
      while (r.remaining > 0) ids.push(escapeAlpnId(r.bytes(r.u8())))
      return `"${ids.join(',')}"`
    },
    check: (v) => {
      if (v.length === 0) throw new WireError('alpn must list at least one protocol id')
      const r = new ByteReader(v)
      while (r.remaining > 0) {
        const len = r.u8()
        if (len === 0) throw new WireError('alpn: empty protocol id')
        r.bytes(len)
      }
    }
  }],
  [SVC_NO_DEFAULT_ALPN, mustBeEmpty('no-default-alpn')],
  // RFC 9460 §7.2: one 16-bit port.
  [SVC_PORT, {
    name: 'port',
    parse: (text) => {
      if (!/^\d+$/.test(text) || Number(text) > 0xffff) throw new RdataError(`port must be a number from 0 to 65535, got "${text}"`)
      const w = new ByteWriter()
      w.u16(Number(text))
      return w.finish()
    },
    format: (v) => String((v[0]! << 8) | v[1]!),
    check: (v) => { if (v.length !== 2) throw new WireError('port must be 2 octets') }
  }],
  [SVC_IPV4HINT, addressList('ipv4hint', 4)],
  // RFC 9460 §7.3: the ECHConfigList, base64 in presentation form.
  [SVC_ECH, {
    name: 'ech',
    parse: (text) => decodeBase64(text, 'ech'),
    format: (v) => encodeBase64(v),
    check: () => {}
  }],
  [SVC_IPV6HINT, addressList('ipv6hint', 16)],
  // RFC 9461 §5: a relative URI template; checked by validateSvcParams.
  [SVC_DOHPATH, opaque('dohpath')],
  // RFC 9540 §4: no value.
  [SVC_OHTTP, mustBeEmpty('ohttp')]
])

const BY_NAME = new Map([...CODECS].map(([k, c]) => [c.name, k]))

/** Presentation name of a key: its registered name or `keyNNNNN` (RFC 9460 §2.1). */
export function keyName (key: number): string {
  return CODECS.get(key)?.name ?? `key${key}`
}

/** Key number of a registered name or `keyNNNNN` (no leading zeros). @throws RdataError */
export function parseKeyName (text: string): number {
  const known = BY_NAME.get(text)
  if (known !== undefined) return known
  const m = /^key(0|[1-9]\d{0,4})$/.exec(text)
  if (m === null || Number(m[1]) > 0xffff) throw new RdataError(`"${text}" is not a SvcParamKey (a registered name or key0 to key65535)`)
  return Number(m[1])
}

interface Param {
  key: number
  value: Uint8Array
}

/** Read the presentation SvcParams; values follow their `key=` token when quoted. */
function parseParams (tokens: readonly Token[]): Param[] {
  const params: Param[] = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.quoted) throw new RdataError(`expected a SvcParam (key or key=value), got the quoted string "${t.text}"`)
    const eq = t.text.indexOf('=')
    const keyText = eq < 0 ? t.text : t.text.slice(0, eq)
    let value = eq < 0 ? '' : t.text.slice(eq + 1)
    // `key="value"`: the tokenizer splits the quoted value off as the next token.
    if (eq === t.text.length - 1 && tokens[i + 1]?.quoted === true) value = tokens[++i]!.text
    const key = parseKeyName(keyText)
    const codec = CODECS.get(key)
    let bytes: Uint8Array
    if (codec !== undefined && keyText === codec.name) {
      bytes = codec.parse(value)
    } else {
      // The generic keyNNNNN form carries the wire value, also for registered keys.
      bytes = unescapeBytes(value)
      try {
        codec?.check(bytes)
      } catch (err) {
        if (err instanceof WireError) throw new RdataError(`${keyText}: ${err.message}`)
        throw err
      }
    }
    if (bytes.length > 0xffff) throw new RdataError(`${keyText}: value longer than 65535 octets`)
    params.push({ key, value: bytes })
  }
  // RFC 9460 §2.2: keys in strictly increasing order on the wire; a key at most once.
  params.sort((a, b) => a.key - b.key)
  for (let i = 1; i < params.length; i++) {
    if (params[i]!.key === params[i - 1]!.key) throw new RdataError(`SvcParam ${keyName(params[i]!.key)} appears more than once`)
  }
  return params
}

/** The params of SVCB/HTTPS wire data, after the target. @throws WireError when malformed. */
function readParams (r: ByteReader): Param[] {
  const params: Param[] = []
  let last = -1
  while (r.remaining > 0) {
    const key = r.u16()
    if (key <= last) throw new WireError(`SvcParam ${keyName(key)} out of order or repeated (RFC 9460 §2.2)`)
    last = key
    const value = r.bytes(r.u16())
    const codec = CODECS.get(key)
    if (codec !== undefined) {
      try {
        codec.check(value)
      } catch (err) {
        if (err instanceof WireError) throw new WireError(`${codec.name}: ${err.message}`)
        throw err
      }
    }
    params.push({ key, value })
  }
  return params
}

/**
 * The SvcParams as one field: to the end of the rdata (RFC 9460 §2.2). Parsing sorts the keys
 * and refuses repeated ones; the wire check wants them strictly increasing.
 */
export function svcParams (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => {
      for (const p of parseParams(r.rest())) {
        w.u16(p.key)
        w.u16(p.value.length)
        w.bytes(p.value)
      }
    },
    format: (r) => readParams(r).map(p => {
      const codec = CODECS.get(p.key)
      const value = codec !== undefined ? codec.format(p.value) : (p.value.length === 0 ? '' : `"${escapeBytes(p.value)}"`)
      return value === '' ? keyName(p.key) : `${keyName(p.key)}=${value}`
    }).join(' '),
    skip: (r) => { readParams(r) }
  }
}

/** RFC 9461 §5: dohpath is a relative URI template (UTF-8) with a `dns` variable. */
function dohpathProblem (value: Uint8Array): string | undefined {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(value)
  } catch {
    return 'dohpath is not UTF-8 (RFC 9461 §5)'
  }
  if (!text.startsWith('/')) return 'dohpath must be a relative URI template starting with "/" (RFC 9461 §5)'
  for (const m of text.matchAll(/\{[+#./;?&]?([^{}]*)\}/g)) {
    if (m[1]!.split(',').some(v => v.replace(/(\*|:\d+)$/, '') === 'dns')) return undefined
  }
  return 'dohpath must contain the "dns" variable, such as "{?dns}" (RFC 9461 §5)'
}

/**
 * Semantic checks of SVCB/HTTPS wire rdata (already checked for layout): AliasMode without
 * params (RFC 9460 §2.4.2), the mandatory list (§8), alpn with no-default-alpn (§7.1.1), the
 * reserved key 65535 (§14.3.2), and dohpath (RFC 9461 §5).
 */
export function validateSvcParams (rdata: Uint8Array): string[] {
  const r = new ByteReader(rdata)
  const priority = r.u16()
  r.bytes(wireNameLength(rdata, r.pos))
  const params = readParams(r)
  const reasons: string[] = []
  const keys = new Set(params.map(p => p.key))
  if (priority === 0 && params.length > 0) reasons.push('AliasMode (priority 0) must not have SvcParams (RFC 9460 §2.4.2)')
  const mandatory = params.find(p => p.key === SVC_MANDATORY)
  if (mandatory !== undefined) {
    for (let i = 0; i < mandatory.value.length; i += 2) {
      const k = (mandatory.value[i]! << 8) | mandatory.value[i + 1]!
      if (k === SVC_MANDATORY) reasons.push('mandatory must not list "mandatory" itself (RFC 9460 §8)')
      else if (!keys.has(k)) reasons.push(`mandatory lists ${keyName(k)}, which is not present (RFC 9460 §8)`)
    }
  }
  if (keys.has(SVC_NO_DEFAULT_ALPN) && !keys.has(SVC_ALPN)) reasons.push('no-default-alpn needs alpn as well (RFC 9460 §7.1.1)')
  if (keys.has(SVC_INVALID_KEY)) reasons.push('key65535 is the reserved "Invalid key" (RFC 9460 §14.3.2)')
  const dohpath = params.find(p => p.key === SVC_DOHPATH)
  if (dohpath !== undefined) {
    const problem = dohpathProblem(dohpath.value)
    if (problem !== undefined) reasons.push(problem)
  }
  return reasons
}
