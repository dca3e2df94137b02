/**
 * The official Python client's dangling CNAME check (`create_dangling_cname_check`,
 * `get_dangling_cname_check`) against the whole service, end to end: the service serves the zone
 * over DNS, a recursive BIND on loopback (test/helpers/resolver-world.ts) forwards the zone's
 * names to the service's DNS port and everything else to an authoritative BIND holding
 * `ext-test.`, and the service's `ZONAL_RESOLVERS` is that recursive BIND. In-zone targets are
 * followed through the resolvers like any other.
 */
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'
import { bindSkip, dig, eventually, freeDnsPort } from '../../helpers/named.ts'
import { pythonClients, runPython, ULTRA_REST_CLIENT } from '../../helpers/python-clients.ts'
import { startResolverWorld, type ResolverWorld } from '../../helpers/resolver-world.ts'
import { startTestService, type TestService } from '../../helpers/service.ts'
import { storeZone } from '../../helpers/stored-zones.ts'

const SCRIPT = fileURLToPath(new URL('./fixtures/python_dangling_check.py', import.meta.url))
const clients = pythonClients(ULTRA_REST_CLIENT)
const noBind = bindSkip('named', 'dig')
const ZONE = `$TTL 300
@        IN SOA ns1.zonal.test. hostmaster.py-dangling.test. 2026112601 7200 3600 1209600 300
@        IN NS  ns1.zonal.test.
www      IN A     192.0.2.80
blog     IN CNAME www
old      IN CNAME removed
shop     IN CNAME hop1.ext-test.
cdn      IN CNAME good1.ext-test.
`

describe('the official Python client: dangling CNAME check', { skip: 'skip' in clients ? clients.skip : noBind }, () => {
  let world: ResolverWorld
  let t: TestService
  before(async () => {
    const dnsPort = await freeDnsPort()
    world = await startResolverWorld({ forwardZones: { 'py-dangling.test.': dnsPort } })
    t = await startTestService('python dangling password', { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_PORT: String(dnsPort), ZONAL_DNS_WORKERS: '0', ZONAL_DNS_RRL: '0', ZONAL_RESOLVERS: world.resolvers })
    await storeZone(t.service.store, 'default', 'py-dangling.test.', ZONE)
    await t.service.dns.loaded
    // The zone reaches the recursive resolver through the service's DNS.
    await eventually(async () => (await dig(world.recursivePort, 'www.py-dangling.test.', 'A', '+short')).trim() === '192.0.2.80', 10_000, 'the zone served')
  })
  after(async () => {
    await t?.stop()
    await world?.stop()
  })

  it('starts the check and reads the report as the client returns them', async () => {
    if ('skip' in clients) return
    const run = await runPython(clients, [SCRIPT, `127.0.0.1:${t.service.httpPort}`, 'admin', 'python dangling password', 'py-dangling.test.'])
    assert.equal(run.code, 0, `the client failed:\n${run.stderr}`)
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { created: any, report: any }
    assert.equal(out.created.zone, 'py-dangling.test.')
    assert.equal(out.created.status, 'IN_PROGRESS')
    assert.match(out.created.version, /^\d{4}-\d{2}-\d{2}-\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    const report = out.report
    assert.equal(report.status, 'COMPLETED', JSON.stringify(report))
    assert.equal(report.version, out.created.version)
    assert.deepEqual(report.resultInfo, { totalCount: 2, offset: 0, returnedCount: 2, order: 'ASC' })
    assert.deepEqual(report.danglingRecordList, [
      { host: 'old.py-dangling.test', type: 'CNAME', recordData: 'removed.py-dangling.test', ultimateTarget: 'removed.py-dangling.test', description: 'CNAME target does not resolve: the name does not exist (NXDOMAIN).' },
      { host: 'shop.py-dangling.test', type: 'CNAME', recordData: 'hop1.ext-test', ultimateTarget: 'gone.ext-test', description: 'CNAME chain ends in a name that does not exist (NXDOMAIN): hop1.ext-test → hop2.ext-test → gone.ext-test' }
    ])
    assert.deepEqual(report.danglingRecordsList, report.danglingRecordList)
  })
})
