import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isHeaderName, readRequestTo, readTarget, URL_MAX_LENGTH } from '../../src/forwards/urls.ts'

describe('readRequestTo', () => {
  it('reads host, path and anchor, with or without http://, the host lower case', () => {
    const cases: Array<[string, { host: string, path: string, anchor: string, key: string }]> = [
      ['a.example.org', { host: 'a.example.org', path: '', anchor: '', key: 'a.example.org' }],
      ['http://A.Example.org/', { host: 'a.example.org', path: '', anchor: '', key: 'a.example.org' }],
      ['HTTP://a.example.org./index.html', { host: 'a.example.org', path: '/index.html', anchor: '', key: 'a.example.org/index.html' }],
      ['a.example.org/index.html#anchor', { host: 'a.example.org', path: '/index.html', anchor: 'anchor', key: 'a.example.org/index.html#anchor' }],
      ['a.example.org/community/investors-foundation', { host: 'a.example.org', path: '/community/investors-foundation', anchor: '', key: 'a.example.org/community/investors-foundation' }],
      ['xn--bcher-kva.example.org/b', { host: 'xn--bcher-kva.example.org', path: '/b', anchor: '', key: 'xn--bcher-kva.example.org/b' }]
    ]
    for (const [text, want] of cases) assert.deepEqual(readRequestTo(text), want, text)
  })

  it('refuses other schemes, ports, users, queries, IP literals, wildcards, spaces and overlong URLs', () => {
    const cases: Array<[string, RegExp]> = [
      ['https://a.example.org', /only http:\/\//],
      ['ftp://a.example.org', /only http:\/\//],
      ['a.example.org:8080', /port/],
      ['user:pw@a.example.org', /user name or password/],
      ['a.example.org/?x=1', /query/],
      ['192.0.2.1/a', /not an IP address/],
      ['[2001:db8::1]/a', /not an IP address/],
      ['*.example.org', /not a host name/],
      ['under_score.example.org', /not a host name/],
      ['-bad.example.org', /not a host name/],
      ['a.example.org/a b', /spaces or control characters/],
      ['a.example.org/\u0007', /spaces or control characters/],
      [`a.example.org/${'x'.repeat(URL_MAX_LENGTH)}`, /longer than/],
      ['http://', /not a valid URL|host name is required/]
    ]
    for (const [text, problem] of cases) {
      const got = readRequestTo(text)
      assert.equal(typeof got, 'string', text)
      assert.match(got as string, problem, text)
    }
  })
})

describe('readTarget', () => {
  it('takes http:// and https:// with ports, paths and queries; adds http:// to a target without a scheme', () => {
    assert.deepEqual(readTarget('https://b.example.net:8443/x?y=1#z'), { url: 'https://b.example.net:8443/x?y=1#z' })
    assert.deepEqual(readTarget('HTTP://b.example.net'), { url: 'HTTP://b.example.net' })
    assert.deepEqual(readTarget('c.demo.example.net'), { url: 'http://c.demo.example.net' })
    assert.deepEqual(readTarget('192.0.2.7:8080/a'), { url: 'http://192.0.2.7:8080/a' })
  })

  it('refuses other schemes, user names, spaces and what is no URL', () => {
    for (const text of ['ftp://b.example.net', 'javascript:alert(1)', 'mailto:x@example.net', 'https://u:p@b.example.net', 'https://b.example.net/a b', 'http://', 'https://[bad']) {
      assert.equal(typeof readTarget(text), 'string', text)
    }
  })
})

describe('isHeaderName', () => {
  it('takes RFC 9110 tokens of at most 100 characters', () => {
    for (const name of ['X-Tier', 'accept', 'X_Custom.1', "!#$%&'*+-.^_`|~"]) assert.equal(isHeaderName(name), true, name)
    for (const name of ['', 'X Tier', 'X:Tier', 'Ünicode', 'x'.repeat(101), 'a\nb']) assert.equal(isHeaderName(name), false, JSON.stringify(name))
  })
})
