/**
 * A validating resolver through our server: BIND `named` with recursion and DNSSEC validation,
 * whose only trust anchor is the KSK of `example.org.` (signed by `dnssec-signzone` with NSEC,
 * then with NSEC3) and whose only upstream is our DNS workers on loopback (a static-stub zone, and
 * named's `port` for every query it sends), resolves positive answers, CNAME and DNAME chains,
 * wildcards, NXDOMAIN and NODATA in the parent and below its secure delegation with AD set and
 * never SERVFAIL; a name below the insecure delegation resolves without AD (proven unsigned).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ZoneIndex } from '../../src/dns/index/zone-index.ts'
import { dig, startValidatingResolver, type Named } from '../helpers/named.ts'
import { serveInWorkers, type WorkerServer } from '../helpers/dns-workers.ts'
import { loadZone, removeSigned, requireTools, signWorld, trustAnchors, type SignedWorld } from '../helpers/dnssec-zones.ts'

const skip = requireTools('named', 'dig', 'dnssec-keygen', 'dnssec-signzone')

/** Name, type, the status expected, whether answers are expected, and whether AD is. */
const CASES: [string, string, 'NOERROR' | 'NXDOMAIN', boolean, boolean][] = [
  ['www.example.org.', 'A', 'NOERROR', true, true],
  ['example.org.', 'MX', 'NOERROR', true, true],
  ['c1.example.org.', 'AAAA', 'NOERROR', true, true],
  ['x.old.example.org.', 'A', 'NOERROR', true, true],
  ['x.wild.example.org.', 'A', 'NOERROR', true, true],
  ['x.cwild.example.org.', 'A', 'NOERROR', true, true],
  ['many.example.org.', 'A', 'NOERROR', true, true],
  ['nothing.example.org.', 'A', 'NXDOMAIN', false, true],
  ['x.a.b.c.example.org.', 'TXT', 'NXDOMAIN', false, true],
  ['web.example.org.', 'TXT', 'NOERROR', false, true],
  ['b.c.example.org.', 'A', 'NOERROR', false, true],
  ['x.wild.example.org.', 'MX', 'NOERROR', false, true],
  ['host.secure.example.org.', 'A', 'NOERROR', true, true],
  ['nothing.secure.example.org.', 'A', 'NXDOMAIN', false, true],
  ['host.insecure.example.org.', 'A', 'NOERROR', true, false]
]

for (const signing of ['nsec', 'nsec3'] as const) {
  describe(`a validating BIND resolver through our server (${signing})`, { skip }, () => {
    let world: SignedWorld
    let server: WorkerServer | undefined
    let resolver: Named | undefined

    before(async () => {
      world = await signWorld(signing)
      const index = new ZoneIndex()
      for (const [origin, text] of Object.entries(world.files)) index.set(loadZone(origin, text))
      server = await serveInWorkers(index)
      resolver = await startValidatingResolver(server.port, ['example.org.'], trustAnchors([world.parent]))
    })

    after(async () => {
      await resolver?.stop()
      await server?.close()
      removeSigned(world?.parent)
      removeSigned(world?.child)
    })

    it('resolves positive and negative names with AD set and no SERVFAIL', async () => {
      const wrong: string[] = []
      for (const [name, type, status, answers, ad] of CASES) {
        const out = await dig(resolver!.port, '+dnssec', '+time=5', name, type)
        const header = /status: (\w+)/.exec(out)?.[1]
        const flags = /;; flags: ([a-z ]+);/.exec(out)?.[1]?.split(' ') ?? []
        const answerCount = Number(/ANSWER: (\d+)/.exec(out)?.[1] ?? -1)
        const got = `${header} ${answerCount > 0 ? 'answers' : 'none'}${flags.includes('ad') ? ' ad' : ''}`
        const want = `${status} ${answers ? 'answers' : 'none'}${ad ? ' ad' : ''}`
        if (got !== want) wrong.push(`${name} ${type}: expected ${want}, got ${got}\n${out}`)
      }
      assert.deepEqual(wrong, [], `${wrong.join('\n')}\n${resolver!.log().split('\n').filter(l => /validat|broken|insecure|lame|error/i.test(l)).slice(-40).join('\n')}`)
      assert.deepEqual(server!.problems, [])
    })
  })
}
