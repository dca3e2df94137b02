/**
 * DNS keeps answering while the API is busy: a large zone upload and concurrent API clients run
 * on the main thread while a client asks one question after another over UDP. What is asserted
 * is that answers keep coming through the whole upload (in every quarter of it), not how fast:
 * the latency figures belong to `npm run bench -- latency`.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Worker } from 'node:worker_threads'
import { parseName } from '../../src/zone/name.ts'
import { ZONE } from '../helpers/dns-clients.ts'
import { eventually } from '../helpers/named.ts'
import { startTestService, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'
import { bigZoneText } from '../helpers/generated.ts'

const UPLOAD_RECORDS = 120_000
const API_CLIENTS = 20

describe('DNS while the API uploads a large zone', () => {
  let t: TestService
  let base: string
  let token: string
  before(async () => {
    t = await startTestService('admin password', { ZONAL_RATE_LIMIT_MAX: '0' })
    base = `http://127.0.0.1:${t.service.httpPort}`
    await storeZone(t.service.store, 'default', 'example.org.', ZONE.replace(/^\$ORIGIN.*\n/, ''))
    await eventually(async () => t.service.dns.index.find(parseName('example.org.')) !== undefined, 10_000, 'zone loaded')
    await t.service.dns.settled()
    const login = await fetch(`${base}/v1/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin password' }) })
    token = (await login.json() as { accessToken: string }).accessToken
  })
  after(async () => await t?.stop())

  it('answers in every quarter of the upload, with API clients busy beside it', async () => {
    // The asking client runs in a thread of its own: this thread hosts the service.
    const asker = new Worker(new URL('../helpers/dns-asker.ts', import.meta.url), { workerData: { port: t.service.dns.port, name: 'mail.example.org.', type: 'A' } })
    const state = { running: true }
    const busy = Array.from({ length: API_CLIENTS }, async () => {
      while (state.running) {
        const res = await fetch(`${base}/v3/zones?limit=100`, { headers: { authorization: `Bearer ${token}` } })
        await res.arrayBuffer()
      }
    })

    const start = Date.now()
    const form = new FormData()
    form.append('zone', JSON.stringify({ properties: { name: 'big.test.', accountName: 'default', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }))
    form.append('file', new Blob([bigZoneText('big.test.', UPLOAD_RECORDS)]), 'file')
    const res = await fetch(`${base}/v1/zones`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
    assert.ok(res.status === 201 || res.status === 202, `${res.status} ${await res.text()}`)
    const task = res.headers.get('x-task-id')
    if (task !== null) {
      await eventually(async () => {
        const r = await fetch(`${base}/v1/tasks/${task}`, { headers: { authorization: `Bearer ${token}` } })
        const body = await r.json() as { code: string }
        assert.notEqual(body.code, 'ERROR')
        return body.code === 'COMPLETE'
      }, 300_000, 'upload task')
    }
    const end = Date.now()
    state.running = false
    const result = new Promise<{ answered: number[], lost: number }>(resolve => asker.once('message', resolve))
    asker.postMessage('stop')
    const { answered, lost } = await result
    await Promise.all(busy)

    const quarter = (end - start) / 4
    const perQuarter = [0, 1, 2, 3].map(q => answered.filter(at => at >= start + q * quarter && at < start + (q + 1) * quarter).length)
    assert.ok(perQuarter.every(n => n > 0), `answers in each quarter of the ${Math.round(end - start)} ms upload: ${perQuarter.join(', ')} (${lost} unanswered)`)
  })
})
