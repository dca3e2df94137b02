import { ByteReader, WireError } from './bytes.ts'
import { checkFields, decodeHex, encodeHex, formatFields, parseFields, type Field, type ParseContext } from './fields.ts'
import { RdataError, type Token } from './tokens.ts'
import { NameError } from '../name.ts'

/**
 * A record type: its number and mnemonic, its rdata layout, and the RFCs it follows. Each type
 * lives in its own module (`zone/rdata/<type>.ts`) and registers itself here (STYLE.md §8.1).
 */
export interface RdataType {
  readonly type: number
  readonly mnemonic: string
  readonly rfcs: readonly string[]
  readonly fields: readonly Field[]
  /** Semantic checks beyond the layout; returns reasons (empty when valid). */
  validate?: (rdata: Uint8Array) => string[]
  /** Custom presentation parser, when a field list cannot express the type. */
  parse?: (tokens: readonly Token[], ctx: ParseContext) => Uint8Array
  /** Custom presentation writer. */
  format?: (rdata: Uint8Array) => string
  /** Custom wire check. @throws WireError */
  check?: (rdata: Uint8Array) => void
}

const byNumber = new Map<number, RdataType>()
const byMnemonic = new Map<string, RdataType>()

/**
 * Mnemonics of types and query types that have no rdata module (meta types, obsolete types):
 * they are named, and their data is handled in the RFC 3597 generic form.
 */
const OTHER_MNEMONICS: Record<number, string> = {
  3: 'MD',
  7: 'MB',
  8: 'MG',
  9: 'MR',
  10: 'NULL',
  11: 'WKS',
  14: 'MINFO',
  19: 'X25',
  20: 'ISDN',
  21: 'RT',
  22: 'NSAP',
  23: 'NSAP-PTR',
  24: 'SIG',
  25: 'KEY',
  26: 'PX',
  27: 'GPOS',
  30: 'NXT',
  31: 'EID',
  32: 'NIMLOC',
  34: 'ATMA',
  40: 'SINK',
  41: 'OPT',
  42: 'APL',
  49: 'DHCID',
  55: 'HIP',
  56: 'NINFO',
  57: 'RKEY',
  58: 'TALINK',
  62: 'CSYNC',
  104: 'NID',
  105: 'L32',
  106: 'L64',
  107: 'LP',
  108: 'EUI48',
  109: 'EUI64',
  251: 'IXFR',
  252: 'AXFR',
  253: 'MAILB',
  254: 'MAILA',
  255: 'ANY'
}
const otherByMnemonic = new Map(Object.entries(OTHER_MNEMONICS).map(([n, m]) => [m, Number(n)]))

/** Add a type to the registry (called once by each type module). */
export function registerType (t: RdataType): RdataType {
  if (byNumber.has(t.type)) throw new Error(`type ${t.type} registered twice`)
  byNumber.set(t.type, t)
  byMnemonic.set(t.mnemonic, t)
  return t
}

export function rdataType (type: number): RdataType | undefined {
  return byNumber.get(type)
}

export function registeredTypes (): RdataType[] {
  return [...byNumber.values()].sort((a, b) => a.type - b.type)
}

/** Mnemonic of a type number, or `TYPEnnn` (RFC 3597 §5). */
export function typeName (type: number): string {
  return byNumber.get(type)?.mnemonic ?? OTHER_MNEMONICS[type] ?? `TYPE${type}`
}

/** The UltraDNS spelling of a type: `A (1)`. */
export function typeLabel (type: number): string {
  return `${typeName(type)} (${type})`
}

/**
 * Type number of a mnemonic (any case), `TYPEnnn`, a plain number, or the UltraDNS `A (1)`
 * spelling. Returns undefined when it names no type.
 */
export function parseTypeName (text: string): number | undefined {
  const s = text.trim()
  const ultra = /^([A-Za-z0-9-]+)\s*\((\d+)\)$/.exec(s)
  if (ultra !== null) {
    const n = parseTypeName(ultra[1]!)
    return n !== undefined && n === Number(ultra[2]) ? n : undefined
  }
  const upper = s.toUpperCase()
  const known = byMnemonic.get(upper)?.type ?? otherByMnemonic.get(upper)
  if (known !== undefined) return known
  const m = /^(?:TYPE)?(\d{1,5})$/.exec(upper)
  if (m !== null) {
    const n = Number(m[1])
    return n <= 0xffff ? n : undefined
  }
  return undefined
}

/**
 * Parse presentation rdata into wire form (names uncompressed, case kept). Accepts the RFC 3597
 * generic form `\# <length> <hex>` for every type, known ones included (then checked against
 * the type's layout).
 *
 * @throws RdataError with a reason naming the field at fault.
 */
export function parseRdata (type: number, tokens: readonly Token[], ctx: ParseContext): Uint8Array {
  if (tokens.length > 0 && tokens[0]!.text === '\\#' && !tokens[0]!.quoted) {
    const rdata = parseGeneric(tokens)
    const problem = wireProblem(type, rdata)
    if (problem !== undefined) throw new RdataError(`generic rdata does not match the ${typeName(type)} layout: ${problem}`)
    return rdata
  }
  const t = byNumber.get(type)
  if (t === undefined) throw new RdataError(`${typeName(type)} rdata must be written in the generic form \\# <length> <hex>`)
  try {
    const rdata = t.parse !== undefined ? t.parse(tokens, ctx) : parseFields(t.fields, tokens, ctx)
    // RFC 1035 §3.2.1: RDLENGTH is 16 bits.
    if (rdata.length > 65535) throw new RdataError(`${t.mnemonic} rdata longer than 65535 octets (${rdata.length})`)
    return rdata
  } catch (err) {
    if (err instanceof NameError || err instanceof WireError) throw new RdataError(err.message)
    throw err
  }
}

function parseGeneric (tokens: readonly Token[]): Uint8Array {
  const lenText = tokens[1]?.text
  if (lenText === undefined || !/^\d+$/.test(lenText)) throw new RdataError('generic rdata needs a length after \\#')
  const length = Number(lenText)
  if (length > 65535) throw new RdataError('generic rdata longer than 65535 octets')
  const hex = tokens.slice(2).map(t => t.text).join('')
  const bytes = decodeHex(hex, 'generic rdata')
  if (bytes.length !== length) throw new RdataError(`generic rdata length ${length} does not match its ${bytes.length} octets of data`)
  return bytes
}

/** Reason the wire rdata does not fit its type's layout, or undefined when it does. */
export function wireProblem (type: number, rdata: Uint8Array): string | undefined {
  const t = byNumber.get(type)
  if (rdata.length > 65535) return 'longer than 65535 octets'
  if (t === undefined) return undefined
  try {
    if (t.check !== undefined) t.check(rdata)
    else checkFields(t.fields, rdata)
    return undefined
  } catch (err) {
    if (err instanceof WireError || err instanceof NameError || err instanceof RdataError) return err.message
    throw err
  }
}

/** Presentation form of wire rdata; unknown types (and malformed data) in the generic form. */
export function formatRdata (type: number, rdata: Uint8Array): string {
  const t = byNumber.get(type)
  if (t !== undefined && rdata.length <= 65535) {
    try {
      // Field layouts check each field as they write it; custom writers are checked first.
      if (t.format === undefined) return formatFields(t.fields, rdata)
      if (wireProblem(type, rdata) === undefined) return t.format(rdata)
    } catch (err) {
      if (!(err instanceof WireError || err instanceof NameError || err instanceof RdataError)) throw err
    }
  }
  return formatGeneric(rdata)
}

/** RFC 3597 generic presentation: `\# <length> <hex>`. */
export function formatGeneric (rdata: Uint8Array): string {
  return rdata.length === 0 ? '\\# 0' : `\\# ${rdata.length} ${encodeHex(rdata)}`
}

/** Every reason the rdata is not valid for its type: layout first, then the type's own checks. */
export function validateRdata (type: number, rdata: Uint8Array): string[] {
  const problem = wireProblem(type, rdata)
  if (problem !== undefined) return [problem]
  return byNumber.get(type)?.validate?.(rdata) ?? []
}

/** A reader over rdata, for types whose checks look inside. */
export function rdataReader (rdata: Uint8Array): ByteReader {
  return new ByteReader(rdata)
}
