/**
 * Signed answers checked by a validator: `example.org.` and its secure child are signed with
 * BIND's own tools (`dnssec-keygen`, `dnssec-signzone`), once with NSEC, once with NSEC3 (no
 * salt) and once with NSEC3 with a salt, iterations and Opt-Out; the signed files are loaded
 * through our zone-file parser and served by our DNS workers on loopback, and `delv`, trusting
 * only the parent's KSK, validates each answer: positive answers, a CNAME chain, a DNAME, the
 * DNSKEY rrset, NXDOMAIN (one and two labels below the closest encloser), NODATA (at a name and
 * at an empty non-terminal), wildcard answers, a wildcard CNAME, a CNAME to a wildcard, wildcard
 * NODATA, a secure delegation (its DS, then a name below it) and an insecure one (DS denied,
 * then a name below it answered unsigned), and a large rrset (delv moves to TCP).
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ZoneIndex } from '../../src/dns/index/zone-index.ts'
import { serveInWorkers, type WorkerServer } from '../helpers/dns-workers.ts'
import { delv, loadZone, removeSigned, requireTools, signWorld, trustAnchors, type Signing, type SignedWorld } from '../helpers/dnssec-zones.ts'

const skip = requireTools('delv', 'dnssec-keygen', 'dnssec-signzone')

/** What delv must conclude. */
type Verdict = 'secure' | 'nxdomain' | 'nodata' | 'insecure'

const CASES: [string, string, Verdict][] = [
  ['example.org.', 'SOA', 'secure'],
  ['example.org.', 'DNSKEY', 'secure'],
  ['example.org.', 'MX', 'secure'],
  ['web.example.org.', 'AAAA', 'secure'],
  ['www.example.org.', 'A', 'secure'],
  ['c1.example.org.', 'A', 'secure'],
  ['x.old.example.org.', 'A', 'secure'],
  ['many.example.org.', 'A', 'secure'],
  ['big.example.org.', 'TXT', 'secure'],
  ['nothing.example.org.', 'A', 'nxdomain'],
  ['x.y.nothing.example.org.', 'AAAA', 'nxdomain'],
  ['x.a.b.c.example.org.', 'A', 'nxdomain'],
  ['dangling.example.org.', 'A', 'nxdomain'],
  ['web.example.org.', 'TXT', 'nodata'],
  ['b.c.example.org.', 'A', 'nodata'],
  ['sub.wild.example.org.', 'TXT', 'nodata'],
  ['x.wild.example.org.', 'A', 'secure'],
  ['a.b.wild.example.org.', 'TXT', 'secure'],
  ['x.cwild.example.org.', 'A', 'secure'],
  ['towild.example.org.', 'A', 'secure'],
  ['x.wild.example.org.', 'MX', 'nodata'],
  ['secure.example.org.', 'DS', 'secure'],
  ['host.secure.example.org.', 'A', 'secure'],
  ['nothing.secure.example.org.', 'A', 'nxdomain'],
  ['insecure.example.org.', 'DS', 'nodata'],
  ['host.insecure.example.org.', 'A', 'insecure']
]

/**
 * The verdict expected of a case in a zone signed this way. RFC 5155 §9.2: a wildcard answer
 * whose proof that the name does not exist is an Opt-Out NSEC3 span is insecure (the name may be
 * an unsigned delegation); with every span Opt-Out, as `dnssec-signzone -A` makes them, every
 * positive wildcard answer is.
 */
function expected (signing: Signing, name: string, verdict: Verdict): Verdict {
  const wildcard = /\.(wild|cwild)\.example\.org\.$/.test(name) || name === 'towild.example.org.'
  return signing === 'nsec3-optout' && wildcard && verdict === 'secure' ? 'insecure' : verdict
}

/**
 * What delv concluded. A chain is validated link by link (one verdict line per rrset), so the
 * answer is as weak as its weakest link: insecure when any link is unsigned, negative when it
 * ends in a denial; any other failure is reported with delv's output.
 */
function verdictOf (output: string): string {
  const failed = /^;; resolution failed: (?!ncache nx(domain|rrset)$).*$/m.exec(output) ?? /^; validation failed.*$/m.exec(output)
  if (failed !== null) return `failed: ${output.trim()}`
  if (/^; unsigned answer$/m.test(output)) return 'insecure'
  // A denial at the end of a validated chain is listed (`;-$NXDOMAIN`) under the chain's verdict.
  if (/^; (negative response, )?fully validated$/m.test(output)) {
    if (/;-\$NXDOMAIN/.test(output)) return 'nxdomain'
    if (/;-\$NXRRSET/.test(output)) return 'nodata'
    return 'secure'
  }
  return `failed: ${output.trim()}`
}

for (const signing of ['nsec', 'nsec3', 'nsec3-optout'] as const) {
  describe(`DNSSEC answers validated by delv (${signing})`, { skip }, () => {
    let world: SignedWorld
    let server: WorkerServer | undefined
    let anchors: string

    before(async () => {
      world = await signWorld(signing)
      const index = new ZoneIndex()
      for (const [origin, text] of Object.entries(world.files)) index.set(loadZone(origin, text))
      server = await serveInWorkers(index)
      anchors = join(world.parent.dir, 'anchors.conf')
      writeFileSync(anchors, trustAnchors([world.parent]))
    })

    after(async () => {
      await server?.close()
      removeSigned(world?.parent)
      removeSigned(world?.child)
    })

    it('gives answers delv validates from the parent\'s KSK alone', async () => {
      const wrong: string[] = []
      for (const [name, type, verdict] of CASES) {
        const got = verdictOf(await delv(server!.port, anchors, 'example.org.', name, type))
        const want = expected(signing, name, verdict)
        if (got !== want) wrong.push(`${name} ${type}: expected ${want}, got ${got}`)
      }
      assert.deepEqual(wrong, [])
      assert.deepEqual(server!.problems, [])
    })
  })
}
