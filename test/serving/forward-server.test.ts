import assert from 'node:assert/strict'
import { execFile, execFileSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { connect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import type { WebForward } from '../../src/forwards/model.ts'
import { ForwardTable } from '../../src/forwards/table.ts'
import { startForwardServer, type ForwardServer } from '../../src/serving/forward-server.ts'

function forward (id: string, host: string, fields: Partial<WebForward> = {}): WebForward {
  return { id, zone: 'example.org.', host, path: '', anchor: '', redirectTo: `https://target.example.net/${id}`, mode: 301, relative: 'none', alternatives: [], ...fields }
}

function filledTable (): ForwardTable {
  const table = new ForwardTable()
  table.setZone('example.org.', [
    forward('ROOT', 'www.example.org', { relative: 'parameterAndPath', redirectTo: 'https://target.example.net/base/?k=v' }),
    forward('DOCS', 'www.example.org', { path: '/docs', mode: 302, relative: 'path', redirectTo: 'target.example.net/manual' }),
    forward('FRAMED', 'framed.example.org', { mode: 'framed', redirectTo: 'https://shop.example.net/' }),
    forward('ADV', 'adv.example.org', {
      mode: 307,
      alternatives: [{ priority: 1, redirectTo: 'https://kb.example.net/', mode: 303, rules: [{ header: 'Accept', match: 'contains', value: 'kb', caseInsensitive: false }] }]
    }),
    forward('WILD', 'tls.example.net', { redirectTo: 'https://target.example.net/tls' })
  ])
  return table
}

interface Answer { status: number, headers: IncomingHttpHeaders, body: string }

async function get (port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<Answer> {
  const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent: false })
  req.end()
  const [res] = await once(req, 'response') as [import('node:http').IncomingMessage]
  let body = ''
  res.setEncoding('utf8')
  for await (const chunk of res) body += chunk as string
  return { status: res.statusCode!, headers: res.headers, body }
}

/** Writes raw bytes on a new connection and reads until the server closes it. */
async function raw (port: number, bytes: string | Buffer): Promise<string> {
  const socket = connect(port, '127.0.0.1')
  await once(socket, 'connect')
  socket.write(bytes)
  let text = ''
  socket.setEncoding('latin1')
  socket.on('data', (d: string) => { text += d })
  await once(socket, 'close')
  return text
}

describe('forwarding server over HTTP', () => {
  let server: ForwardServer

  before(async () => {
    server = await startForwardServer({ table: filledTable(), host: '127.0.0.1', port: 0 })
  })
  after(async () => { await server?.close() })

  it('redirects by the Host header, the path and the query', async () => {
    const a = await get(server.httpPort, '/a/b?x=1', { host: 'www.example.org' })
    assert.equal(a.status, 301)
    assert.equal(a.headers.location, 'https://target.example.net/base/a/b?k=v&x=1')
    assert.equal(a.body, '')
    const b = await get(server.httpPort, '/docs/intro?x=1', { host: 'WWW.Example.ORG:8080' })
    assert.equal(b.status, 302)
    assert.equal(b.headers.location, 'http://target.example.net/manual/intro')
  })

  it('chooses an advanced record by the request\'s headers', async () => {
    assert.deepEqual(await get(server.httpPort, '/', { host: 'adv.example.org', accept: 'text/kb' }).then(r => [r.status, r.headers.location]), [303, 'https://kb.example.net/'])
    assert.deepEqual(await get(server.httpPort, '/', { host: 'adv.example.org', accept: 'text/html' }).then(r => [r.status, r.headers.location]), [307, 'https://target.example.net/ADV'])
  })

  it('answers a framed forward with the page framing the target', async () => {
    const r = await get(server.httpPort, '/', { host: 'framed.example.org' })
    assert.equal(r.status, 200)
    assert.match(r.body, /<iframe src="https:\/\/shop\.example\.net\/"/)
    assert.match(String(r.headers['content-security-policy']), /frame-src https:\/\/shop\.example\.net(;|$)/)
    const head = await get(server.httpPort, '/', { host: 'framed.example.org' }, 'HEAD')
    assert.equal(head.status, 200)
    assert.equal(head.body, '')
    assert.equal(head.headers['content-length'], String(Buffer.byteLength(r.body)))
  })

  it('answers 404 for a host with no forward, showing nothing of the request', async () => {
    const r = await get(server.httpPort, '/', { host: 'nothing-here.example.org' })
    assert.equal(r.status, 404)
    assert.doesNotMatch(r.body, /nothing-here/)
    const evil = await raw(server.httpPort, 'GET / HTTP/1.1\r\nHost: <script>x</script>\r\nConnection: close\r\n\r\n')
    assert.match(evil, /^HTTP\/1\.1 (400|404) /)
    assert.doesNotMatch(evil, /<script>/)
  })

  it('redirects every method, and closes the connection after a request with a body, unread', async () => {
    const text = await raw(server.httpPort, 'POST /a HTTP/1.1\r\nHost: www.example.org\r\nContent-Length: 100000\r\n\r\npartial body')
    assert.match(text, /^HTTP\/1\.1 301 Moved Permanently\r\n/)
    assert.match(text, /\r\nlocation: https:\/\/target\.example\.net\/base\/a\?k=v\r\n/i)
    assert.match(text, /\r\nconnection: close\r\n/i)
  })

  it('takes the host from a request in absolute form', async () => {
    const text = await raw(server.httpPort, 'GET http://www.example.org/a?x=1 HTTP/1.1\r\nHost: other.example.org\r\nConnection: close\r\n\r\n')
    assert.match(text, /\r\nlocation: https:\/\/target\.example\.net\/base\/a\?k=v&x=1\r\n/i)
  })

  it('carries the path over with what a Location may not hold percent-encoded; refuses raw non-ASCII bytes', async () => {
    const text = await raw(server.httpPort, 'GET /a"b<c>{|}^`\\/caf%C3%A9 HTTP/1.1\r\nHost: www.example.org\r\nConnection: close\r\n\r\n')
    assert.match(text, /\r\nlocation: https:\/\/target\.example\.net\/base\/a%22b%3Cc%3E%7B%7C%7D%5E%60%5C\/caf%C3%A9\?k=v\r\n/i)
    const bytes = await raw(server.httpPort, Buffer.concat([Buffer.from('GET /caf'), Buffer.from('é', 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: www.example.org\r\nConnection: close\r\n\r\n')]))
    assert.match(bytes, /^HTTP\/1\.1 400 /)
  })

  it('answers 400 to a malformed request and to HTTP/1.1 without Host', async () => {
    assert.match(await raw(server.httpPort, 'THIS IS NOT HTTP\r\n\r\n'), /^HTTP\/1\.1 400 /)
    assert.match(await raw(server.httpPort, 'GET / HTTP/1.1\r\n\r\n'), /^HTTP\/1\.1 400 /)
    assert.match(await raw(server.httpPort, 'GET * HTTP/1.1\r\nHost: www.example.org\r\n\r\n'), /^HTTP\/1\.1 400 /)
  })

  it('answers 431 to headers over the size limit', async () => {
    assert.match(await raw(server.httpPort, `GET / HTTP/1.1\r\nHost: www.example.org\r\nX-Big: ${'a'.repeat(10_000)}\r\n\r\n`), /^HTTP\/1\.1 431 /)
  })

  it('answers curl with the same redirect', async () => {
    const { stdout } = await promisify(execFile)('curl', ['-sS', '-o', '/dev/null', '-D', '-', '-H', 'Host: www.example.org', `http://127.0.0.1:${server.httpPort}/x/y?z=1`])
    assert.match(stdout, /^HTTP\/1\.1 301 /)
    assert.match(stdout, /\r\nlocation: https:\/\/target\.example\.net\/base\/x\/y\?k=v&z=1\r\n/i)
  })
})

describe('forwarding server limits', () => {
  let server: ForwardServer

  before(async () => {
    server = await startForwardServer({ table: filledTable(), host: '127.0.0.1', port: 0, limits: { headersTimeoutMs: 300, requestTimeoutMs: 300, checkIntervalMs: 50, maxConnections: 2 } })
  })
  after(async () => { await server?.close() })

  // The time limit only guards against the default limits (60 s for headers): no figure is asserted.
  it('closes a connection whose headers never end (slowloris)', { timeout: 30_000 }, async () => {
    const socket = connect(server.httpPort, '127.0.0.1')
    await once(socket, 'connect')
    socket.write('GET / HTTP/1.1\r\nHost: www.example.org\r\nX-Slow: a')
    let text = ''
    socket.setEncoding('latin1')
    socket.on('data', (d: string) => { text += d })
    // Trickle a byte at a time: the headers never end, so only the timeout ends the connection.
    const trickle = setInterval(() => { if (!socket.destroyed) socket.write('a') }, 20)
    await once(socket, 'close')
    clearInterval(trickle)
    assert.match(text, /^HTTP\/1\.1 408 /)
  })

  it('closes connections over the limit at once', async () => {
    const open = [connect(server.httpPort, '127.0.0.1'), connect(server.httpPort, '127.0.0.1')]
    for (const s of open) {
      // An answered request proves the server took the connection in.
      s.write('GET / HTTP/1.1\r\nHost: www.example.org\r\n\r\n')
      await once(s, 'data')
    }
    const third = connect(server.httpPort, '127.0.0.1')
    let got = ''
    third.on('data', (d: Buffer) => { got += d.toString() })
    third.on('error', () => {})
    third.write('GET / HTTP/1.1\r\nHost: www.example.org\r\n\r\n')
    await once(third, 'close')
    assert.equal(got, '')
    for (const s of open) s.destroy()
  })
})

describe('forwarding server over HTTPS (SNI)', () => {
  let dir: string
  let server: ForwardServer
  let warnings: string[]
  const certs: Record<string, string> = {}

  function selfSigned (certFile: string, keyFile: string, cn: string, sans: string[]): void {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', `/CN=${cn}`, '-addext', `subjectAltName=${sans.map(n => `DNS:${n}`).join(',')}`], { stdio: 'ignore' })
  }

  /** A certificate valid only on 2020-01-01 (openssl ca is the one command that sets the dates). */
  function expired (certFile: string, keyFile: string, cn: string): void {
    const ca = mkdtempSync(join(tmpdir(), 'zonal-forward-ca-'))
    try {
      writeFileSync(join(ca, 'ca.cnf'), '[ca]\ndefault_ca=d\n[d]\ndatabase=index.txt\nnew_certs_dir=.\nserial=serial\ndefault_md=sha256\npolicy=p\nunique_subject=no\n[p]\ncommonName=supplied\n')
      writeFileSync(join(ca, 'index.txt'), '')
      writeFileSync(join(ca, 'serial'), '01\n')
      execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', join(ca, 'r.csr'), '-subj', `/CN=${cn}`], { stdio: 'ignore' })
      execFileSync('openssl', ['ca', '-batch', '-config', 'ca.cnf', '-selfsign', '-keyfile', keyFile, '-in', 'r.csr', '-out', certFile, '-startdate', '20200101000000Z', '-enddate', '20200102000000Z', '-notext'], { cwd: ca, stdio: 'ignore' })
    } finally {
      rmSync(ca, { recursive: true, force: true })
    }
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zonal-forward-tls-'))
    // `<name>.crt` + `<name>.key`
    selfSigned(join(dir, 'www.crt'), join(dir, 'www.key'), 'www.example.org', ['www.example.org', 'framed.example.org'])
    // certbot's layout, a wildcard
    mkdirSync(join(dir, 'example.net'))
    selfSigned(join(dir, 'example.net', 'fullchain.pem'), join(dir, 'example.net', 'privkey.pem'), '*.example.net', ['*.example.net'])
    // a certificate with another certificate's key: left out
    selfSigned(join(dir, 'other.crt'), join(dir, 'unused.key'), 'adv.example.org', ['adv.example.org'])
    execFileSync('cp', [join(dir, 'www.key'), join(dir, 'other.key')])
    expired(join(dir, 'old.crt'), join(dir, 'old.key'), 'old.example.org')
    certs.www = readFileSync(join(dir, 'www.crt'), 'utf8')
    certs.wild = readFileSync(join(dir, 'example.net', 'fullchain.pem'), 'utf8')
    certs.other = readFileSync(join(dir, 'other.crt'), 'utf8')
    certs.old = readFileSync(join(dir, 'old.crt'), 'utf8')
    warnings = []
    server = await startForwardServer({
      table: filledTable(),
      host: '127.0.0.1',
      port: 0,
      httpsPort: 0,
      certDir: dir,
      log: { info: () => {}, warn: (_obj, msg) => { warnings.push(msg) } }
    })
  })
  after(async () => {
    await server?.close()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  async function tlsGet (servername: string, ca: string, path = '/'): Promise<Answer> {
    return await tlsGetOn(server.httpsPort!, servername, ca, path)
  }

  async function tlsGetOn (port: number, servername: string, ca: string, path = '/'): Promise<Answer> {
    const req = httpsRequest({ host: '127.0.0.1', port, path, servername, ca, headers: { host: servername }, agent: false })
    req.end()
    const [res] = await once(req, 'response') as [import('node:http').IncomingMessage]
    let body = ''
    for await (const chunk of res) body += String(chunk)
    return { status: res.statusCode!, headers: res.headers, body }
  }

  it('listens on HTTPS beside HTTP', () => {
    assert.ok(server.httpsPort !== undefined && server.httpsPort > 0)
    assert.notEqual(server.httpsPort, server.httpPort)
  })

  it('answers each name with its certificate, the wildcard too', async () => {
    const a = await tlsGet('www.example.org', certs.www!, '/a?x=1')
    assert.equal(a.status, 301)
    assert.equal(a.headers.location, 'https://target.example.net/base/a?k=v&x=1')
    const b = await tlsGet('framed.example.org', certs.www!)
    assert.equal(b.status, 200)
    const c = await tlsGet('tls.example.net', certs.wild!)
    assert.equal(c.headers.location, 'https://target.example.net/tls')
  })

  it('refuses a name no certificate holds, and leaves out a certificate without its key or expired', async () => {
    await assert.rejects(tlsGet('nothing.example.org', certs.www!))
    await assert.rejects(tlsGet('adv.example.org', certs.other!))
    // A wildcard covers one label.
    await assert.rejects(tlsGet('a.tls.example.net', certs.wild!))
    // No SNI at all (a client connecting by address): refused too.
    const socket = tlsConnect({ host: '127.0.0.1', port: server.httpsPort!, rejectUnauthorized: false })
    // once() rejects when the socket emits 'error' first.
    const outcome = await once(socket, 'secureConnect').then(() => 'connected', () => 'refused')
    socket.destroy()
    assert.equal(outcome, 'refused')
    assert.ok(warnings.some(w => /key is not the certificate/.test(w)), warnings.join('\n'))
    // An expired certificate is left out.
    await assert.rejects(tlsGet('old.example.org', certs.old!))
    assert.ok(warnings.some(w => /has expired/.test(w)), warnings.join('\n'))
  })

  it('takes in a certificate added to the folder when it reads the folder again', async () => {
    await assert.rejects(tlsGet('late.example.org', certs.www!))
    selfSigned(join(dir, 'late.crt'), join(dir, 'late.key'), 'late.example.org', ['late.example.org'])
    server.reloadCertificates()
    const r = await tlsGet('late.example.org', readFileSync(join(dir, 'late.crt'), 'utf8'))
    assert.equal(r.status, 404)
  })

  it('starts HTTPS at the first reading of the folder that finds a certificate, and keeps it when they go', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'zonal-forward-tls-empty-'))
    const infos: string[] = []
    const s = await startForwardServer({ table: filledTable(), host: '127.0.0.1', port: 0, httpsPort: 0, certDir: empty, log: { info: (_obj, msg) => { infos.push(msg) }, warn: () => {} } })
    try {
      assert.equal(s.httpsPort, undefined)
      assert.equal((await get(s.httpPort, '/', { host: 'www.example.org' })).status, 301)
      // A reading that finds nothing starts nothing.
      await s.reloadCertificates()
      assert.equal(s.httpsPort, undefined)
      selfSigned(join(empty, 'www.crt'), join(empty, 'www.key'), 'www.example.org', ['www.example.org'])
      await s.reloadCertificates()
      const port = s.httpsPort
      assert.ok(port !== undefined && port > 0 && port !== s.httpPort)
      assert.ok(infos.some(m => /HTTPS listening/.test(m)), infos.join('\n'))
      const cert = readFileSync(join(empty, 'www.crt'), 'utf8')
      const r = await tlsGetOn(port, 'www.example.org', cert, '/a?x=1')
      assert.equal(r.status, 301)
      assert.equal(r.headers.location, 'https://target.example.net/base/a?k=v&x=1')
      // The certificate removed: the listener stays on its port, the name is refused in the handshake.
      rmSync(join(empty, 'www.crt'))
      await s.reloadCertificates()
      assert.equal(s.httpsPort, port)
      await assert.rejects(tlsGetOn(port, 'www.example.org', cert))
    } finally {
      await s.close()
      rmSync(empty, { recursive: true, force: true })
    }
  })

  it('limits the connections of one client over HTTP and HTTPS together, closing the extra one unanswered', { timeout: 60_000 }, async () => {
    const s = await startForwardServer({ table: filledTable(), host: '127.0.0.1', port: 0, httpsPort: 0, certDir: dir, limits: { maxPerClient: 3 } })
    const sockets: Socket[] = []
    /** Sends a request on an open connection and resolves with the first bytes of the answer. */
    const ask = async (socket: Socket): Promise<string> => {
      socket.write('GET / HTTP/1.1\r\nHost: www.example.org\r\n\r\n')
      const [data] = await once(socket, 'data') as [Buffer]
      return data.toString('latin1')
    }
    const plain = async (): Promise<Socket> => {
      const socket = connect(s.httpPort, '127.0.0.1')
      socket.on('error', () => {})
      sockets.push(socket)
      await once(socket, 'connect')
      return socket
    }
    /** Whether a new HTTP connection is answered (true) or closed without a byte (false). */
    const admitted = async (): Promise<boolean> => {
      const socket = await plain()
      let got = ''
      socket.on('data', (d: Buffer) => { got += d.toString('latin1') })
      socket.write('GET / HTTP/1.1\r\nHost: www.example.org\r\nConnection: close\r\n\r\n')
      await once(socket, 'close')
      return got !== ''
    }
    try {
      const a = await plain()
      const b = await plain()
      const secure = tlsConnect({ host: '127.0.0.1', port: s.httpsPort!, servername: 'www.example.org', ca: certs.www! })
      secure.on('error', () => {})
      sockets.push(secure)
      await once(secure, 'secureConnect')
      // Answered requests prove the server counts all three.
      for (const socket of [a, b, secure]) assert.match(await ask(socket), /^HTTP\/1\.1 301 /)
      // The fourth, over HTTP, is closed without an answer; over HTTPS, without a handshake.
      assert.equal(await admitted(), false)
      const extra = tlsConnect({ host: '127.0.0.1', port: s.httpsPort!, servername: 'www.example.org', ca: certs.www! })
      sockets.push(extra)
      assert.equal(await once(extra, 'secureConnect').then(() => 'connected', () => 'refused'), 'refused')
      // The three still work.
      for (const socket of [a, b, secure]) assert.match(await ask(socket), /^HTTP\/1\.1 301 /)
      // Once the server has seen the TLS connection close, its place is free again: a new
      // connection is tried until one is answered (each try waits for its answer or its close;
      // a refused try never counts), and kept open. Then the limit holds again.
      secure.destroy()
      let c: Socket | undefined
      for (let i = 0; i < 1000 && c === undefined; i++) {
        const socket = await plain()
        const answer = await Promise.race([ask(socket), once(socket, 'close').then(() => '')])
        if (answer !== '') c = socket
      }
      assert.ok(c !== undefined, 'no connection taken in after one closed')
      assert.match(await ask(c), /^HTTP\/1\.1 301 /)
      assert.equal(await admitted(), false)
    } finally {
      for (const socket of sockets) socket.destroy()
      await s.close()
    }
  })
})
