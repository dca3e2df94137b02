import fastJsonPatch from 'fast-json-patch'
import type { Operation } from 'fast-json-patch'
import { ZonalError } from '../errors/catalog.ts'
import { RdataError, tokenize } from '../zone/rdata/index.ts'
import { isTextType } from '../zone/record-text.ts'

/**
 * JSON Patch (RFC 6902) on the rrset document `{ttl, rdata: [...], profile?}`, the shape GET
 * shows. Besides the usual paths (`/ttl`, `/rdata/1`, `/rdata/-`, `/profile/order`), an rdata
 * string may be addressed field by field (reference notes §7): `/rdata/0/1` is the second
 * whitespace-separated field of the first record, so for MX `10 mail.example.org.` it is the
 * exchange. A quoted character-string (HINFO, CAA value) is one field, quotes included. A TXT or
 * SPF record is its text, whose fields are the parts between single spaces (`/rdata/0/1` of
 * `v=DMARC1; p=reject` is `p=reject`), so joining them gives the text back exactly.
 *
 * To do that, the patch runs on a copy whose rdata strings are lists of fields: values written to
 * `/rdata` (a list of strings), `/rdata/N` (a string) and `/rdata/N/M` (one field) are split the
 * same way, and the fields are joined with single spaces afterwards. The result is validated as
 * a PUT of the whole document would be.
 */

/** The document a JSON Patch applies to. */
export interface RrsetDocument {
  ttl: unknown
  rdata: unknown
  profile?: unknown
}

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test'])
const TOP = new Set(['ttl', 'rdata', 'profile'])

/** The first segment of a JSON Pointer (RFC 6901), unescaped. */
function topOf (pointer: string): string {
  return (pointer.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~')
}

/**
 * The operations of a JSON Patch body, checked for shape.
 *
 * @throws ZonalError JSON_PATCH_INVALID (170003) for a body that is not a non-empty list of
 *   operations with `op` and `path`; JSON_PATCH_UNSUPPORTED_OP (170004); JSON_PATCH_FAILED
 *   (170001) for a path outside `ttl`, `rdata` and `profile`.
 */
export function patchOperations (input: unknown): Operation[] {
  if (!Array.isArray(input) || input.length === 0) throw new ZonalError('JSON_PATCH_INVALID', 'The body must be a non-empty list of operations.')
  for (const op of input as unknown[]) {
    const o = op as { op?: unknown, path?: unknown, from?: unknown }
    if (typeof op !== 'object' || op === null || typeof o.op !== 'string' || typeof o.path !== 'string') {
      throw new ZonalError('JSON_PATCH_INVALID', 'Each operation needs "op" and "path".')
    }
    if (!OPS.has(o.op)) throw new ZonalError('JSON_PATCH_UNSUPPORTED_OP', o.op)
    for (const pointer of [o.path, o.from]) {
      if (pointer === undefined) continue
      if (typeof pointer !== 'string' || !TOP.has(topOf(pointer))) {
        throw new ZonalError('JSON_PATCH_FAILED', `path ${String(pointer)} cannot be patched; the rrset has ttl, rdata and profile`)
      }
    }
  }
  return input as Operation[]
}

/**
 * The fields of one record text: for TXT and SPF the parts between single spaces; for other
 * types its tokens, quoted ones with their quotes.
 */
export function rdataFields (type: number, text: string): string[] {
  if (isTextType(type)) return text.split(' ')
  return tokenize(text, { zoneFile: false }).map(t => t.quoted ? `"${t.text}"` : t.text)
}

/** An operation with its value split into fields where its path addresses rdata. */
function onFields (op: Operation, split: (value: unknown) => unknown): Operation {
  if (!('value' in op) || topOf(op.path) !== 'rdata') return op
  const depth = op.path.split('/').length - 1
  const value: unknown = op.value
  if (depth === 1) return { ...op, value: Array.isArray(value) ? value.map(split) : value }
  if (depth === 2) return { ...op, value: split(value) }
  return { ...op, value: typeof value === 'number' ? String(value) : value }
}

function join (record: unknown): unknown {
  return Array.isArray(record) ? record.map(f => typeof f === 'string' ? f : JSON.stringify(f)).join(' ') : record
}

/**
 * Apply `ops` to `doc` (not changed) and return the patched document, rdata strings joined again.
 *
 * @param type - the rrset's type (how its record texts split into fields)
 *
 * @throws ZonalError JSON_PATCH_FAILED (170001) when an operation cannot be applied (a missing
 *   path, an index out of range, a failed `test`, a value with an unterminated quote).
 */
export function applyRrsetPatch (type: number, doc: RrsetDocument, ops: readonly Operation[]): RrsetDocument {
  const split = (value: unknown): unknown => typeof value === 'string' ? rdataFields(type, value) : value
  let patched: RrsetDocument
  try {
    const fields: RrsetDocument = { ...structuredClone(doc), rdata: Array.isArray(doc.rdata) ? doc.rdata.map(split) : doc.rdata }
    patched = fastJsonPatch.applyPatch(fields, ops.map(op => onFields(op, split)), true, false, true).newDocument
  } catch (err) {
    const message = err instanceof RdataError ? `a value has ${err.message}` : (err as Error).message.split('\n')[0]
    throw new ZonalError('JSON_PATCH_FAILED', message ?? 'invalid operation')
  }
  return { ...patched, rdata: Array.isArray(patched.rdata) ? patched.rdata.map(join) : patched.rdata }
}
