/**
 * Fuzz of every route of `/openapi.json`, on both engines: each operation of the document the app
 * serves is sent generated bad input (path parameters, query values, JSON bodies mutated from a
 * valid one and from the route's schema, broken JSON, wrong content types, multipart uploads,
 * missing or wrong tokens) against real objects (a primary zone with records, a secondary, an
 * alias, a task, users of two accounts) and made-up ones. No answer may be a 5xx, and every 4xx
 * has the catalog's wire shape (test/helpers/fuzz.ts `notCatalogShape`).
 *
 * The inputs come from a seeded PRNG: `ZONAL_TEST_FUZZ_SEED=<n>` replays another run (the seed
 * and the number of requests are printed). The errors the HTTP layer answers before any route
 * (431, a broken request line, no Host) cannot be sent through `app.inject`: the last test sends
 * them over a loopback socket.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { engineCases } from '../../helpers/engines.ts'
import { BAD_CONTENT_TYPES, BAD_JSON_TEXTS, BAD_STRINGS, badUpload, broken, deepText, encode, jsonText, leafVariants, mutateBody, notCatalogShape, pick, type Rand, type Schema, TRICKY_RDATA, UPLOAD_CASES } from '../../helpers/fuzz.ts'
import { prng } from '../../helpers/generated.ts'
import { bodyOf, rawExchange } from '../../helpers/raw-http.ts'
import type { Store } from '../../../src/store/store.ts'
import { taskHandlers } from '../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../src/tasks/runner.ts'
import { registeredTypes } from '../../../src/zone/rdata/registry.ts'
import { zoneNameFrom } from '../../../src/zones/context.ts'

const SEED = Number(process.env.ZONAL_TEST_FUZZ_SEED ?? 20261125)
/** Random requests per operation, after the fixed sweep (each part made wrong on its own). */
const RANDOM_PER_OPERATION = 60
const BODY_LIMIT = 64 * 1024

interface Parameter { in: string, name: string, schema?: Schema }
interface Operation {
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema?: Schema }> }
}
interface Doc { paths: Record<string, Record<string, Operation>> }

const ZONE_FILE = '$TTL 300\n@ IN SOA ns1.example.net. hostmaster.up.test. 1 7200 3600 1209600 300\n@ IN NS ns1.example.net.\nwww IN A 192.0.2.1\n'
const ZONE_ACTION = { changeComment: 'fuzz' }

/** A valid body of each operation that takes one, the start of its mutations. */
const SEEDS: Record<string, unknown> = {
  'POST /authorization/token': { grant_type: 'password', username: 'fuzzadmin', password: 'not the password' },
  'POST /zones': { properties: { name: 'made.test.', accountName: 'fuzz', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } },
  'PUT /zones/{zoneName}': {
    properties: { name: 'fuzz.test.', accountName: 'fuzz', type: 'PRIMARY' },
    primaryCreateInfo: { notifyAddresses: [{ notifyAddress: '192.0.2.9', description: 'n' }], restrictIPList: [{ singleIP: '192.0.2.7' }], tsig: { tsigKeyName: 'k.fuzz.test.', tsigKeyValue: 'c2VjcmV0', tsigAlgorithm: 'hmac-sha256' } }
  },
  'PATCH /zones/{zoneName}': { primaryCreateInfo: { restrictIPList: [{ cidr: '192.0.2.0/24' }] } },
  'DELETE /zones/{zoneName}': ZONE_ACTION,
  'POST /zones/{zoneName}/convert': ZONE_ACTION,
  'POST /zones/{zoneName}/unalias': ZONE_ACTION,
  'POST /zones/{zoneName}/transfer': ZONE_ACTION,
  'POST /zones/{zoneName}/suspend': ZONE_ACTION,
  'POST /zones/{zoneName}/snapshot': {},
  'POST /zones/{zoneName}/restore': {},
  'POST /zones/{zoneName}/rrsets/{rrType}/{ownerName}': { ttl: 300, rdata: ['192.0.2.1', '192.0.2.2'] },
  'PUT /zones/{zoneName}/rrsets/{rrType}/{ownerName}': { ttl: 300, rdata: ['192.0.2.10', '192.0.2.11'], profile: { '@context': 'http://schemas.ultradns.com/RDPool.jsonschema', order: 'ROUND_ROBIN', description: 'p' } },
  'PATCH /zones/{zoneName}/rrsets/{rrType}/{ownerName}': { ttl: 600, rdata: ['192.0.2.12'] },
  'DELETE /zones/{zoneName}/rrsets/{rrType}/{ownerName}': {},
  'POST /zones/export': { zoneNames: ['fuzz.test.', 'sec.test.'] },
  'POST /batch': [
    { method: 'GET', uri: '/v1/zones/fuzz.test.' },
    { method: 'POST', uri: '/v1/zones/fuzz.test./rrsets/A/batch', body: { ttl: 300, rdata: ['192.0.2.3'] } },
    { method: 'PATCH', uri: '/v1/zones/fuzz.test.', body: [{ op: 'add', path: '/notifyAddresses/-', value: { notifyAddress: '192.0.2.99' } }] }
  ]
}
/** JSON Patch bodies, for the PATCH routes that take them. */
const PATCH_SEEDS: Record<string, unknown> = {
  '/zones/{zoneName}': [{ op: 'add', path: '/notifyAddresses/-', value: { notifyAddress: '192.0.2.99' } }, { op: 'replace', path: '/restrictIpList/0/endIP', value: '192.0.2.200' }],
  '/zones/{zoneName}/rrsets/{rrType}/{ownerName}': [{ op: 'replace', path: '/rdata/0', value: '192.0.2.9' }, { op: 'add', path: '/ttl', value: 60 }]
}

/** Path parameter values naming real objects (and near misses) of the fixtures. */
function realValues (taskId: string): Record<string, string[]> {
  return {
    zoneName: ['fuzz.test.', 'fuzz.test', 'FUZZ.TEST.', 'sec.test.', 'alias.test.', 'absent.test.', 'fuzz.test.%2F'],
    rrType: ['A', 'MX', 'TXT', 'CNAME', 'SOA', 'NS', 'ANY', 'TYPE65280', '1', '28', 'a'],
    ownerName: ['www', '@', 'fuzz.test.', 'www.fuzz.test.', 'txt', 'absent', '*', 'mail'],
    taskId: [taskId, '00000000-0000-0000-0000-000000000000', 'f'.repeat(36)],
    accountName: ['fuzz', 'other', 'absent', 'FUZZ']
  }
}

/** Path segments sent as they are (not encoded): broken escapes, dots, slashes. */
const RAW_SEGMENTS = ['%', '%zz', '%00', '..', '.', '%2e%2e', '%2F', 'a/b', '%E0%A4%A', '%C0%AE', '9'.repeat(30), '-1', '+', '%20', '~', ';x=1']
/** Query values for numbers: beyond 64 bits, beyond a double, negative, not numbers. */
const NUMBER_TEXTS = ['99999999999999999999999', '-99999999999999999999999', '18446744073709551616', '9223372036854775808', '9007199254740993', '-1', '0', '1.5', '1e400', 'NaN', 'Infinity', '0x10', '', ' 5', '5 ', '-0', '1e3', '10']

interface Tokens { admin: string, reader: string, other: string }

/**
 * One request, as parts: the path's segments (already encoded), the query pairs (encoded), the
 * token used, the body. Every request starts from a valid one aimed at the real objects, and
 * one or more parts are then made wrong, so the wrong part reaches the code behind the checks
 * that come before it.
 */
interface Shape {
  prefix: string
  segments: Record<string, string>
  query: string[]
  auth: string
  headers?: Record<string, string>
  body?: { payload: string, contentType?: string }
}

/** Strings swept through every path parameter and query value (a subset of {@link BAD_STRINGS}). */
const SWEEP_STRINGS = ['', '.', '..', '%', '_', '\u0000', "' OR 1=1 --", '\u4e2d\u6587.test.', '\ud800', 'x'.repeat(300), 'x'.repeat(70_000), '-1', '99999999999999999999999', 'NaN', '__proto__', 'name:%::']
/** Authorization headers that are not a valid token of the fixtures' users. */
const BAD_AUTH = ['none', 'Bearer x', 'Basic YWRtaW46YWRtaW4=', 'Bearer ', `Bearer ${'x'.repeat(5000)}`, 'bearer']
/** Other headers a client may get wrong. */
const BAD_HEADERS: Record<string, string>[] = [
  { accept: 'application/xml' }, { accept: 'text/html' }, { accept: '*/*;q=0' }, { accept: 'x'.repeat(5000) },
  { 'x-request-id': '../../x' }, { 'x-request-id': 'x'.repeat(100) }, { 'content-encoding': 'gzip' }, { 'content-encoding': 'br' },
  { 'x-http-method-override': 'DELETE' }, { 'x-forwarded-for': "' OR 1=1 --" }, { 'accept-encoding': 'gzip;q=2' }, { range: 'bytes=0-1' }
]

const paramsOf = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map(m => m[1]!)
const queryOf = (op: Operation): Parameter[] => (op.parameters ?? []).filter(p => p.in === 'query')
const numeric = (p: Parameter): boolean => p.schema?.type === 'integer' || /^(limit|offset|Limit)$/.test(p.name)

/** The valid starting request of `method path`. */
function validShape (r: Rand, method: string, path: string, op: Operation, reals: Record<string, string[]>): Shape {
  const segments: Record<string, string> = {}
  for (const name of paramsOf(path)) segments[name] = encode(reals[name]?.[0] ?? 'x')
  // An rrset to create gets a new owner each time, so the request goes past "already exists".
  if (method === 'post' && segments.ownerName !== undefined) segments.ownerName = `n${Math.floor(r() * 1e9)}`
  const takesBody = op.requestBody !== undefined
  const seed = seedOf(r, method, path, op)
  return {
    prefix: pick(r, ['', '/v1', '/v3']),
    segments,
    query: [],
    auth: 'admin',
    ...(takesBody ? { body: { payload: jsonText(seed), contentType: 'application/json' } } : {})
  }
}

/** The valid body of `method path` (a zone to create gets a new name each time, so the request goes past "already exists"). */
function seedOf (r: Rand, method: string, path: string, op: Operation): unknown {
  const json = op.requestBody?.content['application/json']?.schema
  const seed = SEEDS[`${method.toUpperCase()} ${path}`] ?? Object.values(json?.['x-examples'] ?? {})[0]?.value ?? {}
  return method === 'post' && path === '/zones' ? newZone(r, seed) : seed
}

/** `zone` (a Zone Create DTO) named anew. */
function newZone (r: Rand, zone: unknown): unknown {
  const z = zone as { properties: Record<string, unknown> }
  return { ...z, properties: { ...z.properties, name: `z${Math.floor(r() * 1e9)}.test.` } }
}

/** The fixed sweep of `method path`: each path parameter, each query value, each body kind, each token made wrong on its own. */
function sweep (r: Rand, method: string, path: string, op: Operation, reals: Record<string, string[]>): Shape[] {
  const out: Shape[] = []
  const base = (): Shape => validShape(r, method, path, op, reals)
  for (const name of paramsOf(path)) {
    for (const v of [...RAW_SEGMENTS, ...SWEEP_STRINGS.map(encode), 'x'.repeat(1025), ...reals[name] ?? []]) {
      const s = base()
      s.segments[name] = v
      out.push(s)
    }
  }
  for (const p of queryOf(op)) {
    for (const v of numeric(p) ? NUMBER_TEXTS : SWEEP_STRINGS) out.push({ ...base(), query: [`${encode(p.name)}=${encode(v)}`] })
    out.push({ ...base(), query: [`${p.name}=1`, `${p.name}=2`] }, { ...base(), query: [`${p.name}=%zz`] }, { ...base(), query: [p.name] })
  }
  for (const auth of [...BAD_AUTH, 'reader', 'other']) out.push({ ...base(), auth })
  for (const headers of BAD_HEADERS) out.push({ ...base(), headers })
  if (method === 'post' && path === '/zones/{zoneName}/rrsets/{rrType}/{ownerName}') {
    // Every record type with rdata its parser must refuse (or take) without a 5xx: a few tricky texts each.
    for (const type of registeredTypes()) {
      for (let i = 0; i < 6; i++) {
        const s = base()
        s.segments.rrType = type.mnemonic
        s.segments.ownerName = `r${Math.floor(r() * 1e6)}`
        s.body = { payload: jsonText({ ttl: pick(r, [300, 0, -1, 2 ** 31, 2 ** 32]), rdata: [pick(r, TRICKY_RDATA)] }), contentType: 'application/json' }
        out.push(s)
      }
    }
  }
  if (path === '/batch') {
    // Each operation of a batch runs through the routes: bad paths and bodies inside one.
    for (const segment of [...RAW_SEGMENTS, 'x'.repeat(1025)]) {
      for (const uri of [`/v1/zones/${segment}`, `/v1/zones/fuzz.test./rrsets/A/${segment}`, `/v1/tasks/${segment}`, `/v1/tasks?offset=${segment}`]) {
        out.push({ ...base(), body: { payload: jsonText([{ method: 'GET', uri }]), contentType: 'application/json' } })
      }
    }
    for (const payload of BAD_JSON_TEXTS.filter(p => p.startsWith('{') || p.startsWith('['))) {
      out.push({ ...base(), body: { payload: `[{"method":"POST","uri":"/v1/zones/fuzz.test./rrsets/A/b","body":${payload}}]`, contentType: 'application/json' } })
    }
  }
  if (op.requestBody !== undefined || ['post', 'put', 'patch', 'delete'].includes(method)) {
    const seed = jsonText(seedOf(r, method, path, op))
    for (const payload of BAD_JSON_TEXTS) out.push({ ...base(), body: { payload, contentType: 'application/json' } })
    for (const variant of leafVariants(r, seedOf(r, method, path, op))) out.push({ ...base(), body: { payload: jsonText(variant), contentType: 'application/json' } })
    for (const contentType of BAD_CONTENT_TYPES) out.push({ ...base(), body: { payload: seed, contentType } })
    out.push({ ...base(), body: { payload: seed } }, { ...base(), body: { payload: '', contentType: 'application/json' } })
    if (op.requestBody?.content['multipart/form-data'] !== undefined) {
      for (let c = 0; c < UPLOAD_CASES; c++) out.push({ ...base(), body: badUpload(r, newZone(r, UPLOAD_ZONE), ZONE_FILE, c) })
    }
  }
  return out
}

/** A random request of `method path`: the valid one with one to three parts made wrong. */
function random (r: Rand, method: string, path: string, op: Operation, reals: Record<string, string[]>): Shape {
  const s = validShape(r, method, path, op, reals)
  const names = paramsOf(path)
  const queries = queryOf(op)
  const takesBody = op.requestBody !== undefined || ['post', 'put', 'patch', 'delete'].includes(method)
  // Which parts may be made wrong, with their weights (the parts the route has).
  const kinds: [string, number][] = [['path', names.length > 0 ? 2 : 0], ['query', queries.length > 0 ? 2.5 : 0], ['body', takesBody ? 4.5 : 0], ['auth', 0.5], ['headers', 0.3], ['prefix', 0.2]]
  const total = kinds.reduce((sum, [, w]) => sum + w, 0)
  for (let i = 0, n = 1 + Math.floor(r() * r() * 3); i < n; i++) {
    let x = r() * total
    const kind = kinds.find(([, w]) => (x -= w) < 0)?.[0] ?? 'prefix'
    if (kind === 'path') s.segments[pick(r, names)] = pathValue(r, reals)
    else if (kind === 'query') {
      for (const p of queries) if (chance(r, 0.3)) s.query.push(`${encode(p.name)}=${encode(numeric(p) ? pick(r, NUMBER_TEXTS) : pick(r, ['1', 'name:fuzz', 'fuzz', 'ASC', 'true']))}`)
      const p = pick(r, queries)
      const v = numeric(p) && chance(r, 0.7) ? pick(r, NUMBER_TEXTS) : pick(r, BAD_STRINGS)
      s.query.push(chance(r, 0.1) ? `${p.name}=${v}` : `${encode(p.name)}=${encode(v)}`)
      if (chance(r, 0.05)) s.query.push(pick(r, ['unknown=1', '__proto__=x', 'constructor[prototype]=x', '%zz=1', '=', '&&', 'a[]=1&a[]=2']))
    } else if (kind === 'body') s.body = body(r, method, path, op)
    else if (kind === 'auth') s.auth = pick(r, [...BAD_AUTH, 'reader', 'other', `Bearer ${'y'.repeat(40)}`])
    else if (kind === 'headers') s.headers = pick(r, BAD_HEADERS)
    else s.prefix = pick(r, ['/v2', '/v4', '/v1/v1', '//', '/V1'])
  }
  if (!takesBody && chance(r, 0.03)) s.body = { payload: pick(r, BAD_JSON_TEXTS), contentType: 'application/json' }
  return s
}

function pathValue (r: Rand, reals: Record<string, string[]>): string {
  const x = r()
  if (x < 0.2) return encode(pick(r, Object.values(reals).flat()))
  if (x < 0.45) return pick(r, RAW_SEGMENTS)
  if (x < 0.5) return 'x'.repeat(pick(r, [1025, 5000, 70_000]))
  return encode(pick(r, BAD_STRINGS))
}

/** The inject options of `shape`. */
function toInject (method: string, path: string, shape: Shape, tokens: Tokens): InjectOptions {
  const headers: Record<string, string> = { ...shape.headers }
  if (shape.auth === 'admin' || shape.auth === 'reader' || shape.auth === 'other') headers.authorization = `Bearer ${tokens[shape.auth]}`
  else if (shape.auth !== 'none') headers.authorization = shape.auth
  const url = shape.prefix + path.replace(/\{([^}]+)\}/g, (_, name: string) => shape.segments[name] ?? 'x') + (shape.query.length > 0 ? `?${shape.query.join('&')}` : '')
  if (shape.body === undefined) return { method: method.toUpperCase() as InjectOptions['method'], url, headers }
  if (shape.body.contentType !== undefined) headers['content-type'] = shape.body.contentType
  return { method: method.toUpperCase() as InjectOptions['method'], url, headers, payload: shape.body.payload }
}

const chance = (r: Rand, p: number): boolean => r() < p

const UPLOAD_ZONE = { properties: { name: 'up.test.', accountName: 'fuzz', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }

/** A bad body for `method path`: mutated JSON, broken JSON, another content type, too deep, too large, a bad upload. */
function body (r: Rand, method: string, path: string, op: Operation): { payload: string, contentType?: string } {
  const content = op.requestBody?.content ?? {}
  const json = content['application/json']?.schema
  const seed = seedOf(r, method, path, op)
  const x = r()
  if (content['multipart/form-data'] !== undefined && x < 0.3) return badUpload(r, mutateBody(r, newZone(r, UPLOAD_ZONE), json), ZONE_FILE)
  if (content['application/x-www-form-urlencoded'] !== undefined && x < 0.4) {
    const fields = mutateBody(r, seed, content['application/x-www-form-urlencoded']?.schema)
    const form = typeof fields === 'object' && fields !== null && !Array.isArray(fields)
      ? Object.entries(fields).map(([k, v]) => `${encode(k)}=${encode(typeof v === 'string' ? v : jsonText(v))}`).join('&')
      : pick(r, ['a=%zz', '&&&', '=', 'grant_type=password&grant_type=refresh_token', `username=${'x'.repeat(5000)}&grant_type=password&password=x`, 'grant_type=refresh_token&refresh_token=%00'])
    return { payload: form, contentType: 'application/x-www-form-urlencoded' }
  }
  if (method === 'patch' && PATCH_SEEDS[path] !== undefined && x < 0.5) {
    return { payload: jsonText(mutateBody(r, PATCH_SEEDS[path], content['application/json-patch+json']?.schema)), contentType: 'application/json-patch+json' }
  }
  if (x < 0.7) return { payload: jsonText(mutateBody(r, seed, json)), contentType: 'application/json' }
  if (x < 0.76) return { payload: pick(r, BAD_JSON_TEXTS), contentType: pick(r, ['application/json', 'application/json-patch+json']) }
  if (x < 0.82) return { payload: pick(r, [jsonText(seed), 'a=b', '<zone/>', '']), contentType: pick(r, BAD_CONTENT_TYPES) }
  if (x < 0.88) return { payload: deepText(pick(r, [100, 1000, 10_000]), pick(r, ['array', 'object'] as const)), contentType: 'application/json' }
  if (x < 0.94) return { payload: jsonText(Array.from({ length: pick(r, [101, 5000, 20_000]) }, () => (Array.isArray(seed) ? seed[0] : 1))), contentType: 'application/json' }
  if (x < 0.96) return { payload: jsonText({ ...(typeof seed === 'object' ? seed : {}), pad: 'x'.repeat(BODY_LIMIT) }), contentType: 'application/json' }
  return { payload: jsonText(mutateBody(r, seed, json)), contentType: pick(r, ['application/json; charset=utf-8', 'text/json']) }
}

const cut = (text: unknown, n = 400): string => {
  const s = typeof text === 'string' ? text : text === undefined ? '' : JSON.stringify(text)
  return s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: fuzz of every route of /openapi.json`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner | undefined
    let tokens: Tokens
    let taskId = ''
    let sent = 0
    let started = 0

    const as = async (method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
      await t.app.inject({ method, url, payload: payload as InjectOptions['payload'], headers: { authorization: `Bearer ${tokens.admin}` } })

    /** The real objects the fuzz aims at, made again when a request removed or changed them (deleted, suspended, converted, unaliased). */
    async function fixtures (): Promise<void> {
      const ok = async (name: string, type: string): Promise<boolean> => {
        const got = await as('GET', `/zones/${name}`)
        const properties = got.statusCode === 200 ? (got.json() as { properties: { type: string, status: string } }).properties : undefined
        if (properties?.type !== type) return false
        if (properties.status === 'SUSPENDED') {
          // Active again as support would make it (no API reverses a suspend); cheaper than making it anew.
          const accountIds = (await t.store.accounts.list()).map(a => a.id)
          const zone = await t.store.zones.findByName(zoneNameFrom(name), { accountIds })
          if (zone !== undefined) await t.store.zones.update(zone.id, { status: 'ACTIVE' })
          return zone !== undefined
        }
        return properties.status === 'ACTIVE'
      }
      const make = async (name: string, create: unknown): Promise<void> => {
        const gone = await as('DELETE', `/zones/${name}`)
        assert.ok(gone.statusCode === 204 || gone.statusCode === 404, gone.body)
        const res = await as('POST', '/zones', create)
        assert.equal(res.statusCode, 201, res.body)
      }
      const alias = { properties: { name: 'alias.test.', accountName: 'fuzz', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'fuzz.test.' } }
      if (!await ok('fuzz.test.', 'PRIMARY')) {
        assert.ok([204, 404].includes((await as('DELETE', '/zones/alias.test.')).statusCode))
        await make('fuzz.test.', { properties: { name: 'fuzz.test.', accountName: 'fuzz', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } })
        for (const [type, owner, rdata] of [['A', 'www', ['192.0.2.1']], ['MX', '@', ['10 mail.fuzz.test.']], ['TXT', 'txt', ['"hello"']], ['A', 'mail', ['192.0.2.25']]] as const) {
          const res = await as('POST', `/zones/fuzz.test./rrsets/${type}/${owner}`, { ttl: 300, rdata })
          assert.equal(res.statusCode, 201, res.body)
        }
        assert.ok((await as('POST', '/zones/fuzz.test./snapshot', {})).statusCode < 300)
      }
      if (!await ok('alias.test.', 'ALIAS')) await make('alias.test.', alias)
      if (!await ok('sec.test.', 'SECONDARY')) {
        await make('sec.test.', { properties: { name: 'sec.test.', accountName: 'fuzz', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '127.0.0.1:1' } } } } })
      }
      if (taskId === '' || (await as('GET', `/tasks/${taskId}`)).statusCode === 404) {
        const res = await as('POST', '/zones/export', { zoneNames: ['fuzz.test.'] })
        assert.equal(res.statusCode, 202, res.body)
        taskId = String(res.headers['x-task-id'])
        // Its result is there to be fetched (the runner does only local work: exports, uploads, snapshots).
        for (let code = ''; code !== 'COMPLETE';) {
          const task = await as('GET', `/tasks/${taskId}`)
          code = String((task.json() as { code?: unknown }).code)
          assert.ok(task.statusCode === 200 && code !== 'ERROR', task.body)
          if (code !== 'COMPLETE') await new Promise(resolve => setImmediate(resolve))
        }
      }
    }

    before(async () => {
      t = await buildTestApp(engine.name, { tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'fuzz', pollMs: 20 })) })
      runner?.start()
      tokens = {
        admin: await t.user('fuzzadmin', 'fuzz', 'Owner'),
        reader: await t.user('fuzzreader', 'fuzz', 'ReadOnly'),
        other: await t.user('fuzzother', 'other', 'Owner')
      }
      await fixtures()
      started = performance.now()
    })
    after(async () => {
      console.log(`# ${engine.name}: fuzz sent ${sent} requests in ${((performance.now() - started) / 1000).toFixed(1)} s (seed ${SEED})`)
      await runner?.stop()
      await t?.close()
    })

    it('answers every operation of /openapi.json with bad input without a 5xx, and every 4xx in the catalog shape', async (tc) => {
      const res = await t.app.inject({ method: 'GET', url: '/openapi.json' })
      assert.equal(res.statusCode, 200)
      const doc = res.json() as Doc
      const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method, path, op })))
      assert.ok(operations.length > 30, `${operations.length} operations`)
      for (const [index, { method, path, op }] of operations.entries()) {
        await tc.test(`${method.toUpperCase()} ${path}`, async () => {
          await fixtures()
          const r = prng(SEED + index * 7919)
          const reals = realValues(taskId)
          const shapes = [...sweep(r, method, path, op, reals), ...Array.from({ length: RANDOM_PER_OPERATION }, () => random(r, method, path, op, reals))]
          const failures: string[] = []
          // Operations whose success may suspend, convert, delete or unalias a fixture (the next requests then want it back).
          const changes = method !== 'get' && /^\/(zones\/\{zoneName\}(\/(suspend|convert|unalias|restore))?|tasks\/\{taskId\}|batch)$/.test(path)
          for (const [i, shape] of shapes.entries()) {
            const options = toInject(method, path, shape, tokens)
            const reply = await t.app.inject(options)
            sent++
            if (changes && reply.statusCode < 300) await fixtures()
            const why = broken(reply, path)
            if (why !== undefined) {
              const headers = options.headers as Record<string, string>
              failures.push(`#${i} ${why}: ${options.method} ${cut(options.url, 300)} [token ${shape.auth.slice(0, 20)}, content-type ${headers['content-type'] ?? '-'}] payload ${cut(JSON.stringify(options.payload ?? ''))}\n    → ${reply.statusCode} ${cut(reply.body)}`)
            }
          }
          const count = shapes.length
          // The 5xx first: they are the worst, and the message shows the first few of each route.
          failures.sort((a, b) => Number(b.includes(' status 5')) - Number(a.includes(' status 5')))
          assert.deepEqual(failures, [], `${method.toUpperCase()} ${path} (seed ${SEED}, operation ${index}): ${failures.length} of ${count} requests broke the rule:\n  ${failures.slice(0, 15).join('\n  ')}`)
        })
      }
    })

    it('answers the HTTP layer\'s own errors (too long, too many headers, broken request, no Host) below 500 in the catalog shape', async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 })
      const { port } = t.app.server.address() as { port: number }
      const cases: [string, string][] = [
        ['a URL longer than the header limit', `GET /zones/${'a'.repeat(70_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`],
        ['a path parameter longer than the router takes', `GET /zones/${'a'.repeat(2000)} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${tokens.admin}\r\nConnection: close\r\n\r\n`],
        ['headers larger than the limit', `GET /status HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`],
        ['a broken request line', 'GARBAGE\r\n\r\n'],
        ['no Host header on HTTP/1.1', 'GET /status HTTP/1.1\r\nConnection: close\r\n\r\n'],
        ['a Content-Length that is not a number', 'POST /zones HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}'],
        ['a broken chunk', 'POST /zones HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
        ['a header name with a space', 'GET /status HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n'],
        ['a bad escape in the path', 'GET /zones/%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n']
      ]
      const failures: string[] = []
      for (const [name, request] of cases) {
        const answer = await rawExchange(port, request)
        sent++
        const head = /^HTTP\/1\.1 (\d{3})/.exec(answer)
        const status = head === null ? 0 : Number(head[1])
        const bodyText = bodyOf(answer)
        const why = status === 0 ? 'no HTTP answer' : status >= 500 ? `status ${status}` : status >= 400 ? notCatalogShape(bodyText) : undefined
        if (why !== undefined) failures.push(`${name}: ${why} → ${cut(answer.split('\r\n')[0])} body ${cut(bodyText, 200)}`)
      }
      assert.deepEqual(failures, [], failures.join('\n'))
    })
  })
}
