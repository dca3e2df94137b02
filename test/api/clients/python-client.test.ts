import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'
import { pythonClients, runPython, ULTRA_REST_CLIENT } from '../../helpers/python-clients.ts'
import { startTestService, type TestService } from '../../helpers/service.ts'

/**
 * The official UltraDNS Python client (ultra_rest_client) against a running service: its zone,
 * rrset, pool, snapshot, batch, export and task methods, over real HTTP, each result as the client
 * hands it to its caller (fixtures/python_client_session.py drives it).
 */
const SESSION = fileURLToPath(new URL('./fixtures/python_client_session.py', import.meta.url))
const clients = pythonClients(ULTRA_REST_CLIENT)

type Json = any

interface RrsetDto { ownerName: string, rrtype: string, ttl: number, rdata: string[], profile?: Json }

function rrsetsOf (body: Json): RrsetDto[] {
  assert.ok(Array.isArray(body?.rrSets), `not an rrset list: ${JSON.stringify(body)}`)
  return body.rrSets as RrsetDto[]
}

function find (body: Json, owner: string, rrtype: string): RrsetDto | undefined {
  return rrsetsOf(body).find(r => r.ownerName === owner && r.rrtype === rrtype)
}

describe('the official Python client (ultra_rest_client)', { skip: 'skip' in clients ? clients.skip : undefined }, () => {
  let running: TestService
  let dir: string
  let steps: Record<string, Json>

  before(async () => {
    if ('skip' in clients) return
    running = await startTestService('python client password')
    const service = running.service
    dir = mkdtempSync(join(tmpdir(), 'zonal-py-client-'))
    const bind = join(dir, 'py-upload.test.zone')
    writeFileSync(bind, [
      '$ORIGIN py-upload.test.',
      '$TTL 3600',
      '@ IN SOA ns1.zonal.test. hostmaster.py-upload.test. 2026112401 7200 3600 1209600 300',
      '@ IN NS ns1.zonal.test.',
      '@ IN NS ns2.zonal.test.',
      'www IN A 192.0.2.80',
      'txt IN TXT "v=DMARC1; p=reject" "; and more"',
      ''
    ].join('\n'))
    const run = await runPython(clients, [SESSION, `127.0.0.1:${service.httpPort}`, 'admin', 'python client password', bind])
    assert.equal(run.code, 0, `the client session failed:\n${run.stderr}`)
    steps = JSON.parse(run.stdout.trim().split('\n').at(-1)!)
  })

  after(async () => {
    await running?.stop()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('authenticates and reads the account, status and version', () => {
    assert.equal(steps.get_account_details.accounts[0].accountName, 'default')
    assert.deepEqual(steps.status, { message: 'Good' })
    assert.equal(typeof steps.version.version, 'string')
  })

  it('creates a primary zone and reads it through every zone read method', () => {
    assert.deepEqual(steps.create_primary_zone, { message: 'Successful' })
    for (const key of ['get_zone_metadata', 'get_zone_metadata_v3']) {
      assert.equal(steps[key].properties.name, 'py-client.test.', key)
      assert.equal(steps[key].properties.type, 'PRIMARY', key)
    }
    for (const key of ['get_zones', 'get_zones_v3', 'get_zones_of_account']) {
      assert.deepEqual(steps[key].zones.map((z: Json) => z.properties.name), ['py-client.test.'], key)
    }
    assert.deepEqual(steps.get_zones_v3.cursorInfo, {})
    // The deprecated account list answers 301 to the v3 list, which requests follows.
    assert.equal(steps.get_zones_of_account.queryInfo.q, 'name:py-client zone_type:PRIMARY account_name:default')
    assert.deepEqual([steps.get_zones_of_account.queryInfo.limit, steps.get_zones_of_account.queryInfo.reverse], [5, true])
  })

  it('creates, reads, edits and deletes rrsets, TXT text kept whole', () => {
    for (const key of ['create_rrset_a', 'create_rrset_txt', 'create_rrset_mx', 'edit_rrset', 'edit_rrset_rdata']) {
      assert.deepEqual(steps[key], { message: 'Successful' }, key)
    }
    const txt = find(steps.get_rrsets_by_type, 'txt.py-client.test.', 'TXT (16)')
    assert.deepEqual(txt?.rdata, ['v=spf1 include:_spf.example.net ~all', 'another value; with a semicolon'])
    assert.ok(find(steps.get_rrsets, 'py-client.test.', 'MX (15)'))
    assert.deepEqual(find(steps.get_rrsets_by_type_owner, 'www.py-client.test.', 'A (1)')?.rdata, ['192.0.2.10'])
    const edited = find(steps.after_edit, 'www.py-client.test.', 'A (1)')
    assert.deepEqual([edited?.ttl, edited?.rdata], [600, ['192.0.2.12']])
    assert.deepEqual(steps.delete_rrset, {})
  })

  it('creates, lists and deletes an RD pool', () => {
    assert.deepEqual(steps.create_rd_pool, { message: 'Successful' })
    const pool = find(steps.get_rd_pools, 'pool.py-client.test.', 'A (1)')
    assert.deepEqual(pool?.rdata, ['192.0.2.20', '192.0.2.21'])
    assert.equal(pool?.profile?.['@context'], 'http://schemas.ultradns.com/RDPool.jsonschema')
    assert.deepEqual(steps.delete_rd_pool, {})
  })

  it('takes a snapshot, reads it, and restores the zone from it', () => {
    assert.notEqual(steps.create_snapshot?.code, 'ERROR', JSON.stringify(steps.create_snapshot))
    assert.ok(!Array.isArray(steps.get_snapshot), JSON.stringify(steps.get_snapshot))
    assert.match(JSON.stringify(steps.get_snapshot), /mail\.py-client\.test\./)
    assert.equal(find(steps.before_restore, 'py-client.test.', 'MX (15)'), undefined)
    assert.notEqual(steps.restore_snapshot?.code, 'ERROR', JSON.stringify(steps.restore_snapshot))
    assert.deepEqual(find(steps.after_restore, 'py-client.test.', 'MX (15)')?.rdata, ['10 mail.py-client.test.'])
    assert.deepEqual(find(steps.after_restore, 'txt.py-client.test.', 'TXT (16)')?.rdata, ['v=spf1 include:_spf.example.net ~all', 'another value; with a semicolon'])
    assert.deepEqual(steps.get_snapshot_none, [{ errorCode: 70002, errorMessage: 'Data not found.' }])
  })

  it('runs a batch', () => {
    assert.deepEqual(steps.batch.map((r: Json) => r.status), [201, 200])
    assert.deepEqual(steps.batch[1].response.rrSets[0].rdata, ['www.py-client.test.'])
  })

  it('exports the zone as the BIND text it returns to its caller', () => {
    assert.equal(typeof steps.export_zone, 'string', JSON.stringify(steps.export_zone))
    assert.match(steps.export_zone, /^\$ORIGIN py-client\.test\.$/m)
    assert.match(steps.export_zone, /"v=spf1 include:_spf\.example\.net ~all"/)
    assert.match(steps.export_zone, /"another value; with a semicolon"/)
  })

  it('creates a zone by upload in the client\'s multipart layout', () => {
    assert.notEqual(steps.create_primary_zone_by_upload?.code, 'ERROR', JSON.stringify(steps.create_primary_zone_by_upload))
    assert.ok(!Array.isArray(steps.create_primary_zone_by_upload), JSON.stringify(steps.create_primary_zone_by_upload))
    assert.deepEqual(find(steps.upload_rrsets, 'www.py-upload.test.', 'A (1)')?.rdata, ['192.0.2.80'])
    assert.deepEqual(find(steps.upload_rrsets, 'txt.py-upload.test.', 'TXT (16)')?.rdata, ['v=DMARC1; p=reject; and more'])
  })

  it('creates a secondary zone, edits its primaries, asks for a transfer and converts it', () => {
    assert.deepEqual(steps.create_secondary_zone, { message: 'Successful' })
    assert.deepEqual(steps.edit_secondary_name_server, { message: 'Successful' })
    const servers = steps.secondary_metadata.primaryNameServers.nameServerIpList
    assert.deepEqual([servers.nameServerIp1.ip, servers.nameServerIp2.ip], ['127.0.0.2', '127.0.0.3'])
    assert.deepEqual(steps.force_axfr, { message: 'Successful' })
    assert.deepEqual(steps.convert_zone, { message: 'Successful' })
    assert.equal(steps.converted_metadata.properties.type, 'PRIMARY')
  })

  it('lists, reads and clears tasks', () => {
    assert.ok(steps.get_all_tasks.tasks.length > 0, JSON.stringify(steps.get_all_tasks))
    assert.equal(typeof steps.get_task.taskId, 'string')
    assert.deepEqual(steps.clear_task, {})
    assert.equal(steps.get_cleared_task[0].errorCode, 54001)
  })

  it('deletes the zones', () => {
    for (const name of ['py-client.test.', 'py-upload.test.', 'py-secondary.test.']) assert.deepEqual(steps[`delete_zone ${name}`], {})
    assert.equal(steps.get_deleted_zone[0].errorCode, 1801)
  })
})
