import { ByteReader, WireError } from './bytes.ts'
import { checkFields, decodeHex, encodeHex, formatFields, parseFields, type ParseContext } from './fields.ts'
import { RdataError, type Token } from './tokens.ts'
import { NameError } from '../name.ts'
import type { RdataType } from './rdata-type.ts'
import { parseTypeName, typeLabel, typeName } from '../rrtype.ts'
import { A } from './a.ts'
import { A6 } from './a6.ts'
import { AAAA } from './aaaa.ts'
import { AFSDB } from './afsdb.ts'
import { CAA } from './caa.ts'
import { CDNSKEY } from './cdnskey.ts'
import { CDS } from './cds.ts'
import { CERT } from './cert.ts'
import { CNAME } from './cname.ts'
import { DLV } from './dlv.ts'
import { DNAME } from './dname.ts'
import { DNSKEY } from './dnskey.ts'
import { DS } from './ds.ts'
import { HINFO } from './hinfo.ts'
import { HTTPS } from './https.ts'
import { IPSECKEY } from './ipseckey.ts'
import { KX } from './kx.ts'
import { LOC } from './loc.ts'
import { MF } from './mf.ts'
import { MX } from './mx.ts'
import { NAPTR } from './naptr.ts'
import { NS } from './ns.ts'
import { NSEC } from './nsec.ts'
import { NSEC3 } from './nsec3.ts'
import { NSEC3PARAM } from './nsec3param.ts'
import { OPENPGPKEY } from './openpgpkey.ts'
import { PTR } from './ptr.ts'
import { RP } from './rp.ts'
import { RRSIG } from './rrsig.ts'
import { SMIMEA } from './smimea.ts'
import { SOA } from './soa.ts'
import { SPF } from './spf.ts'
import { SRV } from './srv.ts'
import { SSHFP } from './sshfp.ts'
import { SVCB } from './svcb.ts'
import { TA } from './ta.ts'
import { TKEY } from './tkey.ts'
import { TLSA } from './tlsa.ts'
import { TSIG } from './tsig.ts'
import { TXT } from './txt.ts'
import { URI } from './uri.ts'
import { ZONEMD } from './zonemd.ts'

/**
 * Every record type with an rdata module. The registry imports each module itself and builds its
 * tables from this list, so it is complete however it is reached (the wire codec imports it
 * without `index.ts`). Adding a type: one module, one line here.
 */
export const RDATA_TYPES: readonly RdataType[] = [
  A, A6, AAAA, AFSDB, CAA, CDNSKEY, CDS, CERT, CNAME, DLV, DNAME, DNSKEY, DS, HINFO, HTTPS, IPSECKEY, KX, LOC, MF, MX, NAPTR, NS, NSEC, NSEC3, NSEC3PARAM, OPENPGPKEY, PTR, RP, RRSIG, SMIMEA, SOA, SPF, SRV, SSHFP, SVCB, TA, TKEY, TLSA, TSIG, TXT, URI, ZONEMD
]

const byNumber = new Map<number, RdataType>()
for (const t of RDATA_TYPES) {
  if (byNumber.has(t.type)) throw new Error(`type ${t.type} listed twice`)
  if (typeName(t.type) !== t.mnemonic) throw new Error(`type ${t.type} is ${typeName(t.type)} in RRType, not ${t.mnemonic}`)
  byNumber.set(t.type, t)
}

export { parseTypeName, typeLabel, typeName }
export type { RdataType }

export function rdataType (type: number): RdataType | undefined {
  return byNumber.get(type)
}

/** The types with an rdata module, in ascending order. */
export function registeredTypes (): RdataType[] {
  return [...RDATA_TYPES].sort((a, b) => a.type - b.type)
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
