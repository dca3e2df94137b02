/**
 * The probe checks (src/traffic/checks/) against real targets on loopback started by the test:
 * HTTP servers that answer, fail, answer wrongly, redirect and hang; TCP listeners open and
 * closed; a DNS responder that answers, answers SERVFAIL, answers the failure response and
 * hangs; SMTP and FTP servers that greet and refuse. A hanging target costs one timeout.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { runCheck, type HttpTransaction } from '../../src/traffic/checks/index.ts'
import { bodyMatches, statusPasses } from '../../src/traffic/checks/http.ts'
import { closedPort, DnsTarget, HttpTarget, lineServer, TcpTarget } from '../helpers/loopback-targets.ts'

const HOST = '127.0.0.2'

function transaction (port: number, extra: Partial<HttpTransaction> = {}): HttpTransaction {
  return { method: 'GET', url: `http://www.example.org:${port}/health?x=1`, transmittedData: '', followRedirects: false, expectedResponse: '2XX', searchString: 'healthy', connectMs: 2000, runMs: 2000, ...extra }
}

describe('HTTP check', () => {
  let target: HttpTarget
  before(async () => { target = await new HttpTarget(HOST).start() })
  after(async () => { await target.stop() })

  it('passes when the record answers an expected status holding the search string, sent to the record with the URL\'s host', async () => {
    target.mode = 'up'
    const out = await runCheck({ kind: 'HTTP', transactions: [transaction(target.port)], headers: { 'X-Probe': ['a', 'b'] }, totalMs: 5000 }, { address: HOST })
    assert.equal(out.ok, true, out.message)
    const req = target.requests.at(-1)!
    assert.deepEqual([req.method, req.url, req.host], ['GET', '/health?x=1', `www.example.org:${target.port}`])
  })

  it('fails on an unexpected status, and passes when the status is listed', async () => {
    target.mode = 'error'
    const failed = await runCheck({ kind: 'HTTP', transactions: [transaction(target.port)], headers: {}, totalMs: 5000 }, { address: HOST })
    assert.equal(failed.ok, false)
    assert.match(failed.message, /status 500, expected 2XX/)
    const listed = await runCheck({ kind: 'HTTP', transactions: [transaction(target.port, { expectedResponse: '200|500', searchString: '' })], headers: {}, totalMs: 5000 }, { address: HOST })
    assert.equal(listed.ok, true, listed.message)
  })

  it('fails when the body lacks the search string (tried as text, then as a regular expression)', async () => {
    target.mode = 'wrong-body'
    const out = await runCheck({ kind: 'HTTP', transactions: [transaction(target.port)], headers: {}, totalMs: 5000 }, { address: HOST })
    assert.equal(out.ok, false)
    assert.match(out.message, /search string/)
    assert.equal(bodyMatches('status: healthy', 'heal.hy'), true)
    assert.equal(bodyMatches('x', '('), false)
  })

  it('sends POST data, and follows a redirect to the same host when asked', async () => {
    target.mode = 'redirect'
    const out = await runCheck({ kind: 'HTTP', transactions: [transaction(target.port, { method: 'POST', transmittedData: 'a=1', followRedirects: true })], headers: {}, totalMs: 5000 }, { address: HOST })
    assert.equal(out.ok, true, out.message)
    assert.deepEqual(target.requests.slice(-2).map(r => [r.method, r.url, r.body]), [['POST', '/health?x=1', 'a=1'], ['GET', '/moved', '']])
    const unfollowed = await runCheck({ kind: 'HTTP', transactions: [transaction(target.port)], headers: {}, totalMs: 5000 }, { address: HOST })
    assert.equal(unfollowed.ok, false)
    assert.match(unfollowed.message, /status 302/)
  })

  it('fails after one timeout when the target hangs', async () => {
    target.mode = 'hang'
    const out = await runCheck({ kind: 'HTTP', transactions: [transaction(target.port, { runMs: 300 })], headers: {}, totalMs: 5000 }, { address: HOST })
    assert.equal(out.ok, false)
    assert.match(out.message, /timed out/)
    assert.ok(out.durationMs >= 250 && out.durationMs < 3000, `took ${out.durationMs} ms`)
  })

  it('fails when nothing listens', async () => {
    const port = await closedPort(HOST)
    const out = await runCheck({ kind: 'HTTP', transactions: [transaction(port)], headers: {}, totalMs: 5000 }, { address: HOST })
    assert.equal(out.ok, false)
    assert.match(out.message, /ECONNREFUSED/)
  })

  it('reads expected responses as the real API writes them', () => {
    assert.equal(statusPasses(204, '2XX'), true)
    assert.equal(statusPasses(301, '2XX|3XX'), true)
    assert.equal(statusPasses(404, '201|404'), true)
    assert.equal(statusPasses(200, '201|302'), false)
  })
})

describe('TCP check', () => {
  it('passes when the port accepts, fails when it is closed', async () => {
    const target = await new TcpTarget(HOST).start()
    try {
      const up = await runCheck({ kind: 'TCP', port: target.port, controlIP: null, connectMs: 2000 }, { address: HOST })
      assert.equal(up.ok, true, up.message)
      const viaControl = await runCheck({ kind: 'TCP', port: target.port, controlIP: HOST, connectMs: 2000 }, { address: '127.0.0.3' })
      assert.equal(viaControl.ok, true, 'controlIP is the address connected to')
    } finally {
      await target.stop()
    }
    const down = await runCheck({ kind: 'TCP', port: target.port, controlIP: null, connectMs: 2000 }, { address: HOST })
    assert.equal(down.ok, false)
    assert.match(down.message, /ECONNREFUSED/)
  })
})

describe('DNS check', () => {
  let target: DnsTarget
  before(async () => { target = await new DnsTarget(HOST).start() })
  after(async () => { await target.stop() })
  const check = (port: number, failResponse = '', runMs = 2000) => ({ kind: 'DNS' as const, port, tcpOnly: false, qtype: 1, qname: 'www.example.org.', failResponse, runMs })

  it('passes on a NOERROR answer', async () => {
    target.mode = 'ok'
    const out = await runCheck(check(target.port, '192.0.2.66'), { address: HOST })
    assert.equal(out.ok, true, out.message)
  })

  it('fails on SERVFAIL and on the failure response', async () => {
    target.mode = 'servfail'
    const servfail = await runCheck(check(target.port), { address: HOST })
    assert.equal(servfail.ok, false)
    assert.match(servfail.message, /SERVFAIL/)
    target.mode = 'wrong'
    const wrong = await runCheck(check(target.port, '192.0.2.66'), { address: HOST })
    assert.equal(wrong.ok, false)
    assert.match(wrong.message, /192\.0\.2\.66, the failure response/)
  })

  it('fails after one timeout when the server does not answer', async () => {
    target.mode = 'hang'
    const asked = target.queries
    const out = await runCheck(check(target.port, '', 300), { address: HOST })
    assert.equal(out.ok, false)
    assert.match(out.message, /timed out|timeout|no answer/i)
    assert.equal(target.queries - asked, 1, 'asked once')
  })
})

describe('SMTP and FTP checks', () => {
  it('SMTP passes on a 220 greeting and EHLO 250, and fails on a refusing greeting', async () => {
    const good = await lineServer(HOST, '220 mail.example.org ESMTP', line => line.startsWith('EHLO') ? '250-mail.example.org\r\n250 SIZE 1000' : line === 'QUIT' ? '221 bye' : '500 what')
    const bad = await lineServer('127.0.0.3', '554 go away', () => undefined)
    try {
      const ok = await runCheck({ kind: 'SMTP', port: good.port, connectMs: 2000, runMs: 2000 }, { address: HOST })
      assert.equal(ok.ok, true, ok.message)
      const refused = await runCheck({ kind: 'SMTP', port: bad.port, connectMs: 2000, runMs: 2000 }, { address: '127.0.0.3' })
      assert.equal(refused.ok, false)
      assert.match(refused.message, /greeting 554/)
    } finally {
      await good.stop()
      await bad.stop()
    }
  })

  it('FTP logs in and finds the path, and fails when the file is missing', async () => {
    const server = await lineServer(HOST, '220 ftp ready', (line) => {
      if (line.startsWith('USER ')) return '331 password please'
      if (line === 'PASS secret') return '230 welcome'
      if (line.startsWith('PASS')) return '530 no'
      if (line === 'SIZE /up.txt') return '213 12'
      if (line.startsWith('SIZE')) return '550 no such file'
      return line === 'QUIT' ? '221 bye' : '500 what'
    })
    try {
      const base = { kind: 'FTP' as const, port: server.port, username: 'probe', password: 'secret', connectMs: 2000, runMs: 2000 }
      assert.equal((await runCheck({ ...base, path: '/up.txt' }, { address: HOST })).ok, true)
      const missing = await runCheck({ ...base, path: '/gone.txt' }, { address: HOST })
      assert.equal(missing.ok, false)
      assert.match(missing.message, /550/)
      const badLogin = await runCheck({ ...base, password: 'wrong', path: '' }, { address: HOST })
      assert.match(badLogin.message, /login answered 530/)
    } finally {
      await server.stop()
    }
  })
})

describe('deadline', () => {
  it('aborts with a TimeoutError after its time, or with an outer signal\'s reason; dispose lets go of the outer signals', async () => {
    const { getEventListeners } = await import('node:events')
    const { deadline } = await import('../../src/traffic/checks/types.ts')
    const timed = deadline(20)
    await new Promise(resolve => timed.signal.addEventListener('abort', resolve, { once: true }))
    assert.equal((timed.signal.reason as Error).name, 'TimeoutError')
    const outer = new AbortController()
    const followed = deadline(60_000, outer.signal, undefined)
    assert.equal(getEventListeners(outer.signal, 'abort').length, 1)
    outer.abort(new Error('stopping'))
    assert.equal((followed.signal.reason as Error).message, 'stopping')
    followed.dispose()
    const second = new AbortController()
    const disposed = deadline(60_000, second.signal)
    disposed.dispose()
    assert.equal(getEventListeners(second.signal, 'abort').length, 0, 'no listener left on the long-lived signal')
    second.abort()
    assert.equal(disposed.signal.aborted, false)
    const already = deadline(60_000, second.signal)
    assert.equal(already.signal.aborted, true, 'an outer signal already aborted aborts at once')
  })
})
