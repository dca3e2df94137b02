/**
 * The dangling DNS scan job (src/tasks/jobs/dangling-scan.ts) run directly, on both engines, with
 * a fake resolver on loopback that answers when the test lets it: a report replaced by a newer
 * scan while the job runs keeps the newer one (the job ends "superseded" and writes nothing), a
 * task that is no longer this report's does nothing, and a worker that lost its task leaves the
 * report to the worker that took it over.
 */
import assert from 'node:assert/strict'
import { createSocket, type Socket } from 'node:dgram'
import { after, before, describe, it } from 'node:test'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { MessageWriter } from '../../../src/dns/wire/writer.ts'
import type { Store } from '../../../src/store/store.ts'
import { danglingScanJob } from '../../../src/tasks/jobs/dangling-scan.ts'
import type { TaskContext } from '../../../src/tasks/runner.ts'
import { engineCases, freshStore } from '../../helpers/engines.ts'
import { storeZone } from '../../helpers/stored-zones.ts'

const ZONE = '$TTL 300\n@ IN SOA ns1.zonal.test. hostmaster.example.org. 1 7200 3600 1209600 300\n@ IN NS ns1.zonal.test.\nold IN CNAME gone.ext-test.\nold2 IN CNAME gone2.ext-test.\n'

/** A resolver answering NXDOMAIN to each query once `release()` was called; `asked` resolves at the first query. */
async function heldResolver (): Promise<{ port: number, asked: Promise<void>, release: () => void, close: () => void }> {
  const socket: Socket = createSocket('udp4')
  let release = (): void => {}
  const released = new Promise<void>(resolve => { release = resolve })
  let asked = (): void => {}
  const firstQuery = new Promise<void>(resolve => { asked = resolve })
  socket.on('message', (msg, rinfo) => {
    asked()
    released.then(() => {
      const q = decodeMessage(msg)
      const w = new MessageWriter(512)
      w.header({ id: q.id, qr: true, opcode: 0, aa: false, tc: false, rd: true, ra: true, ad: false, cd: false, rcode: 3 })
      w.question(q.questions[0]!)
      socket.send(w.finish(), rinfo.port, rinfo.address)
    }).catch(() => {})
  })
  await new Promise<void>(resolve => socket.bind(0, '127.0.0.1', resolve))
  return { port: socket.address().port, asked: firstQuery, release, close: () => socket.close() }
}

function context (store: Store, payload: unknown, signal = new AbortController().signal): TaskContext {
  return { task: {} as TaskContext['task'], payload, store, signal, reportProgress: async () => {} }
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: the dangling-scan job`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let zoneId: string
    let accountId: string

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      accountId = (await store.accounts.create('acme')).id
      zoneId = (await storeZone(store, 'acme', 'example.org.', ZONE)).id
    })
    after(async () => { await close?.() })

    it('does nothing for a report that is no longer its version', async () => {
      await store.danglingReports.start({ zoneId, accountId, version: '2026-11-26T08:00:00.000Z', taskId: null, message: 'waiting' })
      const job = danglingScanJob({ resolvers: [] })
      assert.deepEqual(await job(context(store, { zoneId, version: '2026-11-26T07:00:00.000Z' })), { message: 'Dangling DNS scan superseded by a newer one.' })
      const report = await store.danglingReports.current(zoneId)
      assert.deepEqual([report?.status, report?.message], ['IN_PROGRESS', 'waiting'])
    })

    it('keeps the newer report when a scan is replaced while it runs', async () => {
      const resolver = await heldResolver()
      try {
        await store.danglingReports.start({ zoneId, accountId, version: '2026-11-26T09:00:00.000Z', taskId: null, message: 'waiting' })
        const running = danglingScanJob({ resolvers: [`127.0.0.1:${resolver.port}`] })(context(store, { zoneId, version: '2026-11-26T09:00:00.000Z' }))
        await resolver.asked
        await store.danglingReports.start({ zoneId, accountId, version: '2026-11-26T09:00:01.000Z', taskId: null, message: 'newer' })
        resolver.release()
        assert.deepEqual(await running, { message: 'Dangling DNS scan superseded by a newer one.' })
        const report = await store.danglingReports.current(zoneId)
        assert.deepEqual([report?.version, report?.status, report?.message], ['2026-11-26T09:00:01.000Z', 'IN_PROGRESS', 'newer'])
      } finally {
        resolver.close()
      }
    })

    it('leaves the report alone when its worker lost the task, and completes it otherwise', async () => {
      const resolver = await heldResolver()
      try {
        const version = '2026-11-26T10:00:00.000Z'
        await store.danglingReports.start({ zoneId, accountId, version, taskId: null, message: 'waiting' })
        const lost = new AbortController()
        const running = danglingScanJob({ resolvers: [`127.0.0.1:${resolver.port}`], concurrency: 1 })(context(store, { zoneId, version }, lost.signal))
        await resolver.asked
        lost.abort()
        resolver.release()
        // The first record was being followed when the lease went: the scan stops before the next one.
        await assert.rejects(running, /the scan was stopped/)
        const report = await store.danglingReports.current(zoneId)
        assert.deepEqual([report?.version, report?.status, report?.message], [version, 'IN_PROGRESS', 'Checked 0 of 2 CNAME records.'], 'a worker that lost its task writes no failure')

        const again = '2026-11-26T10:00:01.000Z'
        await store.danglingReports.start({ zoneId, accountId, version: again, taskId: null, message: 'waiting' })
        assert.match((await danglingScanJob({ resolvers: [`127.0.0.1:${resolver.port}`] })(context(store, { zoneId, version: again }))).message, /^Checked 2 CNAME records \(2 names asked\): 2 dangling\.$/)
        const done = await store.danglingReports.current(zoneId)
        assert.deepEqual([done?.status, done?.findings?.map(f => f.ultimateTarget).sort()], ['COMPLETED', ['gone.ext-test.', 'gone2.ext-test.']])
      } finally {
        resolver.close()
      }
    })
  })
}
