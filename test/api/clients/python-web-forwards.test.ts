/**
 * The official Python client's web forward calls (`create_web_forward`, `get_web_forwards`,
 * `delete_web_forward`: /v1 paths, its JSON body keys and headers) against a running service:
 * each answers what the client expects (the guid, the WebForwardList DTO, an empty body for the
 * delete's 204), and the forwarded host answers the forwarding server's address in DNS.
 */
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'
import { RRType } from '../../../src/zone/rrtype.ts'
import { ask } from '../../helpers/dnssec-zones.ts'
import { eventually } from '../../helpers/named.ts'
import { pythonClients, runPython, ULTRA_REST_CLIENT } from '../../helpers/python-clients.ts'
import { startTestService, type TestService } from '../../helpers/service.ts'
import { sampleZone, storeZone } from '../../helpers/stored-zones.ts'

const SCRIPT = fileURLToPath(new URL('./fixtures/python_web_forwards.py', import.meta.url))
const clients = pythonClients(ULTRA_REST_CLIENT)
const PASSWORD = 'python web forwards password'

describe('the official Python client: web forwards', { skip: 'skip' in clients ? clients.skip : undefined }, () => {
  let t: TestService
  before(async () => {
    t = await startTestService(PASSWORD, { ZONAL_DNS_WORKERS: '0' })
    await storeZone(t.service.store, 'default', 'example.org.', sampleZone('example.org.'))
    await t.service.dns.loaded
  })
  after(async () => await t?.stop())

  it('creates two forwards, lists them and deletes one with the client\'s own calls', async () => {
    if ('skip' in clients) return
    const run = await runPython(clients, [SCRIPT, `127.0.0.1:${t.service.httpPort}`, 'admin', PASSWORD, 'example.org', 'go.example.org'])
    assert.equal(run.code, 0, `the client failed:\n${run.stderr}`)
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, any>
    assert.match(out.created.guid, /^[0-9A-F]{16}$/)
    assert.match(out.framed.guid, /^[0-9A-F]{16}$/)
    assert.deepEqual(out.listed.queryInfo, { sort: 'REQUEST_TO', reverse: false, limit: 100 })
    assert.deepEqual(out.listed.resultInfo, { totalCount: 2, offset: 0, returnedCount: 2 })
    assert.deepEqual(out.listed.webForwards, [
      { guid: out.created.guid, requestTo: 'go.example.org', defaultRedirectTo: 'https://www.example.net/', defaultForwardType: 'HTTP_301_REDIRECT' },
      { guid: out.framed.guid, requestTo: 'go.example.org/about#team', defaultRedirectTo: 'http://about.example.net', defaultForwardType: 'Framed' }
    ])
    assert.deepEqual(out.deleted, {})
    assert.deepEqual(out.after.webForwards.map((f: { guid: string }) => f.guid), [out.created.guid])
    const addresses = async (): Promise<string[]> => (await ask(t.service.dns.port, 'go.example.org.', 'A')).answers.filter(r => r.type === RRType.A).map(r => [...r.rdata].join('.'))
    await eventually(async () => (await addresses()).length > 0, 10_000, 'go.example.org A served')
    assert.deepEqual(await addresses(), ['127.0.0.1'])
  })
})
