import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { installed, memory, processTree, startKnot, startNamed, startNsd, stop, waitForSoa, type Running } from '../../../bench/dns/servers.ts'
import { generateZone } from '../../../bench/zonefile/generate.ts'

/**
 * The DNS benchmark's peers: each starts on the generated zone, answers its SOA, reports its
 * memory and leaves no process behind when stopped. A peer that is not installed is skipped
 * with a visible line, as the benchmark skips it.
 */
const ORIGIN = 'bench.test.'
const SERIAL = 2024010101
let dir: string
let zone: string

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zonal-bench-peers-'))
  zone = join(dir, 'zone-5.zone')
  await generateZone(zone, 5, ORIGIN)
})
after(() => rmSync(dir, { recursive: true, force: true }))

/** Alive: /proc has it and it is not a zombie. */
function alive (pid: number): boolean {
  if (!existsSync(`/proc/${pid}/stat`)) return false
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

const peers: Array<[string, string, (zoneFile: string, origin: string, dir: string) => Promise<Running>, number]> = [
  ['BIND named', 'named', startNamed, 1],
  ['NSD', 'nsd', startNsd, 3],
  ['Knot DNS', 'knotd', startKnot, 1]
]

describe('DNS benchmark peers', () => {
  for (const [label, command, start, processes] of peers) {
    const skip = installed(command, 'dig') ? false : `${command} or dig not installed`
    if (skip !== false) console.log(`# ${label} benchmark peer SKIPPED: ${skip}`)
    it(`${label} answers the zone's SOA, reports its memory and stops with all its processes`, { skip }, async () => {
      const server = await start(zone, ORIGIN, join(dir, command))
      let tree: number[] = []
      try {
        const ms = await waitForSoa(server.port, ORIGIN, SERIAL, server.spawnedAt, 20_000, server.child)
        assert.ok(ms > 0)
        // NSD forks its xfrd and server processes after the start; wait for all of them.
        for (let i = 0; i < 100 && processTree(server.child.pid!).length < processes; i++) await new Promise(resolve => setTimeout(resolve, 50))
        tree = processTree(server.child.pid!)
        assert.equal(tree.length, processes)
        const { rssMb, peakMb } = memory(server)
        assert.ok(rssMb > 1 && peakMb >= rssMb, `memory ${rssMb} MB, peak ${peakMb} MB`)
      } finally {
        await stop(server)
      }
      for (let i = 0; i < 100 && tree.some(alive); i++) await new Promise(resolve => setTimeout(resolve, 50))
      assert.deepEqual(tree.filter(alive), [])
    })
  }

  it('waitForSoa gives up as soon as the server has exited', async () => {
    const child = spawn(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' })
    await once(child, 'exit')
    const since = performance.now()
    await assert.rejects(waitForSoa(1, ORIGIN, SERIAL, since, 60_000, child), /exited \(3\) before answering/)
    assert.ok(performance.now() - since < 5_000)
  })
})
