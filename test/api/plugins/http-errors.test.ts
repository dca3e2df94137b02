/**
 * Every error the HTTP layer answers is in the catalog shape and repeats nothing of the request:
 * requests Node's parser refuses (sent over a real socket, which `inject` cannot do), the
 * router's own refusals, a method the path does not take, the token endpoint's 429, multipart
 * bodies that are not what an upload is (no boundary, too many parts, NUL characters), and
 * integers no database column holds. The store-backed cases run on both engines.
 */
import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, it } from 'node:test'
import { clientErrorOf, rawErrorResponse } from '../../../src/api/plugins/http-errors.ts'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { engineCases } from '../../helpers/engines.ts'
import { client } from '../../helpers/zones.ts'

interface RawResponse { status: number, headers: Record<string, string>, body: string }

/** Parse the first HTTP/1.1 response of `text` (Content-Length bodies only). */
function parseResponse (text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n')
  assert.ok(end > 0, `no complete response in ${JSON.stringify(text.slice(0, 200))}`)
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const length = Number(headers['content-length'] ?? 0)
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]), headers, body: text.slice(end + 4, end + 4 + length) }
}

/**
 * Write `data` on a new connection and read until one response is complete or the server closes
 * the connection.
 */
async function rawRequest (port: number, data: string): Promise<RawResponse> {
  return await new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let text = ''
    const done = (): void => {
      socket.destroy()
      try {
        resolve(parseResponse(text))
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)))
      }
    }
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1')
      const end = text.indexOf('\r\n\r\n')
      if (end < 0) return
      const head = text.slice(0, end)
      const length = /content-length: *(\d+)/i.exec(head)?.[1]
      // A response without Content-Length (Node's own empty answers) is complete with its head
      // or its last chunk.
      const complete = length !== undefined
        ? text.length >= end + 4 + Number(length)
        : !/transfer-encoding: *chunked/i.test(head) || text.endsWith('0\r\n\r\n')
      if (complete) done()
    })
    // The server may close while this side is still writing (431): what it answered is read first.
    socket.on('error', () => {})
    socket.on('close', done)
    socket.write(data)
  })
}

/** The body of a catalog error in list form. */
const list = (res: RawResponse | { body: string }): Array<{ errorCode: number, errorMessage: string }> => JSON.parse(res.body)

describe('HTTP-level errors in the catalog shape', () => {
  let t: TestApp
  let port: number
  before(async () => {
    t = await buildTestApp('sqlite')
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    port = (t.app.server.address() as net.AddressInfo).port
  })
  after(async () => await t?.close())

  it('answers a request line that is not HTTP with 400 53005, naming no part of it', async () => {
    const res = await rawRequest(port, 'GARBAGE-SECRET\r\n\r\n')
    assert.equal(res.status, 400)
    assert.equal(res.headers['content-type'], 'application/json')
    assert.deepEqual(list(res), [{ errorCode: 53005, errorMessage: 'Invalid input: the request is not valid HTTP (unknown method).' }])
  })

  it('answers a bad header and a bad chunked body with 400 53005 saying which, without the bytes', async () => {
    const header = await rawRequest(port, 'GET /v1/status HTTP/1.1\r\nHost: x\r\nBad Header-SECRET: y\r\n\r\n')
    assert.equal(header.status, 400)
    assert.deepEqual(list(header), [{ errorCode: 53005, errorMessage: 'Invalid input: the request is not valid HTTP (invalid header).' }])
    const chunked = await rawRequest(port, 'POST /v1/authorization/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nZZ-SECRET\r\nabc\r\n0\r\n\r\n')
    assert.equal(chunked.status, 400)
    assert.deepEqual(list(chunked), [{ errorCode: 53005, errorMessage: 'Invalid input: the request is not valid HTTP (invalid chunked encoding).' }])
  })

  it('answers a 20 KB URL with 414 in the catalog shape, without the URL', async () => {
    const res = await rawRequest(port, `GET /v1/zones?q=${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`)
    assert.equal(res.status, 414)
    assert.deepEqual(list(res), [{ errorCode: 414, errorMessage: 'Request URI is too long: the request line and headers take at most 16384 bytes.' }])
  })

  it('answers 100 KB of headers with 431 in the catalog shape, without the headers', async () => {
    const headers = Array.from({ length: 100 }, (_, i) => `X-Filler-${i}: ${'v'.repeat(1000)}\r\n`).join('')
    const res = await rawRequest(port, `GET /v1/status HTTP/1.1\r\nHost: x\r\n${headers}\r\n`)
    assert.equal(res.status, 431)
    assert.deepEqual(list(res), [{ errorCode: 431, errorMessage: 'Request header fields are larger than the limit of 16384 bytes.' }])
  })

  it('answers HTTP/1.1 without a Host header with 400 70001 (HTTP/1.0 needs none)', async () => {
    const res = await rawRequest(port, 'GET /v1/status HTTP/1.1\r\n\r\n')
    assert.equal(res.status, 400)
    assert.deepEqual(list(res), [{ errorCode: 70001, errorMessage: 'Header not found: Host (required in HTTP/1.1).' }])
    const old = await rawRequest(port, 'GET /v1/status HTTP/1.0\r\n\r\n')
    assert.equal(old.status, 200)
    assert.deepEqual(JSON.parse(old.body), { message: 'Good' })
  })

  it('answers an Expect other than 100-continue with 417 in the catalog shape', async () => {
    const res = await rawRequest(port, 'GET /v1/status HTTP/1.1\r\nHost: x\r\nExpect: teapot-SECRET\r\n\r\n')
    assert.equal(res.status, 417)
    assert.deepEqual(list(res), [{ errorCode: 417, errorMessage: 'Expectation Failed: only "Expect: 100-continue" is supported.' }])
  })

  it('answers a path parameter over 1024 characters with 414, and bad percent-encoding with 400, without the path', async () => {
    const long = await t.app.inject({ method: 'GET', url: `/v1/zones/${'a'.repeat(2000)}-SECRET` })
    assert.equal(long.statusCode, 414)
    assert.deepEqual(list(long), [{ errorCode: 414, errorMessage: 'Request URI is too long: a path segment takes at most 1024 characters.' }])
    const bad = await t.app.inject({ method: 'GET', url: '/v1/zones/%zz-SECRET' })
    assert.equal(bad.statusCode, 400)
    assert.deepEqual(list(bad), [{ errorCode: 53005, errorMessage: 'Invalid input: the request is not valid HTTP (the path is not valid percent-encoding).' }])
  })

  it('answers a method the path does not take with 405 240003 and Allow; an unknown path stays 404', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/v1/status' })
    assert.equal(res.statusCode, 405)
    assert.equal(res.headers.allow, 'GET, HEAD')
    assert.deepEqual(list(res), [{ errorCode: 240003, errorMessage: 'Invalid HTTP Method: This endpoint does not allow the specified method.' }])
    const token = await t.app.inject({ method: 'GET', url: '/v1/authorization/token' })
    assert.equal(token.statusCode, 405)
    assert.equal(token.headers.allow, 'POST')
    assert.deepEqual(list(await t.app.inject({ method: 'PATCH', url: '/v1/no/such/path' })), [{ errorCode: 404, errorMessage: 'Status Code 404' }])
  })

  it('bounds every integer of every request in the OpenAPI document (one rule for all routes)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    const unbounded: string[] = []
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return
      const schema = node as Record<string, unknown>
      if (schema.type === 'integer' && (typeof schema.maximum !== 'number' || typeof schema.minimum !== 'number')) unbounded.push(at)
      for (const [key, value] of Object.entries(schema)) walk(value, `${at}/${key}`)
    }
    let integers = 0
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: unknown[], requestBody?: unknown }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        walk(op.parameters, `${method} ${path} parameters`)
        walk(op.requestBody, `${method} ${path} requestBody`)
        integers += JSON.stringify([op.parameters, op.requestBody]).split('"integer"').length - 1
      }
    }
    assert.ok(integers > 5, `only ${integers} integers found`)
    assert.deepEqual(unbounded, [])
  })

  it('maps a request timeout to 408 and writes raw answers as complete HTTP responses', () => {
    const timeout = clientErrorOf(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }))
    const res = parseResponse(rawErrorResponse(timeout))
    assert.equal(res.status, 408)
    assert.equal(res.headers.connection, 'close')
    assert.deepEqual(list(res), [{ errorCode: 408, errorMessage: 'The request was not received in time.' }])
  })

  it('tells a request line over the limit (414) from headers over it (431) by the bytes the parser stopped in', () => {
    const overflow = (packet: string) => clientErrorOf(Object.assign(new Error('Header overflow'), { code: 'HPE_HEADER_OVERFLOW', rawPacket: Buffer.from(packet), bytesParsed: packet.length })).status
    assert.equal(overflow(`GET /v1/zones?q=${'a'.repeat(100)}`), 414)
    assert.equal(overflow(`GET /v1/zones HTTP/1.1\r\nX-Filler: ${'v'.repeat(100)}`), 431)
    // A URL that arrives over several reads and overflows in a later one: 431, as documented.
    assert.equal(overflow('a'.repeat(100)), 431)
  })
})

describe('the token endpoint answers every error as one object', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite', { rateLimitMax: 2 }) })
  after(async () => await t?.close())

  it('answers its 429 as an object with Retry-After (other routes keep the list)', async () => {
    const ask = async () => await t.app.inject({ method: 'POST', url: '/v1/authorization/token', payload: 'grant_type=bogus', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    for (let i = 0; i < 2; i++) assert.equal((await ask()).statusCode, 400)
    const res = await ask()
    assert.equal(res.statusCode, 429, res.body)
    assert.deepEqual(res.json(), { errorCode: 340001, errorMessage: 'Too many requests.' })
    assert.match(String(res.headers['retry-after']), /^\d+$/)
    const status = await t.app.inject({ method: 'GET', url: '/v1/status' })
    assert.equal(status.statusCode, 429)
    assert.deepEqual(status.json(), [{ errorCode: 340001, errorMessage: 'Too many requests.' }])
  })
})

const ZONE_FILE = '$TTL 300\n@ IN SOA ns1 hostmaster 2024010101 3600 900 604800 300\n@ IN NS ns1\nns1 IN A 192.0.2.1\nwww IN A 192.0.2.80\n'
const zoneJson = (name: string): string => JSON.stringify({ properties: { name, accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { forceImport: true, createType: 'UPLOAD' } })

/** One multipart part: Content-Disposition parameters, Content-Type, content. */
interface Part { disposition: string, type?: string, content: string }

/** A multipart body as the Python client (requests) lays it out: a hex boundary, CRLF line ends. */
function multipart (parts: Part[], boundary = '8f3c2a9e1d6b4f70a5c3e2d1b0a98765'): string {
  let body = ''
  for (const p of parts) {
    body += `--${boundary}\r\nContent-Disposition: form-data; ${p.disposition}\r\n`
    if (p.type !== undefined) body += `Content-Type: ${p.type}\r\n`
    body += `\r\n${p.content}\r\n`
  }
  return body + `--${boundary}--\r\n`
}

/** The Python client's two parts: `zone` (filename "", application/json) and `file`. */
const pythonParts = (name: string, file = ZONE_FILE, filename = 'file'): Part[] => [
  { disposition: 'name="zone"; filename=""', type: 'application/json', content: zoneJson(name) },
  { disposition: `name="file"; filename="${filename}"`, type: 'application/octet-stream', content: file }
]

for (const engine of await engineCases()) {
  describe(`${engine.name}: multipart bodies and integer limits`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: ReturnType<typeof client>
    before(async () => {
      t = await buildTestApp(engine.name)
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
    })
    after(async () => await t?.close())

    const upload = async (body: string, contentType = 'multipart/form-data; boundary=8f3c2a9e1d6b4f70a5c3e2d1b0a98765') =>
      await alice.send('POST', '/v1/zones', body, { 'content-type': contentType })
    const exists = async (name: string): Promise<boolean> => (await alice.get(`/v1/zones/${name}`)).statusCode === 200

    it('answers multipart/form-data without a boundary with 400 53005', async () => {
      const res = await upload(multipart(pythonParts('noboundary.test')), 'multipart/form-data')
      assert.equal(res.statusCode, 400, res.body)
      assert.deepEqual(res.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: the request body is not valid multipart/form-data (no boundary).' }])
      assert.equal(await exists('noboundary.test'), false)
    })

    it('answers an upload of more than 4 parts with 400 53005 saying it is a count of parts, not a size', async () => {
      const extra = Array.from({ length: 3 }, (_, i) => ({ disposition: `name="extra${i}"`, content: 'x' }))
      const res = await upload(multipart([...pythonParts('manyparts.test'), ...extra]))
      assert.equal(res.statusCode, 400, res.body)
      assert.deepEqual(res.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: a multipart request takes at most 4 parts (a zone upload is a zone part and a file part).' }])
      assert.equal(await exists('manyparts.test'), false)
    })

    it('answers a NUL character in the zone part, a file name or the zone file with 400, naming where', async () => {
      const inZone = multipart([{ ...pythonParts('nul.test')[0]!, content: zoneJson('nul\u0000.test') }, pythonParts('nul.test')[1]!])
      assert.deepEqual((await upload(inZone)).json(), [{ errorCode: 53005, errorMessage: 'Invalid input: properties.name contains a NUL character' }])
      const inName = await upload(multipart(pythonParts('nul.test', ZONE_FILE, 'zone\u0000.txt')))
      assert.deepEqual(inName.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: the file name of file contains a NUL character' }])
      // A TXT string with a raw NUL was stored on SQLite and a 500 on PostgreSQL.
      const inFile = await upload(multipart(pythonParts('nul.test', ZONE_FILE.replace('www IN A 192.0.2.80', 'www IN TXT "a\u0000b"'))))
      assert.equal(inFile.statusCode, 400, inFile.body)
      assert.deepEqual(inFile.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: file contains a NUL character at line 5; write a zero byte as \\000' }])
      const inField = await upload(multipart([pythonParts('nul.test')[0]!, { disposition: 'name="file"', content: 'w\u0000w IN A 192.0.2.1\n' }]))
      assert.deepEqual(inField.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: file contains a NUL character at line 1; write a zero byte as \\000' }])
      assert.equal(await exists('nul.test'), false)
    })

    it('holds a plain field part to the body limit, as a file part (413, not a field cut short)', async () => {
      const big = ZONE_FILE + Array.from({ length: 3000 }, (_, i) => `h${i} IN A 192.0.2.${i % 250}\n`).join('')
      assert.ok(big.length > 64 * 1024)
      const res = await upload(multipart([{ disposition: 'name="zone"', content: zoneJson('bigfield.test') }, { disposition: 'name="file"', content: big }]))
      assert.equal(res.statusCode, 413, res.body)
      assert.deepEqual(res.json(), [{ errorCode: 413, errorMessage: 'Request body is larger than the limit of 65536 bytes.' }])
      assert.equal(await exists('bigfield.test'), false)
    })

    it('answers integers beyond 2^53 in a query with 400 53005 naming the field, on every paged list', async () => {
      const huge = '99999999999999999999999'
      for (const url of [`/v1/tasks?offset=${huge}`, `/v1/tasks?limit=${huge}`, `/v1/tasks?offset=-${huge}`]) {
        const res = await alice.get(url)
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`)
        assert.equal(res.json()[0].errorCode, 53005, url)
        assert.match(res.json()[0].errorMessage, /^Invalid input: querystring\.(offset|limit) must be [<>]=/, url)
      }
      assert.equal((await alice.get('/v1/tasks?offset=9007199254740991')).statusCode, 200)
    })

    it('answers numbers that are not finite (Infinity, 1e400) in a query or a JSON body with 400 53005', async () => {
      for (const url of ['/v1/tasks?offset=Infinity', '/v1/tasks?limit=1e400', '/v1/tasks?offset=-Infinity']) {
        const res = await alice.get(url)
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`)
        assert.match(res.json()[0].errorMessage, /^Invalid input: querystring\.(offset|limit) must be a finite number$/, url)
      }
      // JSON's 1e400 parses to Infinity.
      const res = await alice.send('POST', '/v1/zones/a.test./rrsets/A/www', '{"ttl":1e400,"rdata":["192.0.2.1"]}', { 'content-type': 'application/json' })
      assert.equal(res.statusCode, 400, res.body)
      assert.equal(res.json()[0].errorCode, 53005)
      const batch = await alice.send('POST', '/v1/batch', '[{"method":"GET","uri":"/v1/tasks?limit=1e400"}]', { 'content-type': 'application/json' })
      assert.ok(batch.statusCode < 500, batch.body)
    })
  })
}
