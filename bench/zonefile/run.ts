import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateZone } from './generate.ts'

/**
 * Zone-file benchmark: parse + validate + write a generated zone with our code, and check the
 * same file with BIND's named-checkzone and Knot's kzonecheck in the same run. Reports wall
 * time, records per second, peak RSS and the ratios (ours / peer; below 1.0 is faster).
 */
const COUNT = Number(process.env.BENCH_RECORDS ?? 1_000_000)
const ORIGIN = 'bench.test.'
const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'bench', '.work')
mkdirSync(work, { recursive: true })
const zone = join(work, `zone-${COUNT}.zone`)
if (!existsSync(zone)) {
  process.stderr.write(`generating ${COUNT} records into ${zone}\n`)
  await generateZone(zone, COUNT, ORIGIN)
}
const size = statSync(zone).size

interface Run { label: string, seconds: number, maxRssMb: number, ok: boolean, detail: string }

/** Run a command under /usr/bin/time, returning wall seconds and peak RSS. */
function timed (label: string, cmd: string, args: string[]): Run {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', cmd, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 })
  const lines = r.stderr.trim().split('\n')
  const [wall, rssKb] = (lines.at(-1) ?? '0 0').split(' ').map(Number) as [number, number]
  return { label, seconds: wall, maxRssMb: Math.round(rssKb / 1024), ok: r.status === 0, detail: (r.stdout.trim().split('\n').at(-1) ?? '') }
}

function available (cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0
}

const runs: Run[] = []
const repeat = Number(process.env.BENCH_REPEAT ?? 3)
const best = (make: () => Run): Run => {
  const all = Array.from({ length: repeat }, make)
  return all.sort((a, b) => a.seconds - b.seconds)[0]!
}
runs.push(best(() => timed('zonal parse+check+write', process.execPath, ['bench/zonefile/ours.ts', zone, ORIGIN, join(work, 'out.zone')])))
runs.push(best(() => timed('zonal parse+check', process.execPath, ['bench/zonefile/ours.ts', zone, ORIGIN])))
// `-i local`: integrity checks of in-zone names only. With the default (`full`) BIND resolves
// out-of-zone MX/NS/SRV targets through the system resolver, which would send DNS traffic off
// this machine (and time out here).
if (available('named-checkzone')) runs.push(best(() => timed('named-checkzone (parse+check)', 'named-checkzone', ['-q', '-i', 'local', ORIGIN, zone])))
if (available('named-compilezone')) runs.push(best(() => timed('named-compilezone (parse+check+write)', 'named-compilezone', ['-q', '-i', 'local', '-s', 'full', '-o', join(work, 'bind-out.zone'), ORIGIN, zone])))
if (available('kzonecheck')) runs.push(best(() => timed('kzonecheck (parse+check)', 'kzonecheck', ['-o', ORIGIN, zone])))
else process.stdout.write('kzonecheck not installed (apt-get install knot-dnssecutils): skipped\n')

process.stdout.write(`zone: ${COUNT} records, ${(size / 1e6).toFixed(1)} MB; best of ${repeat}\n`)
process.stdout.write(`zonal phases: ${runs[0]!.detail}\n\n`)
process.stdout.write('| tool | wall s | records/s | peak RSS MB | ok |\n|---|---|---|---|---|\n')
for (const r of runs) {
  process.stdout.write(`| ${r.label} | ${r.seconds.toFixed(2)} | ${Math.round(COUNT / r.seconds).toLocaleString('en-US')} | ${r.maxRssMb} | ${r.ok ? 'yes' : 'NO'} |\n`)
}
// Ratios between runs doing the same work: below 1.0 means Zonal is faster or smaller.
const find = (prefix: string): Run | undefined => runs.find(r => r.label.startsWith(prefix))
const pairs: [string, string][] = [
  ['zonal parse+check', 'named-checkzone'],
  ['zonal parse+check', 'kzonecheck'],
  ['zonal parse+check+write', 'named-compilezone'],
  ['zonal parse+check+write', 'named-checkzone']
]
process.stdout.write('\n| zonal run | peer | time ratio | memory ratio |\n|---|---|---|---|\n')
for (const [a, b] of pairs) {
  const x = runs.find(r => r.label === a)
  const y = find(b)
  if (x !== undefined && y !== undefined) process.stdout.write(`| ${a} | ${y.label} | ${(x.seconds / y.seconds).toFixed(2)} | ${(x.maxRssMb / y.maxRssMb).toFixed(2)} |\n`)
}
