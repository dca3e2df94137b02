/**
 * Following CNAME chains hop by hop (src/dns/client/cname-chain.ts) over a table of answers:
 * where a chain ends (a name that exists, NXDOMAIN at the target or further down, an error with
 * its reason, a loop, a chain too long), and that each name is asked once per follower.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CnameFollower, hopOf, type Hop } from '../../../src/dns/client/cname-chain.ts'
import { nameToString, parseName, type WireName } from '../../../src/zone/name.ts'
import { RRType } from '../../../src/zone/rrtype.ts'

/** A follower over a table: name → CNAME target, 'exists', 'nxdomain', or an error reason. */
function follower (table: Record<string, string>, maxHops?: number): { f: CnameFollower, asked: string[] } {
  const asked: string[] = []
  const f = new CnameFollower(async (name: WireName): Promise<Hop> => {
    const n = nameToString(name)
    asked.push(n)
    const v = table[n]
    if (v === undefined || v === 'nxdomain') return { kind: 'nxdomain' }
    if (v === 'exists') return { kind: 'exists' }
    if (v.startsWith('error:')) return { kind: 'error', reason: v.slice(6) }
    return { kind: 'cname', target: parseName(v) }
  }, maxHops)
  return { f, asked }
}

const TABLE = {
  'a.test.': 'b.test.',
  'b.test.': 'c.test.',
  'c.test.': 'exists',
  'd.test.': 'e.test.',
  'e.test.': 'gone.test.',
  'loop1.test.': 'loop2.test.',
  'loop2.test.': 'loop1.test.',
  'broken.test.': 'error:SERVFAIL from 127.0.0.1:53 (EDE 22 No Reachable Authority)'
}

describe('CnameFollower', () => {
  it('follows a chain to a name that exists: not dangling', async () => {
    const { f } = follower(TABLE)
    const out = await f.follow(parseName('a.test.'))
    assert.equal(out.dangling, false)
    assert.deepEqual(out.chain.map(nameToString), ['a.test.', 'b.test.', 'c.test.'])
  })

  it('flags a target that does not exist, with the target as the ultimate target', async () => {
    const out = await follower(TABLE).f.follow(parseName('gone.test.'))
    assert.ok(out.dangling)
    assert.equal(nameToString(out.ultimate), 'gone.test.')
    assert.equal(out.cause, 'nxdomain')
    assert.equal(out.description, 'CNAME target does not resolve: the name does not exist (NXDOMAIN).')
  })

  it('flags a chain ending in NXDOMAIN with the name that gave it as the ultimate target', async () => {
    const out = await follower(TABLE).f.follow(parseName('d.test.'))
    assert.ok(out.dangling)
    assert.equal(nameToString(out.ultimate), 'gone.test.')
    assert.equal(out.description, 'CNAME chain ends in a name that does not exist (NXDOMAIN): d.test → e.test → gone.test')
  })

  it('flags an error with the resolver\'s reason', async () => {
    const out = await follower(TABLE).f.follow(parseName('broken.test.'))
    assert.ok(out.dangling)
    assert.equal(out.cause, 'error')
    assert.equal(nameToString(out.ultimate), 'broken.test.')
    assert.match(out.description, /SERVFAIL from 127\.0\.0\.1:53 \(EDE 22 No Reachable Authority\) for broken\.test\.$/)
  })

  it('ends a loop at the name that repeats', async () => {
    const out = await follower(TABLE).f.follow(parseName('loop1.test.'))
    assert.ok(out.dangling)
    assert.equal(out.cause, 'loop')
    assert.equal(nameToString(out.ultimate), 'loop1.test.')
    assert.equal(out.description, 'CNAME chain loops and never resolves: loop1.test → loop2.test → loop1.test')
  })

  it('ends a chain longer than the bound', async () => {
    const long: Record<string, string> = {}
    for (let i = 0; i < 40; i++) long[`n${i}.test.`] = `n${i + 1}.test.`
    const { f, asked } = follower(long, 16)
    const out = await f.follow(parseName('n0.test.'))
    assert.ok(out.dangling)
    assert.equal(out.cause, 'too-long')
    assert.equal(nameToString(out.ultimate), 'n16.test.')
    assert.equal(asked.length, 16, 'no question past the bound')
  })

  it('asks each name once, whatever the case, however many chains share it', async () => {
    const { f, asked } = follower(TABLE)
    await Promise.all([f.follow(parseName('a.test.')), f.follow(parseName('A.TEST.')), f.follow(parseName('b.test.')), f.follow(parseName('c.test.'))])
    assert.deepEqual(asked.sort(), ['a.test.', 'b.test.', 'c.test.'])
    assert.equal(f.queries, 3)
  })

  it('lets a failure of the resolvers propagate', async () => {
    const f = new CnameFollower(async () => { throw new Error('no resolver answered') })
    await assert.rejects(f.follow(parseName('x.test.')), /no resolver answered/)
  })
})

describe('hopOf', () => {
  const name = parseName('www.example.test.')
  const answer = (rcode: number, answers: Array<{ name: string, type: number, target?: string }> = [], ede: Array<{ code: number, text: string }> = []) => ({
    rcode,
    answers: answers.map(a => ({ name: parseName(a.name), type: a.type, class: 1, ttl: 60, rdata: a.target === undefined ? new Uint8Array(4) : parseName(a.target) })),
    extendedErrors: ede,
    server: '127.0.0.1:5300'
  })

  it('reads the CNAME owned by the name asked (any case), and nothing else as one', () => {
    const h = hopOf(name, answer(0, [{ name: 'other.test.', type: RRType.CNAME, target: 'x.test.' }, { name: 'WWW.example.test.', type: RRType.CNAME, target: 'next.test.' }]))
    assert.equal(h.kind, 'cname')
    assert.equal(h.kind === 'cname' ? nameToString(h.target) : '', 'next.test.')
    assert.deepEqual(hopOf(name, answer(0, [{ name: 'www.example.test.', type: RRType.A }])), { kind: 'exists' })
    assert.deepEqual(hopOf(name, answer(0)), { kind: 'exists' }, 'NODATA: the name exists')
    assert.deepEqual(hopOf(name, answer(3)), { kind: 'nxdomain' })
  })

  it('gives SERVFAIL and other error rcodes with the resolver and its Extended DNS Errors', () => {
    assert.deepEqual(hopOf(name, answer(2)), { kind: 'error', reason: 'SERVFAIL from 127.0.0.1:5300' })
    assert.deepEqual(hopOf(name, answer(2, [], [{ code: 22, text: 'at delegation example.test.' }, { code: 9, text: '' }])),
      { kind: 'error', reason: 'SERVFAIL from 127.0.0.1:5300 (EDE 22 No Reachable Authority: at delegation example.test.; EDE 9 DNSKEY Missing)' })
    assert.deepEqual(hopOf(name, answer(6)), { kind: 'error', reason: 'YXDOMAIN from 127.0.0.1:5300' })
  })
})
