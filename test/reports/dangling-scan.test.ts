/**
 * The dangling DNS scan (src/reports/dangling-scan.ts) against a fake resolver on loopback, on
 * both engines: chains followed at once stay within the bound, names shared by records are asked
 * once, progress is reported with the count of CNAME records, and the zone's type, size and the
 * resolvers setting are checked when the scan starts.
 */
import assert from 'node:assert/strict'
import { createSocket, type Socket } from 'node:dgram'
import { after, before, describe, it } from 'node:test'
import { isZonalError } from '../../src/errors/catalog.ts'
import { decodeMessage } from '../../src/dns/wire/message.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { scanZone } from '../../src/reports/dangling-scan.ts'
import type { Store } from '../../src/store/store.ts'
import { nameToString } from '../../src/zone/name.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'
import { storeZone } from '../helpers/stored-zones.ts'

/** A resolver answering NXDOMAIN after `holdMs`, counting the questions it holds at once. */
async function slowResolver (holdMs: number): Promise<{ port: number, asked: string[], maxOutstanding: () => number, close: () => void }> {
  const socket: Socket = createSocket('udp4')
  const asked: string[] = []
  let outstanding = 0
  let max = 0
  socket.on('message', (msg, rinfo) => {
    const q = decodeMessage(msg)
    asked.push(nameToString(q.questions[0]!.name))
    max = Math.max(max, ++outstanding)
    setTimeout(() => {
      outstanding--
      const w = new MessageWriter(512)
      w.header({ id: q.id, qr: true, opcode: 0, aa: false, tc: false, rd: true, ra: true, ad: false, cd: false, rcode: 3 })
      w.question(q.questions[0]!)
      socket.send(w.finish(), rinfo.port, rinfo.address)
    }, holdMs)
  })
  await new Promise<void>(resolve => socket.bind(0, '127.0.0.1', resolve))
  return { port: socket.address().port, asked, maxOutstanding: () => max, close: () => socket.close() }
}

const HEAD = '$TTL 300\n@ IN SOA ns1.zonal.test. hostmaster.scan.example. 1 7200 3600 1209600 300\n@ IN NS ns1.zonal.test.\n'

for (const engine of await engineCases()) {
  describe(`${engine.name}: scanZone`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let resolver: Awaited<ReturnType<typeof slowResolver>>

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      await store.accounts.create('acme')
      resolver = await slowResolver(30)
    })
    after(async () => {
      resolver?.close()
      await close?.()
    })

    it('follows at most `concurrency` chains at once and asks each name once', async () => {
      let text = HEAD
      for (let i = 0; i < 24; i++) text += `r${i} IN CNAME t${i % 12}.ext-test.\n`
      const zone = await storeZone(store, 'acme', 'scan.example.', text)
      const progress: Array<[number, number]> = []
      const result = await scanZone(store, zone.id, { resolvers: [`127.0.0.1:${resolver.port}`], concurrency: 3, queriesPerSecond: 10_000 }, async (checked, total) => { progress.push([checked, total]) })
      assert.equal(result.checked, 24)
      assert.equal(result.findings.length, 24)
      assert.equal(result.queries, 12)
      assert.deepEqual([...resolver.asked].sort(), Array.from({ length: 12 }, (_, i) => `t${i}.ext-test.`).sort(), 'each target asked once')
      assert.ok(resolver.maxOutstanding() <= 3, `${resolver.maxOutstanding()} questions held at once, the bound is 3 chains`)
      assert.deepEqual(progress[0], [0, 24], 'progress starts with the number of CNAME records')
      const finding = result.findings.find(f => f.ownerName === 'r0.scan.example.')
      assert.deepEqual(finding, { ownerName: 'r0.scan.example.', type: 5, rdataText: 't0.ext-test.', ultimateTarget: 't0.ext-test.', description: 'CNAME target does not resolve: the name does not exist (NXDOMAIN).' })
    })

    it('checks the zone and the resolvers setting when it starts', async () => {
      const big = await storeZone(store, 'acme', 'big.scan.example.', HEAD.replaceAll('scan.example.', 'big.scan.example.'))
      await store.zones.update(big.id, { record_count: 20_001 })
      const secondary = await storeZone(store, 'acme', 'secondary.scan.example.', '', { type: 'SECONDARY' })
      const ok = await storeZone(store, 'acme', 'ok.scan.example.', HEAD.replaceAll('scan.example.', 'ok.scan.example.'))
      const cases: Array<[string, string[], string]> = [
        [big.id, ['127.0.0.1'], 'DANGLING_ZONE_TOO_LARGE'],
        [secondary.id, ['127.0.0.1'], 'DANGLING_ZONE_NOT_PRIMARY'],
        ['no-such-zone', ['127.0.0.1'], 'ZONE_NOT_FOUND'],
        [ok.id, [], 'DANGLING_NO_RESOLVERS'],
        [ok.id, ['resolver.example.test'], 'DANGLING_SCAN_FAILED']
      ]
      for (const [zoneId, resolvers, code] of cases) {
        await assert.rejects(scanZone(store, zoneId, { resolvers }, async () => {}), (err: unknown) => isZonalError(err) && err.code === code, code)
      }
      await assert.rejects(scanZone(store, ok.id, { resolvers: ['resolver.example.test'] }, async () => {}), /ZONAL_RESOLVERS must be comma-separated IP addresses, each with an optional port .*, got "resolver\.example\.test"/)
      const empty = await scanZone(store, ok.id, { resolvers: [`127.0.0.1:${resolver.port}`] }, async () => {})
      assert.deepEqual(empty, { findings: [], checked: 0, queries: 0 }, 'a zone without CNAME records asks nothing')
    })
  })
}
