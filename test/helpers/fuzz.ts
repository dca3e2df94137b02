/**
 * Bad inputs for the route fuzz (test/api/fuzz/routes-fuzz.test.ts), generated from a seeded
 * PRNG so a failure replays: path parameters, query values, JSON bodies mutated from a valid one
 * and from the route's schema, raw body texts and content types, multipart uploads, rdata; and
 * the verdict on an answer (no 5xx, every 4xx in the catalog's shape).
 */
import { catalog } from '../../src/errors/catalog.ts'

export type Rand = () => number

/** A loose JSON Schema, as /openapi.json shows it. */
export interface Schema {
  type?: string
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  enum?: unknown[]
  examples?: unknown[]
  'x-examples'?: Record<string, { value: unknown }>
}

export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
const chance = (r: Rand, p: number): boolean => r() < p

/** A value that stands for a raw JSON number no JavaScript number can hold, spliced into the text by {@link jsonText}. */
const RAW = (text: string): string => `\u0001RAW:${text}\u0001`
/** Raw JSON number texts: beyond 64 bits, beyond a double (parses to Infinity), negative zero. */
const RAW_NUMBERS = ['99999999999999999999999', '-99999999999999999999999', '1e400', '-1e400', '-0', '1.5e-400', '18446744073709551616']

/** JSON text of `value`, with the {@link RAW} markers replaced by their raw text. */
export function jsonText (value: unknown): string {
  return (JSON.stringify(value) ?? '').replace(/"\\u0001RAW:([^"\\]*)\\u0001"/g, '$1')
}

/** `encodeURIComponent`, with a lone surrogate sent as the UTF-8 bytes a careless encoder would make of it. */
export function encode (text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    return text.split('').map(c => /[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c)).join('')
  }
}

/** Deep nesting of arrays or objects as JSON text (`depth` levels). */
export function deepText (depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
}

/** Strings that break careless code: empty, dots, wildcards of SQL LIKE, NUL, injection, unicode, very long, numbers as text. */
export const BAD_STRINGS: readonly string[] = [
  '', ' ', '.', '..', '../../etc/passwd', '%', '_', '%_%', '\\', '*', '@', '-', '--',
  '\u0000', 'a\u0000b', '%00', "' OR 1=1 --", '"; DROP TABLE zones; --', '1; SELECT pg_sleep(0)',
  '\u00e9t\u00e9.test.', '\u4e2d\u6587.test.', '\ud83d\ude00', '\ud800', '\u202e', '\r\n', '\t',
  'x'.repeat(300), 'a.'.repeat(200), 'x'.repeat(70_000), '-1', '0', '99999999999999999999999', '1e400', 'NaN',
  'Infinity', '-Infinity', 'null', 'true', '[]', '{}', '<a>', '$' + '{x}', '{{x}}', 'name:', 'name:%::', ':::', 'a:b::c:d',
  'constructor', '__proto__', 'toString', 'prototype', '0x10', '1.5', '+1', ' 1', '1 ', '01'
]

/** Values of every JSON type that fit no field in particular. */
function badValue (r: Rand): unknown {
  switch (Math.floor(r() * 12)) {
    case 0: return null
    case 1: return pick(r, [true, false])
    case 2: return pick(r, [0, -1, 1.5, -2147483649, 2 ** 53 + 2, Number.MAX_VALUE, -Number.MAX_VALUE, 4294967296])
    case 3: return RAW(pick(r, RAW_NUMBERS))
    case 4: return []
    case 5: return {}
    case 6: return Array.from({ length: pick(r, [1, 3, 1000, 5000]) }, () => pick(r, ['x', 1, null, {}]))
    case 7: return { a: { b: { c: [1, { d: 'e' }] } } }
    case 8: return [pick(r, BAD_STRINGS)]
    default: return pick(r, BAD_STRINGS)
  }
}

/** A value of the wrong type for `schema` (or any bad value when the schema says nothing). */
export function wrongFor (r: Rand, schema: Schema | undefined): unknown {
  if (schema?.enum !== undefined && chance(r, 0.5)) return pick(r, ['', 'yes', 'TRUE', 1, 0, null, 'PRIMARY ', 'primary\u0000'])
  switch (schema?.type) {
    case 'string': return pick(r, [1, -1, true, null, [], {}, ['a'], RAW(pick(r, RAW_NUMBERS)), pick(r, BAD_STRINGS)])
    case 'integer':
    case 'number': return pick(r, ['1', 'x', '', 1.5, -1, null, true, [], {}, RAW(pick(r, RAW_NUMBERS)), 2 ** 63, -(2 ** 63), Number.MAX_VALUE])
    case 'boolean': return pick(r, ['true', 'yes', 1, 0, null, [], {}])
    case 'array': return pick(r, ['x', 1, null, {}, [null], [[[]]], Array.from({ length: 3000 }, (_, i) => i)])
    case 'object': return pick(r, ['x', 1, null, [], [{}], true])
    default: return badValue(r)
  }
}

type Path = (string | number)[]
const DELETE = Symbol('delete')

/** Every path to a node of `value` (objects' keys, arrays' positions), the root being []. */
function pathsOf (value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at)
  if (Array.isArray(value)) value.slice(0, 5).forEach((v, i) => pathsOf(v, [...at, i], out))
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], out)
  return out
}

/** Every property path `schema` declares, with the property's schema (array items as position 0). */
function schemaPaths (schema: Schema | undefined, at: Path = [], out: [Path, Schema][] = []): [Path, Schema][] {
  if (schema === undefined || at.length > 6) return out
  for (const [k, s] of Object.entries(schema.properties ?? {})) {
    out.push([[...at, k], s])
    schemaPaths(s, [...at, k], out)
  }
  if (schema.items !== undefined) {
    out.push([[...at, 0], schema.items])
    schemaPaths(schema.items, [...at, 0], out)
  }
  return out
}

/** `value` with the node at `path` set by `change` (the containers on the way made when missing or of another type). */
function setAt (value: unknown, path: Path, change: (old: unknown) => unknown | typeof DELETE): unknown {
  if (path.length === 0) {
    const next = change(value)
    return next === DELETE ? undefined : next
  }
  const [head, ...rest] = path
  const container = (typeof head === 'number'
    ? (Array.isArray(value) ? [...value] : [])
    : (typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {})) as Record<string | number, unknown>
  const next = rest.length === 0 ? change(container[head!]) : setAt(container[head!], rest, change)
  if (next === DELETE) {
    if (Array.isArray(container)) container.splice(head as number, 1)
    else Reflect.deleteProperty(container, head!)
  } else container[head!] = next
  return container
}
/** The schema's `required` names along `path` of the body (a required field to drop). */
function requiredPaths (schema: Schema | undefined, at: Path = [], out: Path[] = []): Path[] {
  if (schema === undefined || at.length > 6) return out
  for (const name of schema.required ?? []) out.push([...at, name])
  for (const [k, s] of Object.entries(schema.properties ?? {})) requiredPaths(s, [...at, k], out)
  return out
}

/** One JSON body derived from `seed` (a valid body of the route) and `schema`, made wrong in one or two ways. */
export function mutateBody (r: Rand, seed: unknown, schema: Schema | undefined): unknown {
  let body = structuredClone(seed)
  const steps = chance(r, 0.3) ? 2 : 1
  for (let i = 0; i < steps; i++) {
    const kind = Math.floor(r() * 7)
    if (kind <= 1) { // a declared field of the wrong type
      const declared = schemaPaths(schema)
      if (declared.length > 0) {
        const [path, s] = pick(r, declared)
        body = setAt(body, path, () => wrongFor(r, s))
        continue
      }
    }
    const paths = pathsOf(body)
    const path = pick(r, paths)
    if (kind === 2) { // a required field missing
      const required = requiredPaths(schema)
      body = setAt(body, required.length > 0 ? pick(r, required) : path, () => DELETE)
    } else if (kind === 3) { // an extra field
      const key = pick(r, ['extra', '__proto__', 'constructor', 'prototype', '', '\u0000', 'x'.repeat(500), 'toString', '$where'])
      body = setAt(body, path, old => typeof old === 'object' && old !== null && !Array.isArray(old) ? { ...old, [key]: badValue(r) } : [old, badValue(r)])
    } else if (kind === 4) { // a node removed
      body = setAt(body, path, () => DELETE)
    } else { // a node replaced by a bad value
      body = setAt(body, path, () => badValue(r))
    }
  }
  return body
}

/** Rdata texts that break careless parsers: numbers out of range, broken escapes and quotes, RFC 3597 forms that lie, long names and labels. */
export const TRICKY_RDATA: readonly string[] = [
  '', ' ', '.', '@', '*', '..', 'a..b.', '-1', '65536', '4294967296', '99999999999999999999999', '1e400', 'NaN', '0 .', '65536 mail.fuzz.test.',
  '-1 mail.fuzz.test.', '10', '10 ', '1 2 3', '0 0 0 .', '0 0 65536 x.', '255 issue "x"', '0 issue', '0 x"y "z"', '"', '"\\', '\\', '\\999', '\\000',
  '\\# 0', '\\# 1', '\\# 2 zz', '\\# 65536 00', '\\# -1', '\\# 4 00000000 00', '1 1 ' + 'f'.repeat(65), '3 1 1 ' + 'ab'.repeat(300), '257 3 8 ====',
  '1.2.3.4.5', '256.1.1.1', '::ffff:1.2.3.4', '2001:db8::1%eth0', '2001:db8:::1', 'a'.repeat(64) + '.fuzz.test.', ('a'.repeat(63) + '.').repeat(5),
  '( 1 2 )', ';comment', '$ORIGIN x.', 'IN A 192.0.2.1', '300 IN A 192.0.2.1', '"' + 'x'.repeat(256) + '"', '"a" '.repeat(3000), 'x\u0000y',
  '1 alpn=h2,h3 port=99999', '1 . mandatory=mandatory', '1 . key65535=x', '1 . ipv4hint=', '0 . alpn=h2', '52 22 00 N 4 22 00 W 0m', '91 0 0 N 0 0 0 E 0m',
  '1 0 1 ' + 'A'.repeat(40), '20260101000000 20250101000000 1 . A 8 3 300', 'A NS SOA TYPE65535 TYPE65536', '0 0 - 1 ABCD', '1 0 0 - A', '\u00e9.test.'
]

/**
 * `seed` changed at one leaf at a time: every string leaf holding a NUL character, a very long
 * string and a LIKE wildcard, every leaf of the wrong type, every leaf removed.
 */
export function leafVariants (r: Rand, seed: unknown): unknown[] {
  const out: unknown[] = []
  for (const path of pathsOf(seed)) {
    if (path.length === 0) continue
    let leaf: unknown = seed
    for (const key of path) leaf = (leaf as Record<string | number, unknown>)[key]
    if (typeof leaf === 'object' && leaf !== null) continue
    if (typeof leaf === 'string') for (const text of [`${leaf}\u0000`, 'x'.repeat(5000), '%_']) out.push(setAt(seed, path, () => text))
    out.push(setAt(seed, path, () => wrongFor(r, { type: typeof leaf === 'number' ? 'integer' : typeof leaf })), setAt(seed, path, () => DELETE))
  }
  return out
}

/** Raw body texts that are not a valid JSON document, or are a document no route takes. */
export const BAD_JSON_TEXTS: readonly string[] = [
  '{', '[', '{"a":', '{"a":1}}', '[1,2', 'nul', 'undefined', 'NaN', "{'a':1}", '{"a":1,}', '\ufeff{}', '\u0000',
  '{"a":"\\ud800"}', '{"a":"\\u0000"}', 'null', '0', '-1', '"x"', 'true', '[]', '{}', '[null]', '[{}]', '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{"x":1}}}', ' ', '\n', RAW_NUMBERS[0]!, `[${RAW_NUMBERS[2]}]`, `{"a":${RAW_NUMBERS[0]}}`
]

/** Content types a route does not take or that are broken. */
export const BAD_CONTENT_TYPES: readonly string[] = [
  'text/plain', 'application/xml', 'application/octet-stream', 'application/x-www-form-urlencoded', 'multipart/form-data',
  'multipart/form-data; boundary=', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/json; charset=latin1',
  'application/json-patch+json', 'application/merge-patch+json', 'a/b/c', ';', 'application/json;;', 'APPLICATION/JSON', 'application/*', '*/*',
  'application/json\u00e9'
]

/** A multipart body of `parts` (name, filename or not, content type, content), with `boundary`. */
export function multipartText (boundary: string, parts: { name: string, filename?: string, type?: string, content: string }[], end = true): string {
  let out = ''
  for (const p of parts) {
    out += `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}\r\n`
    if (p.type !== undefined) out += `Content-Type: ${p.type}\r\n`
    out += `\r\n${p.content}\r\n`
  }
  return out + (end ? `--${boundary}--\r\n` : '')
}

/** The number of kinds of {@link badUpload}. */
export const UPLOAD_CASES = 18

/** A bad multipart upload of a zone (`zone` JSON part, `file` BIND part), of kind `kind` (random without one). */
export function badUpload (r: Rand, zoneJson: unknown, zoneFile: string, kind = Math.floor(r() * UPLOAD_CASES)): { contentType: string, payload: string } {
  const b = 'fuzzBoundary' + Math.floor(r() * 1000)
  const zone = { name: 'zone', filename: '', type: 'application/json', content: jsonText(zoneJson) }
  const file = { name: 'file', filename: 'file', type: 'application/octet-stream', content: zoneFile }
  const ct = `multipart/form-data; boundary=${b}`
  switch (kind) {
    case 0: return { contentType: 'multipart/form-data', payload: multipartText(b, [zone, file]) }
    case 1: return { contentType: `multipart/form-data; boundary=${b}x`, payload: multipartText(b, [zone, file]) }
    case 2: return { contentType: ct, payload: multipartText(b, [zone, file], false) }
    case 3: return { contentType: ct, payload: multipartText(b, Array.from({ length: pick(r, [5, 6, 20]) }, (_, i) => ({ ...file, name: `f${i}` }))) }
    case 4: return { contentType: ct, payload: multipartText(b, [zone, zone, zone, zone, file]) }
    case 5: return { contentType: ct, payload: multipartText(b, [{ ...zone, content: jsonText(withName(zoneJson, 'nul\u0000.test.')) }, file]) }
    case 6: return { contentType: ct, payload: multipartText(b, [zone, { ...file, content: zoneFile + 'txt IN TXT "a\u0000b"\n' }]) }
    case 16: return { contentType: ct, payload: multipartText(b, [zone, { ...file, content: zoneFile + 'n\u0000ul IN A 192.0.2.1\n' }]) }
    case 17: return { contentType: ct, payload: multipartText(b, [{ ...zone, content: zone.content.replace('"', '"\u0000') }, { ...file, filename: 'a\u0000.zone' }]) }
    case 7: return { contentType: ct, payload: multipartText(b, [{ ...zone, name: 'zo\u0000ne' }, file]) }
    case 8: return { contentType: ct, payload: multipartText(b, [{ ...zone, content: pick(r, BAD_JSON_TEXTS) }, file]) }
    case 9: return { contentType: ct, payload: multipartText(b, [zone]) }
    case 10: return { contentType: ct, payload: multipartText(b, [file]) }
    case 11: return { contentType: ct, payload: multipartText(b, [zone, { ...file, content: pick(r, BAD_STRINGS) }]) }
    case 12: return { contentType: ct, payload: `--${b}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${b}--\r\n` }
    case 13: return { contentType: ct, payload: pick(r, ['', '--', `--${b}`, `--${b}--`, 'garbage', `--${b}\r\n\r\n`]) }
    case 14: return { contentType: ct, payload: multipartText(b, [{ ...zone, content: jsonText(mutateBody(r, zoneJson, undefined)) }, file]) }
    default: return { contentType: ct, payload: multipartText(b, [{ ...zone, name: pick(r, ['', 'zone ', 'ZONE', 'file', 'x'.repeat(300)]) }, { ...file, name: pick(r, ['', 'zone', 'files', '\u00e9']) }]) }
  }
}

/** `zone` (a Zone Create DTO) with another `properties.name`. */
function withName (zone: unknown, name: string): unknown {
  const z = (typeof zone === 'object' && zone !== null ? zone : {}) as { properties?: unknown }
  return { ...z, properties: { ...(typeof z.properties === 'object' ? z.properties : {}), name } }
}

/** The errorCodes the catalog answers as a single object (token errors, "report not ready", …). */
const OBJECT_CODES = new Set<number>(Object.values(catalog).filter(d => (d as { shape?: string }).shape === 'object').map(d => d.errorCode))

/**
 * Why `body` is not an error body in the catalog's wire shape (a non-empty list of
 * `{errorCode, errorMessage}`, or one such object for the catalog's single-object codes), or
 * undefined when it is.
 */
export function notCatalogShape (body: string): string | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return 'not JSON'
  }
  const item = (x: unknown): boolean => typeof x === 'object' && x !== null &&
    typeof (x as { errorCode?: unknown }).errorCode === 'number' && typeof (x as { errorMessage?: unknown }).errorMessage === 'string'
  if (Array.isArray(parsed)) return parsed.length > 0 && parsed.every(item) ? undefined : 'not a list of {errorCode, errorMessage}'
  if (!item(parsed)) return 'not {errorCode, errorMessage}'
  return OBJECT_CODES.has((parsed as { errorCode: number }).errorCode) ? undefined : 'a single object for a list-shaped code'
}

/** Why `res` breaks the rule (a 5xx, or a 4xx whose body is not in the catalog's shape), or undefined. */
export function broken (res: { statusCode: number, body: string }, path: string): string | undefined {
  if (res.statusCode >= 500) return `status ${res.statusCode}`
  // Every error of the token endpoint is a single object, as the real one answers (docs/errors.md);
  // a 404 is a path that did not reach it (`/V1/authorization/token`).
  if (path === '/authorization/token' && res.statusCode >= 400 && res.statusCode !== 404) {
    const shape = notCatalogShape(`[${res.body}]`)
    return shape === undefined && !res.body.trimStart().startsWith('[') ? undefined : `status ${res.statusCode}, body not a single {errorCode, errorMessage}`
  }
  if (res.statusCode < 400) return path === '/batch' ? batchResults(res.body) : undefined
  if (path === '/batch') {
    const inner = batchResults(res.body, true)
    if (inner !== 'not results') return inner
  }
  const shape = notCatalogShape(res.body)
  return shape === undefined ? undefined : `status ${res.statusCode}, body ${shape}`
}

/** A batch's results `[{status, response}]`: each below 500, each error response in the catalog's shape. */
function batchResults (text: string, failed = false): string | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return failed ? 'not results' : undefined
  }
  if (!Array.isArray(parsed) || !parsed.every(x => typeof x === 'object' && x !== null && typeof (x as { status?: unknown }).status === 'number')) return failed ? 'not results' : undefined
  for (const [i, result] of (parsed as { status: number, response: unknown }[]).entries()) {
    if (result.status >= 500) return `operation ${i} answered status ${result.status}`
    if (result.status >= 400) {
      const shape = notCatalogShape(JSON.stringify(result.response))
      if (shape !== undefined) return `operation ${i} answered ${result.status} with a body ${shape}`
    }
  }
  return undefined
}
