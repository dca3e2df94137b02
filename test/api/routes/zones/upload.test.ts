/**
 * `POST /zones` as multipart/form-data (createType UPLOAD), with the bodies built as the clients
 * build them: curl `-F 'zone=<zone.json;type=application/json' -F file=@example.zone` (the zone
 * part a field without filename) and the Python client's `files=` (the zone part a file with
 * filename ""). The zone part is checked like a JSON body.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client, errorCode } from '../../../helpers/zones.ts'

const ZONE_FILE = '$TTL 300\n@ IN SOA ns1 hostmaster 2024010101 3600 900 604800 300\n@ IN NS ns1\nns1 IN A 192.0.2.1\nwww IN A 192.0.2.80\n'
const zoneJson = (name: string): string => JSON.stringify({ properties: { name, accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { forceImport: true, createType: 'UPLOAD' } })

/** One part: its Content-Disposition parameters, its Content-Type (none when undefined), its content. */
interface Part { disposition: string, type?: string, content: string }

/** A multipart body laid out as curl 8 sends it (dashes-prefixed boundary, CRLF line ends). */
function multipart (parts: Part[]): { body: string, contentType: string } {
  const boundary = '------------------------422f867195d5eb79'
  let body = ''
  for (const p of parts) {
    body += `--${boundary}\r\nContent-Disposition: form-data; ${p.disposition}\r\n`
    if (p.type !== undefined) body += `Content-Type: ${p.type}\r\n`
    body += `\r\n${p.content}\r\n`
  }
  body += `--${boundary}--\r\n`
  return { body, contentType: `multipart/form-data; boundary=${boundary}` }
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: POST /zones multipart uploads`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: ReturnType<typeof client>

    before(async () => {
      t = await buildTestApp(engine.name)
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
    })
    after(async () => { await t.close() })

    const upload = async (parts: Part[]) => {
      const { body, contentType } = multipart(parts)
      return await alice.send('POST', '/v1/zones', body, { 'content-type': contentType })
    }
    const recordCount = async (name: string): Promise<number | undefined> => {
      const res = await alice.get(`/zones/${name}`)
      return res.statusCode === 200 ? res.json().properties.recordCount as number : undefined
    }

    it('takes curl\'s layout: the zone as a field of type application/json, the file as a file part', async () => {
      const res = await upload([
        { disposition: 'name="zone"', type: 'application/json', content: zoneJson('curl.test') + '\n' },
        { disposition: 'name="file"; filename="curl.zone"', type: 'application/octet-stream', content: ZONE_FILE }
      ])
      assert.equal(res.statusCode, 201, res.body)
      assert.equal(await recordCount('curl.test'), 4)
    })

    it('takes the Python client\'s layout: the zone as a file part with filename "" and type application/json', async () => {
      const res = await upload([
        { disposition: 'name="zone"; filename=""', type: 'application/json', content: zoneJson('python.test') },
        { disposition: 'name="file"; filename="file"', type: 'application/octet-stream', content: ZONE_FILE }
      ])
      assert.equal(res.statusCode, 201, res.body)
      assert.equal(await recordCount('python.test'), 4)
    })

    it('takes both parts as plain fields (curl -F \'zone=<zone.json\' -F \'file=<example.zone\')', async () => {
      const res = await upload([
        { disposition: 'name="zone"', content: zoneJson('fields.test') },
        { disposition: 'name="file"', content: ZONE_FILE }
      ])
      assert.equal(res.statusCode, 201, res.body)
      assert.equal(await recordCount('fields.test'), 4)
    })

    it('answers a zone part that is not JSON with 53005, in either layout', async () => {
      for (const zonePart of [
        { disposition: 'name="zone"', type: 'application/json', content: '{"properties":' },
        { disposition: 'name="zone"; filename=""', type: 'application/json', content: '{"properties":' }
      ]) {
        const res = await upload([zonePart, { disposition: 'name="file"; filename="z.zone"', type: 'application/octet-stream', content: ZONE_FILE }])
        assert.deepEqual(res.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: the request body is not valid JSON (the zone part).' }], zonePart.disposition)
      }
    })

    it('checks the zone part like a JSON body: required fields (55001) and unknown fields (53005), nothing created', async () => {
      const file = { disposition: 'name="file"; filename="z.zone"', type: 'application/octet-stream', content: ZONE_FILE }
      const empty = await upload([{ disposition: 'name="zone"', type: 'application/json', content: '{}' }, file])
      assert.deepEqual(empty.json(), [{ errorCode: 55001, errorMessage: 'properties is required field.' }])
      const bogus = JSON.stringify({ ...JSON.parse(zoneJson('bogus.test')), bogus: true })
      const unknown = await upload([{ disposition: 'name="zone"; filename=""', type: 'application/json', content: bogus }, file])
      assert.deepEqual(unknown.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: bogus is not a known field' }])
      const item = JSON.stringify({ ...JSON.parse(zoneJson('bogus.test')), primaryCreateInfo: { createType: 'UPLOAD', restrictIPList: ['192.0.2.1'] } })
      assert.equal(errorCode((await upload([{ disposition: 'name="zone"', type: 'application/json', content: item }, file])).body), 120001)
      assert.equal(await recordCount('bogus.test'), undefined)
    })

    it('still needs both parts (70009)', async () => {
      const res = await upload([{ disposition: 'name="zone"', type: 'application/json', content: zoneJson('half.test') }])
      assert.deepEqual(res.json(), [{ errorCode: 70009, errorMessage: 'One file must be specified: json or file' }])
    })
  })
}
