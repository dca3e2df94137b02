import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import type { RunningService } from '../../src/cli/serve.ts'
import { startTestService, type TestService } from '../helpers/service.ts'
import { sampleZone, storeZone } from '../helpers/stored-zones.ts'

describe('sqlite: serve runs background tasks', () => {
  let running: TestService
  let service: RunningService
  before(async () => {
    running = await startTestService('admin password', { ZONAL_ADMIN_ACCOUNT: 'acme', ZONAL_TASK_CONCURRENCY: '3' })
    service = running.service
  })
  after(async () => { await running?.stop() })

  it('exports a zone over HTTP: 202, the task completes, the result downloads; close stops the runner first', async () => {
    const base = `http://127.0.0.1:${service.httpPort}`
    await storeZone(service.store, 'acme', 'example.org.', sampleZone('example.org.'))
    const login = await fetch(`${base}/authorization/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin password' })
    })
    const headers = { authorization: `Bearer ${(await login.json() as { accessToken: string }).accessToken}`, 'content-type': 'application/json' }
    const started = await fetch(`${base}/v3/zones/export`, { method: 'POST', headers, body: JSON.stringify({ zoneNames: ['example.org.'] }) })
    assert.equal(started.status, 202)
    const id = started.headers.get('x-task-id')
    let task: { code?: string, resultUri?: string } = {}
    for (let i = 0; i < 200 && task.code !== 'COMPLETE'; i++) {
      await sleep(25)
      task = await (await fetch(`${base}/v1/tasks/${id}`, { headers })).json() as typeof task
    }
    assert.equal(task.code, 'COMPLETE')
    const file = await fetch(`${base}${task.resultUri}`, { headers })
    assert.equal(file.headers.get('content-type'), 'text/plain')
    assert.match(await file.text(), /^; Zone example\.org\.\n/)
    await service.close()
    assert.equal(service.tasks.active, 0)
  })
})
