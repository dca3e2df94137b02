/**
 * The zone routes against the real clients, over HTTP on loopback: `curl -F` uploads a zone as
 * the README shows, and the official Python client (`ultra_rest_client`, read from
 * `ZONAL_TEST_CLIENTS_DIR`) uploads one and sends its other zone bodies. Each part skips with a
 * visible line when its client is not on this machine.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { TEST_PASSWORD, buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { runProcess } from '../../../helpers/process.ts'
import { pythonClients, runPython, ULTRA_REST_CLIENT } from '../../../helpers/python-clients.ts'
import { client } from '../../../helpers/zones.ts'

const ZONE_FILE = '$TTL 300\n@ IN SOA ns1 hostmaster 2024010101 3600 900 604800 300\n@ IN NS ns1\nns1 IN A 192.0.2.1\nwww IN A 192.0.2.80\n'

const curlMissing = spawnSync('curl', ['--version']).status === 0 ? undefined : 'curl is not installed'
if (curlMissing !== undefined) console.log(`# client interop SKIPPED: ${curlMissing}`)
const python = pythonClients(ULTRA_REST_CLIENT)

/** The Python client's zone calls, each answer printed as one JSON object. */
const PYTHON_SCRIPT = `
import json, sys
from ultra_rest_client import RestApiClient
host, user, password, zone_file = sys.argv[1:5]
c = RestApiClient(user, password, use_http=True, host=host)
out = {}
out['upload'] = c.create_primary_zone_by_upload('acme', 'py-upload.test.', zone_file)
out['primary'] = c.create_primary_zone('acme', 'py-primary.test.')
out['secondary'] = c.create_secondary_zone('acme', 'py-secondary.test.', '192.0.2.53', 'xfr-key', 'c2VjcmV0c2VjcmV0')
out['edit'] = c.edit_secondary_name_server('py-secondary.test.', '192.0.2.54', '192.0.2.55')
out['axfr'] = c.force_axfr('py-secondary.test.')
out['convert'] = c.convert_zone('py-secondary.test.')
out['delete'] = c.delete_zone('py-primary.test.')
print(json.dumps(out))
`

for (const engine of await engineCases()) {
  describe(`${engine.name}: zone routes with the real clients`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: ReturnType<typeof client>
    let base: string
    let token: string
    let dir: string

    before(async () => {
      t = await buildTestApp(engine.name)
      token = await t.user('alice', 'acme', 'DNSAdministrators')
      alice = client(t.app, token)
      base = await t.app.listen({ host: '127.0.0.1', port: 0 })
      dir = mkdtempSync(join(tmpdir(), 'zonal-upload-'))
      writeFileSync(join(dir, 'example.zone'), ZONE_FILE)
    })
    after(async () => {
      rmSync(dir, { recursive: true, force: true })
      await t.close()
    })

    it('uploads with curl -F \'zone=<zone.json;type=application/json\' -F file=@example.zone', { skip: curlMissing }, async () => {
      writeFileSync(join(dir, 'zone.json'), JSON.stringify({ properties: { name: 'curl.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }) + '\n')
      const res = await runProcess('curl', ['-s', '-m', '20', '-w', '\n%{http_code}', '-H', `Authorization: Bearer ${token}`,
        '-F', 'zone=<zone.json;type=application/json', '-F', 'file=@example.zone', `${base}/v3/zones`], { cwd: dir })
      assert.equal(res.code, 0, res.stderr)
      const [body, status] = res.stdout.split('\n')
      assert.equal(status, '201', body)
      assert.deepEqual(JSON.parse(body!), { message: 'Successful' })
    })

    it('has the zone curl uploaded', { skip: curlMissing }, async () => {
      assert.equal((await alice.get('/zones/curl.test')).json().properties.recordCount, 4)
    })

    it('takes the official Python client\'s upload and zone bodies', { skip: 'skip' in python ? python.skip : undefined }, async () => {
      if ('skip' in python) return
      const run = await runPython(python, ['-c', PYTHON_SCRIPT, base.replace('http://', ''), 'alice', TEST_PASSWORD, join(dir, 'example.zone')])
      assert.equal(run.code, 0, run.stderr)
      const out = JSON.parse(run.stdout) as Record<string, unknown>
      const ok = { message: 'Successful' }
      assert.deepEqual(out, { upload: ok, primary: ok, secondary: ok, edit: ok, axfr: ok, convert: ok, delete: {} })
      assert.equal((await alice.get('/zones/py-upload.test')).json().properties.recordCount, 4)
      assert.equal((await alice.get('/zones/py-secondary.test')).json().properties.type, 'PRIMARY')
      assert.equal((await alice.get('/zones/py-primary.test')).statusCode, 404)
    })
  })
}
