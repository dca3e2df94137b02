import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateZone } from '../zonefile/generate.ts'

/**
 * DNSSEC signing benchmark: a generated zone of BENCH_DNSSEC_RECORDS records (default 100,000;
 * A, AAAA, CNAME, MX, TXT, SRV, delegations with glue) signed with NSEC and with NSEC3 (0
 * iterations, no salt) by Zonal's `signZone` (bench/dnssec/sign.ts), by BIND's
 * `dnssec-signzone` (keys from `dnssec-keygen`, one thread, no post-sign verification, DNSKEY
 * signed by the KSK only, as Zonal does) and by Knot's `kzonesign` (keys it makes from its
 * policy), same algorithm (BENCH_DNSSEC_ALGORITHM, default ECDSAP256SHA256), in one run. Each
 * tool reads the unsigned file and writes the signed zone; wall time and peak RSS are of the
 * whole process. Zonal's output is checked with `dnssec-verify` (not timed).
 */
const COUNT = Number(process.env.BENCH_DNSSEC_RECORDS ?? 100_000)
const ALGORITHM = (process.env.BENCH_DNSSEC_ALGORITHM ?? 'ECDSAP256SHA256') as 'ECDSAP256SHA256' | 'ED25519' | 'RSASHA256'
const REPEAT = Number(process.env.BENCH_REPEAT ?? 1)
const ORIGIN = 'bench.test.'
const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'bench', '.work', 'dnssec')
mkdirSync(work, { recursive: true })
const zone = join(work, `zone-${COUNT}.zone`)
if (!existsSync(zone)) {
  process.stderr.write(`generating ${COUNT} records into ${zone}\n`)
  await generateZone(zone, COUNT, ORIGIN)
}

interface Run { label: string, seconds: number, maxRssMb: number, ok: boolean, detail: string }

/** Run a command under /usr/bin/time: wall seconds and peak RSS. */
function timed (label: string, cmd: string, args: string[], cwd = root): Run {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', cmd, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 })
  const lines = r.stderr.trim().split('\n')
  const [wall, rssKb] = (lines.at(-1) ?? '0 0').split(' ').map(Number) as [number, number]
  if (r.status !== 0) process.stderr.write(`${label} failed:\n${r.stdout}\n${r.stderr}\n`)
  return { label, seconds: wall, maxRssMb: Math.round(rssKb / 1024), ok: r.status === 0, detail: r.stdout.trim().split('\n').at(-1) ?? '' }
}

function best (make: () => Run): Run {
  return Array.from({ length: REPEAT }, make).sort((a, b) => a.seconds - b.seconds)[0]!
}

function run (cmd: string, args: string[], cwd?: string): void {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' })
  if (r.error !== undefined || r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.error?.message ?? ''}${r.stderr}`)
}

const BIND_BITS: Record<typeof ALGORITHM, string[]> = { ECDSAP256SHA256: [], ED25519: [], RSASHA256: ['-b', '2048'] }
const KNOT_SIZE: Record<typeof ALGORITHM, string> = { ECDSAP256SHA256: '256', ED25519: '256', RSASHA256: '2048' }

/** BIND keys for the zone (KSK and ZSK) from dnssec-keygen, in a fresh directory. */
function bindKeys (dir: string): void {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  run('dnssec-keygen', ['-q', '-K', dir, '-a', ALGORITHM, ...BIND_BITS[ALGORITHM], '-f', 'KSK', ORIGIN])
  run('dnssec-keygen', ['-q', '-K', dir, '-a', ALGORITHM, ...BIND_BITS[ALGORITHM], ORIGIN])
}

/** A Knot configuration signing the zone file with its own keys (made by the first kzonesign run). */
function knotSetup (dir: string, nsec3: boolean): string {
  rmSync(dir, { recursive: true, force: true })
  for (const d of ['db', 'keys', 'out']) mkdirSync(join(dir, d), { recursive: true })
  const conf = join(dir, 'knot.conf')
  writeFileSync(conf, `server:
    rundir: ${dir}
database:
    storage: ${join(dir, 'db')}
keystore:
  - id: pem
    backend: pem
    config: ${join(dir, 'keys')}
policy:
  - id: bench
    algorithm: ${ALGORITHM.toLowerCase()}
    ksk-size: ${KNOT_SIZE[ALGORITHM]}
    zsk-size: ${KNOT_SIZE[ALGORITHM]}
    nsec3: ${nsec3 ? 'on' : 'off'}
    nsec3-iterations: 0
    nsec3-salt-length: 0
    keystore: pem
zone:
  - domain: ${ORIGIN}
    file: ${zone}
    dnssec-signing: on
    dnssec-policy: bench
`)
  return conf
}

const runs: Run[] = []
for (const denial of ['NSEC', 'NSEC3'] as const) {
  const out = join(work, `zonal-${denial}.zone`)
  const zonal = best(() => timed(`zonal signZone ${denial}`, process.execPath, ['bench/dnssec/sign.ts', zone, ORIGIN, ALGORITHM, denial, out]))
  const verify = spawnSync('dnssec-verify', ['-q', '-o', ORIGIN, out], { encoding: 'utf8' })
  zonal.ok = zonal.ok && verify.status === 0
  if (verify.status !== 0) process.stderr.write(`dnssec-verify refused Zonal's ${denial} zone:\n${verify.stderr}\n`)
  runs.push(zonal)

  const keyDir = join(work, `bind-keys-${denial}`)
  bindKeys(keyDir)
  const nsec3 = denial === 'NSEC3' ? ['-3', '-', '-H', '0'] : []
  runs.push(best(() => timed(`dnssec-signzone ${denial}`, 'dnssec-signzone',
    ['-q', '-S', '-K', keyDir, '-x', '-P', '-n', '1', '-e', '+1209600', '-j', '86400', ...nsec3, '-o', ORIGIN, '-f', join(work, `bind-${denial}.zone`), zone])))

  const knotDir = join(work, `knot-${denial}`)
  const conf = knotSetup(knotDir, denial === 'NSEC3')
  run('kzonesign', ['-c', conf, '-o', join(knotDir, 'out'), ORIGIN]) // makes the keys; not timed
  runs.push(best(() => timed(`kzonesign ${denial}`, 'kzonesign', ['-c', conf, '-o', join(knotDir, 'out'), ORIGIN])))
}

process.stdout.write(`zone: ${COUNT} records, algorithm ${ALGORITHM}; best of ${REPEAT}; whole process (read, sign, write)\n\n`)
process.stdout.write('| tool | wall s | records/s | peak RSS MB | ok |\n|---|---|---|---|---|\n')
for (const r of runs) {
  process.stdout.write(`| ${r.label} | ${r.seconds.toFixed(2)} | ${Math.round(COUNT / r.seconds).toLocaleString('en-US')} | ${r.maxRssMb} | ${r.ok ? 'yes' : 'NO'} |\n`)
}
for (const r of runs.filter(r => r.label.startsWith('zonal'))) process.stdout.write(`\n${r.label} phases: ${r.detail}`)
process.stdout.write('\n\n| zonal run | peer | time ratio | memory ratio |\n|---|---|---|---|\n')
for (const denial of ['NSEC', 'NSEC3']) {
  const ours = runs.find(r => r.label === `zonal signZone ${denial}`)!
  for (const peer of runs.filter(r => !r.label.startsWith('zonal') && r.label.endsWith(` ${denial}`))) {
    process.stdout.write(`| ${ours.label} | ${peer.label} | ${(ours.seconds / peer.seconds).toFixed(2)} | ${(ours.maxRssMb / peer.maxRssMb).toFixed(2)} |\n`)
  }
}
process.exit(runs.every(r => r.ok) ? 0 : 1)
