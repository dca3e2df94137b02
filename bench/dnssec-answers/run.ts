// Signed answers on a large zone: `npm run bench -- dnssec-answers` (BENCH_NAMES to change the size,
// default 100,000 names). A zone of that many names (an A record each, some CNAMEs, a
// wildcard, delegations with and without DS) is signed by BIND's dnssec-signzone (NSEC, then
// NSEC3 without salt), loaded through our parser, and measured on the main thread: the time and
// heap of building the canonical order of the NSEC or NSEC3 owners (what a thread does on its
// first DNSSEC denial, and after a change to those records), and the cost of an answer made by
// lookup + respond (no reply cache) with DO clear and set, for names that exist and names that
// do not (NXDOMAIN: the covering NSEC, or NSEC3 hashing and the closest encloser proof).
// Against the alternative of signing in the answer path ("measure both and choose", issue 19):
// the answer with DO set plus the signatures an online signer makes for it, timed on the same
// answers (one RRSIG over the A rrset for a hit; for NXDOMAIN by compact denial, RFC 9824, an
// NSEC made for the name and two RRSIGs, over it and the SOA), with the same ECDSA P-256 ZSK.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], { stdio: 'inherit' })
  process.exit(r.status ?? 1)
}
const gc = globalThis.gc as () => void

const { ZoneData } = await import('../../src/dns/index/zone-data.ts')
const { ZoneIndex } = await import('../../src/dns/index/zone-index.ts')
const { lookup } = await import('../../src/dns/answer/lookup.ts')
const { respond } = await import('../../src/dns/answer/respond.ts')
const { decodeMessage } = await import('../../src/dns/wire/message.ts')
const { MessageWriter } = await import('../../src/dns/wire/writer.ts')
const { parseName } = await import('../../src/zone/name.ts')
const { RRType } = await import('../../src/zone/rrtype.ts')
const { parseZoneText } = await import('../../src/zonefile/parser.ts')
const { generateKey } = await import('../../src/zone/dnssec/keys.ts')
const { signRrset } = await import('../../src/zone/dnssec/sign.ts')

const NAMES = Number(process.env.BENCH_NAMES ?? 100_000)
const ORIGIN = 'example.org.'
const dir = mkdtempSync(join(tmpdir(), 'zonal-bench-dnssec-'))

function zoneText (): string {
  const lines = [`$ORIGIN ${ORIGIN}`, '$TTL 3600', '@ SOA ns1 hostmaster 1 7200 3600 1209600 300', '@ NS ns1', 'ns1 A 192.0.2.53', '*.wild A 192.0.2.99']
  for (let i = 0; i < NAMES; i++) {
    const name = `h${i.toString(36)}`
    if (i % 50 === 0) lines.push(`${name} CNAME h0`)
    else if (i % 500 === 1) lines.push(`${name} NS ns.${name}`, `ns.${name} A 192.0.2.1`, ...(i % 1000 === 1 ? [`${name} DS 12345 13 2 ${'AB'.repeat(32)}`] : []))
    else lines.push(`${name} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
  }
  return lines.join('\n') + '\n'
}

function sign (nsec3: boolean): string {
  const unsigned = join(dir, 'zone.db')
  writeFileSync(unsigned, zoneText())
  const keys = join(dir, nsec3 ? 'k3' : 'k')
  execFileSync('mkdir', ['-p', keys])
  execFileSync('dnssec-keygen', ['-q', '-K', keys, '-a', 'ECDSAP256SHA256', '-f', 'KSK', ORIGIN])
  execFileSync('dnssec-keygen', ['-q', '-K', keys, '-a', 'ECDSAP256SHA256', ORIGIN])
  const out = join(dir, nsec3 ? 'zone.nsec3' : 'zone.nsec')
  execFileSync('dnssec-signzone', ['-q', '-S', '-K', keys, '-d', dir, '-o', ORIGIN, '-f', out, ...(nsec3 ? ['-3', '-'] : []), unsigned])
  return readFileSync(out, 'utf8')
}

function query (name: string, type: number, dnssecOk: boolean): ReturnType<typeof decodeMessage> {
  const w = new MessageWriter(512)
  w.header({ id: 1, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type, class: 1 })
  w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk, options: [] })
  return decodeMessage(w.finish())
}

/** µs per answer (lookup + respond) for each set of questions: the best of seven rounds, the sets taking turns (a busy machine slows one round, not one set). */
function perAnswer (index: InstanceType<typeof ZoneIndex>, sets: { names: string[], type: number, dnssecOk: boolean }[]): number[] {
  const queries = sets.map(s => s.names.map(n => query(n, s.type, s.dnssecOk)))
  const best = sets.map(() => Infinity)
  for (let round = 0; round < 7; round++) {
    queries.forEach((qs, i) => {
      const start = performance.now()
      for (const q of qs) respond(q, lookup(index, q.questions[0]!.name, q.questions[0]!.type), { maxSize: 65535 })
      best[i] = Math.min(best[i]!, (performance.now() - start) * 1000 / qs.length)
    })
  }
  return best
}

/**
 * µs of signing an online signer adds per answer (best of seven rounds): one RRSIG over a hit's A
 * rrset; for an NXDOMAIN by compact denial, RFC 9824, an NSEC at the name (next name \000.name,
 * types RRSIG NSEC NXNAME) and an RRSIG over it and over the SOA.
 */
function onlineSigning (origin: ReturnType<typeof parseName>, hits: string[], misses: string[]): { hit: number, nxdomain: number } {
  const key = generateKey('ZSK', 'ECDSAP256SHA256')
  const window = { inception: Math.floor(Date.now() / 1000) - 3600, expiration: Math.floor(Date.now() / 1000) + 86400 }
  const a = [Uint8Array.of(192, 0, 2, 1)]
  const soa = [new Uint8Array(40)]
  const bitmap = Uint8Array.of(0, 6, 0, 0, 0, 0, 0, 3, 1, 1, 0x80)
  const best = { hit: Infinity, nxdomain: Infinity }
  const hitNames = hits.slice(0, 5000).map(n => parseName(n))
  const missNames = misses.slice(0, 5000).map(n => parseName(n))
  for (let round = 0; round < 7; round++) {
    let start = performance.now()
    for (const name of hitNames) signRrset(origin, name, RRType.A, 3600, a, key, window)
    best.hit = Math.min(best.hit, (performance.now() - start) * 1000 / hitNames.length)
    start = performance.now()
    for (const name of missNames) {
      const next = new Uint8Array(2 + name.length)
      next.set([1, 0], 0)
      next.set(name, 2)
      const nsec = new Uint8Array(next.length + bitmap.length)
      nsec.set(next, 0)
      nsec.set(bitmap, next.length)
      signRrset(origin, name, RRType.NSEC, 300, [nsec], key, window)
      signRrset(origin, origin, RRType.SOA, 300, soa, key, window)
    }
    best.nxdomain = Math.min(best.nxdomain, (performance.now() - start) * 1000 / missNames.length)
  }
  return best
}

const rows: string[] = []
for (const nsec3 of [false, true]) {
  const kind = nsec3 ? 'NSEC3' : 'NSEC'
  const text = sign(nsec3)
  const origin = parseName(ORIGIN)
  const { records } = parseZoneText(text, { origin, includes: 'refuse' })
  const zone = ZoneData.from(origin, 1, 1, records)
  zone.seal()
  const index = new ZoneIndex()
  index.set(zone)
  gc()
  const heapBefore = process.memoryUsage().heapUsed
  const start = performance.now()
  const owners = zone.canonicalOwners(nsec3 ? RRType.NSEC3 : RRType.NSEC)
  const buildMs = performance.now() - start
  gc()
  const heapAfter = process.memoryUsage().heapUsed
  rows.push(`| ${kind} | ${zone.nodeCount} | ${(zone.imageBytes / 1024 / 1024).toFixed(1)} MiB | ${owners.size} | ${buildMs.toFixed(0)} ms | ${((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)} MiB measured, ${(owners.approximateBytes / 1024 / 1024).toFixed(1)} MiB counted |`)
  const existing = Array.from({ length: 20_000 }, (_, i) => `h${(i * 7 + 2).toString(36)}.${ORIGIN}`).filter((_, i) => (i * 7 + 2) % 50 !== 0 && (i * 7 + 2) % 500 !== 1)
  const missing = Array.from({ length: 20_000 }, (_, i) => `m${i}x.${ORIGIN}`)
  const cells = perAnswer(index, [
    { names: existing, type: RRType.A, dnssecOk: false }, { names: existing, type: RRType.A, dnssecOk: true },
    { names: missing, type: RRType.A, dnssecOk: false }, { names: missing, type: RRType.A, dnssecOk: true }
  ]).map(us => `${us.toFixed(1)} µs`)
  const online = onlineSigning(origin, existing, missing)
  // A change: one owner gains an NSEC/NSEC3 and loses it again (the order kept in step, not rebuilt).
  const type = nsec3 ? RRType.NSEC3 : RRType.NSEC
  const sample = records.find(r => r.type === type)!
  const changes = 200
  const t0 = performance.now()
  for (let i = 0; i < changes; i++) {
    const r = { ...sample, owner: parseName(nsec3 ? `${String(i).padStart(4, '0')}${'0'.repeat(28)}.${ORIGIN}` : `zz${i}.${ORIGIN}`) }
    zone.add(r)
    zone.remove(r)
  }
  const changeUs = (performance.now() - t0) * 1000 / changes / 2
  rows.push(`|   change (${kind}) | an owner's first ${kind} added or last removed: ${changeUs.toFixed(0)} µs each, order kept (${zone.canonicalOwners(type).size} owners) |`)
  rows.push(`|   answers (${kind}) | A hit: DO clear ${cells[0]}, DO set ${cells[1]} | NXDOMAIN: DO clear ${cells[2]}, DO set ${cells[3]} |`)
  rows.push(`|   signed online instead | A hit: + ${online.hit.toFixed(1)} µs of signing (1 RRSIG) | NXDOMAIN (compact denial): + ${online.nxdomain.toFixed(1)} µs (2 RRSIGs) |`)
}
rmSync(dir, { recursive: true, force: true })
process.stdout.write(`${NAMES} names, signed by dnssec-signzone (ECDSAP256SHA256, KSK + ZSK)\n\n| denial | nodes | image | owners ordered | build | heap |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n`)
