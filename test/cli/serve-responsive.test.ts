/**
 * Heavy task work runs off the event loop that serves the API (zone-file parsing of uploads and
 * export writing in a worker thread, row inserts and reads letting the loop run between
 * batches): `GET /status` keeps answering while a large upload or a many-zone export runs.
 *
 * The check counts answers, not time: one loop sends `GET /status` after `GET /status` and, every
 * tenth request, asks for the task; it stops once the task has finished. While the work held the
 * event loop, the only answers were the few around the task's start and its end (at most about
 * twenty); off the loop, the status requests keep being answered throughout.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { RunningService } from '../../src/cli/serve.ts'
import { startTestService, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'
import { bigZoneText } from '../helpers/generated.ts'

const UPLOAD_RECORDS = 150_000
const EXPORT_ZONES = 100
const EXPORT_RECORDS = 1000
/** Status answers required while the task runs (well above the ~20 a blocked loop lets through). */
const MIN_ANSWERS = 100

interface Task { code: string, message: string, resultUri?: string }

describe('sqlite: serve answers GET /status while heavy tasks run', () => {
  let running: TestService
  let service: RunningService
  let base: string
  let headers: Record<string, string>

  before(async () => {
    // Thousands of status requests: no rate limit.
    running = await startTestService('admin password', { ZONAL_ADMIN_ACCOUNT: 'acme', ZONAL_RATE_LIMIT_MAX: '0' })
    service = running.service
    base = `http://127.0.0.1:${service.httpPort}`
    const login = await fetch(`${base}/authorization/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin password' })
    })
    headers = { authorization: `Bearer ${(await login.json() as { accessToken: string }).accessToken}` }
  })
  after(async () => { await running?.stop() })

  /**
   * Send `GET /status` requests one after another from now until the task is no longer PENDING
   * or IN_PROCESS (asked every tenth request); resolves to the status answers and the task.
   */
  async function statusWhile (taskId: Promise<string>): Promise<{ answers: number, task: Task }> {
    let answers = 0
    let id: string | undefined
    taskId.then(v => { id = v }, () => {})
    for (let i = 1; ; i++) {
      const res = await fetch(`${base}/status`)
      assert.equal(res.status, 200)
      assert.deepEqual(await res.json(), { message: 'Good' })
      answers++
      if (i % 10 !== 0) continue
      const current = id ?? await taskId
      const task = await (await fetch(`${base}/tasks/${current}`, { headers })).json() as Task
      if (task.code !== 'PENDING' && task.code !== 'IN_PROCESS') return { answers, task }
    }
  }

  it(`keeps answering during a ${UPLOAD_RECORDS.toLocaleString('en-US')}-record upload, and the zone appears whole`, async (t) => {
    const form = new FormData()
    form.append('zone', JSON.stringify({ properties: { name: 'big.example.org.', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }))
    form.append('file', new Blob([bigZoneText('big.example.org.', UPLOAD_RECORDS)]), 'big.zone')
    const taskId = (async () => {
      const res = await fetch(`${base}/zones`, { method: 'POST', headers, body: form })
      assert.equal(res.status, 202, await res.text())
      return res.headers.get('x-task-id')!
    })()
    const { answers, task } = await statusWhile(taskId)
    assert.equal(task.code, 'COMPLETE', task.message)
    assert.equal(task.message, `Zone big.example.org. created with ${UPLOAD_RECORDS} records.`)
    t.diagnostic(`${answers} GET /status answers while the upload ran`)
    assert.ok(answers >= MIN_ANSWERS, `only ${answers} GET /status answers while the upload ran`)
    const zone = await (await fetch(`${base}/zones/big.example.org.`, { headers })).json() as { properties: { recordCount: number } }
    assert.equal(zone.properties.recordCount, UPLOAD_RECORDS)
  })

  it(`keeps answering during an export of ${EXPORT_ZONES} zones`, async (t) => {
    const names: string[] = []
    for (let i = 0; i < EXPORT_ZONES; i++) {
      names.push(`x${i}.example.org.`)
      await storeZone(service.store, 'acme', names[i]!, bigZoneText(names[i]!, EXPORT_RECORDS))
    }
    const taskId = (async () => {
      const res = await fetch(`${base}/zones/export`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ zoneNames: names }) })
      assert.equal(res.status, 202, await res.text())
      return res.headers.get('x-task-id')!
    })()
    const { answers, task } = await statusWhile(taskId)
    assert.equal(task.code, 'COMPLETE', task.message)
    assert.equal(task.message, `Export of ${EXPORT_ZONES} zones completed.`)
    t.diagnostic(`${answers} GET /status answers while the export ran`)
    assert.ok(answers >= MIN_ANSWERS, `only ${answers} GET /status answers while the export ran`)
    const zip = Buffer.from(await (await fetch(`${base}${task.resultUri!}`, { headers })).arrayBuffer())
    assert.equal(zip.readUInt32LE(0), 0x04034b50)
  })
})
