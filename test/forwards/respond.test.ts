import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { ForwardAlternative, HeaderRule, WebForward } from '../../src/forwards/model.ts'
import { pathBelow, respond, type ForwardRequest } from '../../src/forwards/respond.ts'

function forward (fields: Partial<WebForward> = {}): WebForward {
  return { id: 'F1', zone: 'example.com.', host: 'www.example.com', path: '', anchor: '', redirectTo: 'https://target.example.net/', mode: 301, relative: 'none', alternatives: [], ...fields }
}

function request (target: string, headers: ForwardRequest['headers'] = {}, method = 'GET'): ForwardRequest {
  const q = target.indexOf('?')
  return { method, path: q < 0 ? target : target.slice(0, q), query: q < 0 ? '' : target.slice(q + 1), headers }
}

function location (f: WebForward, target: string, headers: ForwardRequest['headers'] = {}): string | undefined {
  return respond(f, request(target, headers)).headers.location
}

describe('respond: redirects', () => {
  for (const mode of [301, 302, 303, 307] as const) {
    it(`answers ${mode} with the target as Location and no body`, () => {
      const r = respond(forward({ mode, redirectTo: 'https://target.example.net/landing' }), request('/anything?x=1'))
      assert.equal(r.status, mode)
      assert.deepEqual(r.headers, { location: 'https://target.example.net/landing', 'content-length': '0' })
      assert.equal(r.body, '')
    })
  }

  it('redirects every method the same way', () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      const r = respond(forward({ mode: 307 }), request('/', {}, method))
      assert.equal(r.status, 307, method)
      assert.equal(r.headers.location, 'https://target.example.net/', method)
    }
  })

  it('gives a target without a scheme http:// (the real API\'s example c.demo-kb-1.com.in)', () => {
    assert.equal(location(forward({ redirectTo: 'c.demo-kb-1.com.in' }), '/'), 'http://c.demo-kb-1.com.in/')
    assert.equal(location(forward({ redirectTo: 'target.example.net:8080/x' }), '/'), 'http://target.example.net:8080/x')
    assert.equal(location(forward({ redirectTo: 'HTTPS://Target.Example.NET' }), '/'), 'https://target.example.net/')
  })
})

describe('respond: relative modes', () => {
  const cases: Array<[WebForward['relative'], string, string, string, string]> = [
    // relative, forward path, target, request, Location
    ['none', '', 'https://t.example.net/base', '/a/b?x=1', 'https://t.example.net/base'],
    ['path', '', 'https://t.example.net/base', '/a/b?x=1', 'https://t.example.net/base/a/b'],
    ['path', '', 'https://t.example.net/base/', '/a/b', 'https://t.example.net/base/a/b'],
    ['path', '', 'https://t.example.net', '/a/b', 'https://t.example.net/a/b'],
    ['path', '', 'https://t.example.net/base', '/', 'https://t.example.net/base'],
    ['path', '/docs', 'https://t.example.net/base', '/docs/a/b', 'https://t.example.net/base/a/b'],
    ['path', '/docs', 'https://t.example.net/base', '/docs', 'https://t.example.net/base'],
    ['path', '/docs', 'https://t.example.net/base', '/docs/', 'https://t.example.net/base/'],
    ['path', '/docs/', 'https://t.example.net/base/', '/docs/a', 'https://t.example.net/base/a'],
    ['path', '', 'https://t.example.net/base?k=v#top', '/a', 'https://t.example.net/base/a?k=v#top'],
    ['parameter', '', 'https://t.example.net/base', '/a/b?x=1&y=2', 'https://t.example.net/base?x=1&y=2'],
    ['parameter', '', 'https://t.example.net/base?k=v', '/a?x=1', 'https://t.example.net/base?k=v&x=1'],
    ['parameter', '', 'https://t.example.net/base?', '/a?x=1', 'https://t.example.net/base?x=1'],
    ['parameter', '', 'https://t.example.net/base?k=v&', '/a?x=1', 'https://t.example.net/base?k=v&x=1'],
    ['parameter', '', 'https://t.example.net/base?k=v#top', '/a?x=1', 'https://t.example.net/base?k=v&x=1#top'],
    ['parameter', '', 'https://t.example.net/base', '/a', 'https://t.example.net/base'],
    ['parameterAndPath', '/docs', 'https://t.example.net/base/', '/docs/a/b?x=1', 'https://t.example.net/base/a/b?x=1'],
    ['parameterAndPath', '', 'https://t.example.net/base?k=v', '/a?x=1', 'https://t.example.net/base/a?k=v&x=1'],
    ['parameterAndPath', '', 'https://t.example.net', '/', 'https://t.example.net/'],
    ['parameterAndPath', '', 'https://t.example.net', '/?x=1', 'https://t.example.net/?x=1']
  ]
  for (const [relative, path, redirectTo, target, expected] of cases) {
    it(`${relative}: forward "${path}" → ${redirectTo}, request ${target} → ${expected}`, () => {
      assert.equal(location(forward({ relative, path, redirectTo }), target), expected)
    })
  }

  it('percent-encodes what the request carries that a Location may not hold', () => {
    const f = forward({ relative: 'parameterAndPath', redirectTo: 'https://t.example.net/' })
    assert.equal(location(f, '/a b/"q"<x>#frag?v=a b&w=\u00c3\u00a9'), 'https://t.example.net/a%20b/%22q%22%3Cx%3E%23frag?v=a%20b&w=%C3%A9')
    assert.equal(location(f, '/caf\u00e9\u{1F600}\ud800'), 'https://t.example.net/caf%E9%F0%9F%98%80%EF%BF%BD')
    assert.equal(location(f, '/x\r\nSet-Cookie:%20a'), 'https://t.example.net/x%0D%0ASet-Cookie:%20a')
  })

  it('cuts the forward\'s path off the request\'s path', () => {
    assert.equal(pathBelow('', '/'), '')
    assert.equal(pathBelow('', '/a'), '/a')
    assert.equal(pathBelow('/', '/a'), '/a')
    assert.equal(pathBelow('/a', '/a'), '')
    assert.equal(pathBelow('/a', '/a/b'), '/b')
    assert.equal(pathBelow('/a/', '/a'), '')
    assert.equal(pathBelow('/a/', '/a/b'), '/b')
  })
})

function rule (header: string, match: HeaderRule['match'], value: string, caseInsensitive = false): HeaderRule {
  return { header, match, value, caseInsensitive }
}

function alt (priority: number, redirectTo: string, rules: HeaderRule[], mode: ForwardAlternative['mode'] = 302): ForwardAlternative {
  return { priority, redirectTo, mode, rules }
}

describe('respond: advanced records (header rules)', () => {
  const f = forward({
    redirectTo: 'https://default.example.net/',
    alternatives: [
      alt(3, 'https://three.example.net/', [rule('Accept', 'contains', 'kb')]),
      alt(1, 'https://one.example.net/', [rule('Accept', 'contains', 'kb'), rule('X-Region', 'matches', 'EU')]),
      alt(2, 'https://two.example.net/', [rule('accept', 'beginsWith', 'text/kb')], 307)
    ]
  })

  it('takes the first record, by ascending priority, whose rules all match', () => {
    assert.equal(location(f, '/', { accept: 'text/kb', 'x-region': 'EU' }), 'https://one.example.net/')
    const two = respond(f, request('/', { accept: 'text/kb', 'x-region': 'US' }))
    assert.equal(two.status, 307)
    assert.equal(two.headers.location, 'https://two.example.net/')
    assert.equal(location(f, '/', { accept: 'application/kb' }), 'https://three.example.net/')
    assert.equal(location(f, '/', { accept: 'text/html' }), 'https://default.example.net/')
    assert.equal(respond(f, request('/', { accept: 'text/html' })).status, 301)
  })

  it('matches no rule on an absent header', () => {
    assert.equal(location(f, '/', {}), 'https://default.example.net/')
    const empty = forward({ alternatives: [alt(1, 'https://alt.example.net/', [rule('X-Empty', 'matches', '')])] })
    assert.equal(location(empty, '/', {}), 'https://target.example.net/')
    assert.equal(location(empty, '/', { 'x-empty': '' }), 'https://alt.example.net/')
  })

  it('keeps the given order between records of the same priority', () => {
    const tie = forward({ alternatives: [alt(5, 'https://first.example.net/', [rule('A', 'contains', 'x')]), alt(5, 'https://second.example.net/', [rule('A', 'contains', 'x')])] })
    assert.equal(location(tie, '/', { a: 'x' }), 'https://first.example.net/')
  })

  const criteria: Array<[HeaderRule['match'], string, string[], string[]]> = [
    // match, value, header values that match, header values that do not
    ['beginsWith', 'Mozilla', ['Mozilla/5.0', 'Mozilla'], ['mozilla/5.0', 'X Mozilla', '']],
    ['contains', 'Chrome', ['Mozilla Chrome/1', 'Chrome'], ['chrome', 'Chrom']],
    ['endsWith', '.test', ['a.b.test', '.test'], ['a.TEST', 'a.test.x']],
    ['matches', 'Exact', ['Exact'], ['exact', 'Exact ', 'xExact', 'Exac']],
    // a value is never a regular expression
    ['matches', '.*', ['.*'], ['anything', '']],
    ['contains', '[a-z]+', ['x[a-z]+y'], ['abc']]
  ]
  for (const [match, value, yes, no] of criteria) {
    it(`${match} "${value}", case-sensitive`, () => {
      const g = forward({ alternatives: [alt(1, 'https://alt.example.net/', [rule('User-Agent', match, value)])] })
      for (const v of yes) assert.equal(location(g, '/', { 'user-agent': v }), 'https://alt.example.net/', `"${v}" should match`)
      for (const v of no) assert.equal(location(g, '/', { 'user-agent': v }), 'https://target.example.net/', `"${v}" should not match`)
    })
  }

  it('compares without case when the rule says so, each criteria', () => {
    for (const [match, value, header] of [['beginsWith', 'MOZ', 'mozilla'], ['contains', 'ZIL', 'mozilla'], ['endsWith', 'LLA', 'mozilla'], ['matches', 'MoZiLlA', 'mozilla']] as const) {
      const ci = forward({ alternatives: [alt(1, 'https://alt.example.net/', [rule('User-Agent', match, value, true)])] })
      assert.equal(location(ci, '/', { 'user-agent': header }), 'https://alt.example.net/', match)
      const cs = forward({ alternatives: [alt(1, 'https://alt.example.net/', [rule('User-Agent', match, value, false)])] })
      assert.equal(location(cs, '/', { 'user-agent': header }), 'https://target.example.net/', match)
    }
  })

  it('matches a header sent several times on its values joined', () => {
    const g = forward({ alternatives: [alt(1, 'https://alt.example.net/', [rule('X-Multi', 'matches', 'a, b')])] })
    assert.equal(location(g, '/', { 'x-multi': ['a', 'b'] }), 'https://alt.example.net/')
  })

  it('carries the request over to the chosen record\'s target with the forward\'s relative mode', () => {
    const g = forward({ relative: 'parameterAndPath', alternatives: [alt(1, 'https://alt.example.net/x?k=v', [rule('Accept', 'contains', 'kb')])] })
    assert.equal(location(g, '/a/b?q=1', { accept: 'kb' }), 'https://alt.example.net/x/a/b?k=v&q=1')
  })
})

describe('respond: targets that are not http(s)', () => {
  for (const bad of ['javascript:alert(1)', 'JavaScript:alert(document.domain)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'ftp://files.example.net/', 'mailto:a@example.net', 'file:///etc/passwd', 'http://']) {
    it(`never sends ${JSON.stringify(bad)}: 404 for a default target, another record for an advanced one`, () => {
      for (const mode of [301, 'framed'] as const) {
        const r = respond(forward({ redirectTo: bad, mode }), request('/'))
        assert.equal(r.status, 404)
        assert.equal(r.headers.location, undefined)
      }
      const g = forward({ alternatives: [alt(1, bad, [rule('A', 'contains', 'x')], 'framed'), alt(2, 'https://safe.example.net/', [rule('A', 'contains', 'x')])] })
      assert.equal(location(g, '/', { a: 'x' }), 'https://safe.example.net/')
    })
  }
})

describe('respond: framed forwards', () => {
  it('answers 200 with a page whose one frame shows the target, and a policy framing only its origin', () => {
    const r = respond(forward({ mode: 'framed', redirectTo: 'https://t.example.net:8443/shop', relative: 'path' }), request('/a'))
    assert.equal(r.status, 200)
    assert.equal(r.headers['content-type'], 'text/html; charset=utf-8')
    assert.equal(r.headers['content-length'], String(Buffer.byteLength(r.body)))
    assert.equal(r.headers.location, undefined)
    assert.equal(r.headers['x-content-type-options'], 'nosniff')
    assert.match(r.body, /<iframe src="https:\/\/t\.example\.net:8443\/shop\/a" /)
    assert.equal(r.body.match(/<iframe /g)?.length, 1)
    assert.doesNotMatch(r.body, /<script/i)
    const csp = r.headers['content-security-policy']!
    assert.match(csp, /(^|; )default-src 'none'(;|$)/)
    assert.match(csp, /(^|; )frame-src https:\/\/t\.example\.net:8443(;|$)/)
    assert.match(csp, /(^|; )style-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/)
  })

  it('escapes the target in the page: quotes, angle brackets, ampersands', () => {
    const r = respond(forward({ mode: 'framed', redirectTo: 'https://t.example.net/a\'b"c<d>e&f', relative: 'parameter' }), request('/?x=1&y=\'"<>'))
    const src = /<iframe src="([^"]*)"/.exec(r.body)?.[1]
    assert.ok(src !== undefined, r.body)
    assert.doesNotMatch(src, /[<>'"]/)
    assert.equal(src, 'https://t.example.net/a&#39;b%22c%3Cd%3Ee&amp;f?x=1&amp;y=&#39;%22%3C%3E')
    assert.doesNotMatch(r.body, /<d>|"c<|'"</)
  })

  it('sends no body for HEAD, with the length of the GET body', () => {
    const f = forward({ mode: 'framed' })
    const get = respond(f, request('/'))
    const head = respond(f, request('/', {}, 'HEAD'))
    assert.equal(head.status, 200)
    assert.equal(head.body, '')
    assert.equal(head.headers['content-length'], String(Buffer.byteLength(get.body)))
  })
})

describe('respond: no forward', () => {
  it('answers 404 with a small page that shows nothing of the request', () => {
    const r = respond(undefined, request('/<script>', { host: '<script>alert(1)</script>.example' }))
    assert.equal(r.status, 404)
    assert.equal(r.headers['content-type'], 'text/html; charset=utf-8')
    assert.equal(r.headers['content-length'], String(Buffer.byteLength(r.body)))
    assert.doesNotMatch(r.body, /script/)
    assert.ok(r.body.length < 300)
    assert.equal(respond(undefined, request('/', {}, 'HEAD')).body, '')
  })
})
