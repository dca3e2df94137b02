/**
 * What keeping a large zone signed costs (src/zones/dnssec/): a zone of N records (default
 * 100,000: A records at N owners below 1,000 names g0…g999, SOA, NS) stored in SQLite (or
 * ZONAL_BENCH_DATABASE_URL), signed whole, then rrset changes through the one place changes end
 * (`bumpSerial`, with its DNSSEC re-signing): an rdata change (the rrset and the SOA re-signed,
 * no chain work), a new owner and a removed owner (the denial chain spliced around it), and a
 * delegation added at an existing name with N/1000 owners below it and removed again (the
 * subtree re-signed for its new role), for NSEC and for NSEC3. Prints the milliseconds of each
 * (median of the repetitions).
 *
 *   node bench/dnssec/resign.ts [records] [repetitions]     (BENCH_TYPES=NSEC3: one of them only)
 *
 * Measured 2026-11-26 (2 cores shared with other work, SQLite, 100,000 records; medians of 3,
 * the code before the local chain step right after, 1 repetition): NSEC: a new owner 6.0 ms
 * (before 2.2 s), an owner removed 5.3 ms (3.0 s), a delegation added 25 ms (47 s, the whole zone
 * signed), removed 42 ms (25 s); NSEC3: a new owner 4.0 ms (3.6 s), removed 4.0 ms (3.9 s), a
 * delegation added 255 ms (25 s), removed 139 ms (25 s). BENCHMARKS.md has the table.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SecretBox } from '../../src/auth/secrets.ts'
import { openStore } from '../../src/store/open-store.ts'
import type { Store, StoredRrset, Zone } from '../../src/store/store.ts'
import { parseName } from '../../src/zone/name.ts'
import { recordTextToRdata as parseRdata } from '../../src/zone/record-text.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { bumpSerial } from '../../src/zones/serial-bump.ts'
import { runDnssec } from '../../src/zones/dnssec/sign-zone.ts'
import { policyWith } from '../../src/zones/dnssec/policy.ts'
import { rrsetOf } from '../../src/zones/dnssec/signing.ts'
import { canonicalSortKey } from '../../src/zone/name.ts'
import { storeBenchZone } from './bench-zone.ts'

const N = Number(process.argv[2] ?? 100_000)
const REPS = Number(process.argv[3] ?? 5)
const ORIGIN = 'bench.test.'
const secrets = new SecretBox(undefined)
const actor = { user: 'bench', ipAddress: null }

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const dir = mkdtempSync(join(tmpdir(), 'zonal-bench-dnssec-'))
const store = await openStore(process.env.ZONAL_BENCH_DATABASE_URL ?? `sqlite:${join(dir, 'zonal.db')}`)
try {
  await store.migrate()
  const zone = await storeBenchZone(store, 'bench', ORIGIN, N)
  const deps = { store, secrets, clock: () => new Date() }

  /** One rrset change in a transaction, as the rrsets API makes it; milliseconds. */
  const change = async (make: (tx: Store, z: Zone) => Promise<{ before?: StoredRrset, after?: StoredRrset }>): Promise<number> => {
    const t0 = performance.now()
    await store.transaction(async (tx) => {
      const z = await tx.zones.lockById(zone.id)
      const c = await make(tx, z!)
      const r = (c.after ?? c.before)!
      await bumpSerial(tx, z!, new Date(), 0, [c], undefined, { rrsets: [{ ownerKey: r.ownerKey, type: r.type, existed: c.before !== undefined, ...(c.after === undefined ? {} : { rrset: c.after }) }], dnssec: { secrets } })
    })
    return performance.now() - t0
  }
  const a = (owner: string, ip: string): StoredRrset => {
    const name = parseName(owner)
    return rrsetOf({ ownerKey: canonicalSortKey(name), ownerName: owner }, RRType.A, 3600, [parseRdata(RRType.A, ip, name)])
  }

  const ns = (owner: string): StoredRrset => {
    const name = parseName(owner)
    return rrsetOf({ ownerKey: canonicalSortKey(name), ownerName: owner }, RRType.NS, 3600, [parseRdata(RRType.NS, 'ns1.example.net.', name)])
  }

  for (const securityType of (process.env.BENCH_TYPES ?? 'NSEC,NSEC3').split(',') as Array<'NSEC' | 'NSEC3'>) {
    const policy = policyWith(securityType === 'NSEC' ? {} : { securityType })
    let t0 = performance.now()
    await runDnssec(deps, { zoneId: zone.id, operation: securityType === 'NSEC' || process.env.BENCH_TYPES === 'NSEC3' ? 'SIGN' : 'RESIGN', policy, actor, comment: null })
    const whole = performance.now() - t0
    const rdata: number[] = []
    const added: number[] = []
    const removed: number[] = []
    const delegated: number[] = []
    const undelegated: number[] = []
    for (let i = 0; i < REPS; i++) {
      const existing = a(`h${i}.g${i % 1000}.${ORIGIN}`, `10.0.0.${i}`)
      rdata.push(await change(async (tx, z) => ({ before: (await tx.rrsets.get(z.id, existing.ownerKey, RRType.A))!, after: existing })))
      const fresh = a(`new${i}-${securityType}.g${i}.${ORIGIN}`, '192.0.2.99')
      added.push(await change(async () => ({ after: fresh })))
      removed.push(await change(async () => ({ before: fresh })))
      // A delegation at an existing name with N/1000 owners below it, then removed again.
      const cut = ns(`g${i + 10}.${ORIGIN}`)
      delegated.push(await change(async () => ({ after: cut })))
      undelegated.push(await change(async () => ({ before: cut })))
    }
    t0 = performance.now()
    console.log(`${securityType}: ${N} records; sign whole ${whole.toFixed(0)} ms; rdata change ${median(rdata).toFixed(1)} ms; new owner ${median(added).toFixed(1)} ms; owner removed ${median(removed).toFixed(1)} ms; delegation added ${median(delegated).toFixed(1)} ms; delegation removed ${median(undelegated).toFixed(1)} ms (medians of ${REPS})`)
  }
} finally {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
}
