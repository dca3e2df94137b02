/**
 * TXT and SPF rdata through the API is the record's text (octoDNS and the official Python client
 * send `v=DMARC1; p=reject; …` as one string): spaces, `;`, `"` and `\` are kept, long text is
 * split into 255-octet strings on the wire and read back whole, whatever brought the record
 * (POST, an uploaded BIND file, the upload task); `q=value:` and the audit log see the whole
 * text; the export is BIND syntax that BIND reads back to the same strings.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import type { Store } from '../../../../src/store/store.ts'
import { taskHandlers } from '../../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../../src/tasks/runner.ts'
import { canonicalSortKey, parseName } from '../../../../src/zone/name.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { bindSkip } from '../../../helpers/named.ts'
import { client, errorCode } from '../../../helpers/zones.ts'

type Client = ReturnType<typeof client>

const DMARC = 'v=DMARC1; p=reject; rua=mailto:d@example.org'
const SPF = 'v=spf1 include:_spf.example.net ~all'
/** A 300-character DKIM key record: 255 + 45 octets on the wire. */
const DKIM = 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' + 'A1b2C3d4E5f6G7h8'.repeat(15).slice(0, 238)
const QUOTES = 'say "hi"; a \\ backslash, a \\"quoted\\" part'

const ZONE_FILE = [
  '$TTL 3600',
  '@ IN SOA ns1 hostmaster 2024010101 7200 3600 1209600 300',
  '@ IN NS ns1',
  'ns1 IN A 192.0.2.53',
  'split IN TXT "a b" "c;d"',
  'raw IN TXT "\\255" "ok"',
  ''
].join('\n')

/** Character-strings of a TXT rrset's records, read from the store's wire rdata. */
async function wireStrings (store: Store, zoneId: string, owner: string, type = 16): Promise<string[][]> {
  const rrset = await store.rrsets.get(zoneId, canonicalSortKey(parseName(owner)), type)
  assert.ok(rrset !== undefined, owner)
  return rrset.rdata.map(rdata => {
    const out: string[] = []
    for (let p = 0; p < rdata.length; p += 1 + rdata[p]!) out.push(Buffer.from(rdata.subarray(p + 1, p + 1 + rdata[p]!)).toString('utf8'))
    return out
  })
}

const bindSkipped = bindSkip('named-checkzone', 'named-compilezone')

for (const engine of await engineCases()) {
  describe(`${engine.name}: TXT and SPF record text`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let alice: Client
    let zoneId: string

    const rdataOf = async (zone: string, type: string, owner: string): Promise<string[]> => {
      const res = await alice.get(`/zones/${zone}/rrsets/${type}/${owner}`)
      assert.equal(res.statusCode, 200, res.body)
      return res.json().rrSets[0].rdata
    }
    const serialOf = async (zone: string): Promise<number> => Number((await rdataOf(zone, 'SOA', '@'))[0]!.split(' ')[2])
    const waitForTask = async (id: string): Promise<Record<string, any>> => {
      for (let i = 0; i < 3000; i++) {
        const task = (await alice.get(`/tasks/${id}`)).json()
        if (task.code === 'COMPLETE' || task.code === 'ERROR') return task
        await sleep(20)
      }
      throw new Error(`task ${id} did not finish`)
    }
    const exportText = async (zone: string): Promise<string> => {
      const res = await alice.post('/zones/export', { zoneNames: [zone] })
      assert.equal(res.statusCode, 202, res.body)
      const id = String(res.headers['x-task-id'])
      assert.equal((await waitForTask(id)).code, 'COMPLETE')
      return (await alice.get(`/tasks/${id}/result`)).body
    }

    before(async () => {
      t = await buildTestApp(engine.name, { bodyLimit: 2 * 1024 * 1024, tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'text-test', pollMs: 20 })) })
      runner.start()
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
      assert.equal((await alice.newPrimary('text.test', 'acme')).statusCode, 201)
      zoneId = (await t.store.zones.findByName('text.test.', { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!.id
    })
    after(async () => {
      await runner?.stop()
      await t?.close()
    })

    describe('POST and GET /zones/{zoneName}/rrsets/TXT|SPF/{ownerName}', () => {
      it('reads back exactly what octoDNS sends: ";", spaces, quotes and backslashes kept', async () => {
        const cases: [string, string, string[]][] = [
          ['TXT', '_dmarc', [DMARC]],
          ['TXT', 'multi', ['another value', SPF, QUOTES]],
          ['SPF', '@', [SPF]],
          ['TXT', 'dkim._domainkey', [DKIM]],
          ['TXT', 'empty', ['']]
        ]
        for (const [type, owner, rdata] of cases) {
          const res = await alice.post(`/zones/text.test/rrsets/${type}/${owner}`, { ttl: 300, rdata })
          assert.equal(res.statusCode, 201, res.body)
          assert.deepEqual(await rdataOf('text.test', type, owner), rdata, `${type} ${owner}`)
        }
        assert.deepEqual(await wireStrings(t.store, zoneId, '_dmarc.text.test.'), [[DMARC]])
        assert.deepEqual(await wireStrings(t.store, zoneId, 'multi.text.test.'), [['another value'], [SPF], [QUOTES]])
        assert.deepEqual(await wireStrings(t.store, zoneId, 'text.test.', 99), [[SPF]])
        assert.equal(DKIM.length, 300)
        assert.deepEqual(await wireStrings(t.store, zoneId, 'dkim._domainkey.text.test.'), [[DKIM.slice(0, 255), DKIM.slice(255)]])
        assert.deepEqual(await wireStrings(t.store, zoneId, 'empty.text.test.'), [['']])
      })

      it('changes nothing when what GET shows is written back with PUT', async () => {
        const serial = await serialOf('text.test')
        for (const owner of ['_dmarc', 'multi', 'dkim._domainkey']) {
          const res = await alice.put(`/zones/text.test/rrsets/TXT/${owner}`, { ttl: 300, rdata: await rdataOf('text.test', 'TXT', owner) })
          assert.equal(res.statusCode, 200, res.body)
        }
        assert.equal(await serialOf('text.test'), serial)
      })

      it('refuses the same text twice (450001) and a lone surrogate (53005)', async () => {
        assert.equal(errorCode((await alice.post('/zones/text.test/rrsets/TXT/twice', { rdata: ['a b', 'a b'] })).body), 450001)
        assert.equal(errorCode((await alice.post('/zones/text.test/rrsets/TXT/bad', { rdata: ['a\uD800b'] })).body), 53005)
      })

      it('finds text with spaces, ";" and quotes with q=value:', async () => {
        const owners = async (q: string): Promise<string[]> => {
          const res = await alice.get(`/zones/text.test/rrsets?q=${encodeURIComponent(q)}`)
          assert.equal(res.statusCode, 200, res.body)
          return res.json().rrSets.map((r: any) => `${r.ownerName} ${r.rrtype}`)
        }
        assert.deepEqual(await owners('value:p=reject; rua=mailto'), ['_dmarc.text.test. TXT (16)'])
        assert.deepEqual(await owners('value:another value'), ['multi.text.test. TXT (16)'])
        assert.deepEqual(await owners('value:say "hi"; a \\ backslash'), ['multi.text.test. TXT (16)'])
        assert.deepEqual(await owners('value:include:_spf.example.net ~all'), ['text.test. SPF (99)', 'multi.text.test. TXT (16)'])
      })

      it('shows the whole text in the audit record', async () => {
        await alice.put('/zones/text.test/rrsets/TXT/_dmarc', { ttl: 300, rdata: ['v=DMARC1; p=quarantine; pct=50'], changeComment: 'soften' })
        const [modify] = (await t.store.audit.recent(1000, 'MODIFY')).filter(r => r.object === '_dmarc.text.test.')
        assert.deepEqual(JSON.parse(modify!.detail).changes, [{ name: 'rdata', from: [DMARC], to: ['v=DMARC1; p=quarantine; pct=50'] }])
        const [add] = (await t.store.audit.recent(1000, 'ADD')).filter(r => r.object === 'dkim._domainkey.text.test.')
        assert.deepEqual(JSON.parse(add!.detail).changes[0], { name: 'rdata', to: [DKIM] })
      })

      it('patches TXT text word by word (JSON Patch /rdata/0/1)', async () => {
        const res = await alice.jsonPatch('/zones/text.test/rrsets/TXT/_dmarc', [{ op: 'replace', path: '/rdata/0/1', value: 'p=reject;' }])
        assert.equal(res.statusCode, 200, res.body)
        assert.deepEqual(await rdataOf('text.test', 'TXT', '_dmarc'), ['v=DMARC1; p=reject; pct=50'])
      })
    })

    describe('uploaded BIND files', () => {
      it('reads several strings joined, octets that are not UTF-8 in the generic form, and keeps both on an unchanged PUT', async () => {
        const res = await alice.upload({ properties: { name: 'upload.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, ZONE_FILE)
        assert.equal(res.statusCode, 201, res.body)
        assert.deepEqual(await rdataOf('upload.test', 'TXT', 'split'), ['a bc;d'])
        assert.deepEqual(await rdataOf('upload.test', 'TXT', 'raw'), ['\\# 5 01FF026F6B'])
        const serial = await serialOf('upload.test')
        for (const owner of ['split', 'raw']) {
          assert.equal((await alice.put(`/zones/upload.test/rrsets/TXT/${owner}`, { rdata: await rdataOf('upload.test', 'TXT', owner) })).statusCode, 200)
        }
        assert.equal(await serialOf('upload.test'), serial, 'nothing changed')
        const text = await exportText('upload.test')
        assert.match(text, /^split\t3600\tIN\tTXT\t"a b" "c;d"$/m)
        assert.match(text, /^raw\t3600\tIN\tTXT\t"\\255" "ok"$/m)
      })

      it('takes a value in the RFC 3597 form as the exact strings, even when it reads the same', async () => {
        const serial = await serialOf('upload.test')
        assert.equal((await alice.put('/zones/upload.test/rrsets/TXT/split', { rdata: ['\\# 7 06612062633B64'] })).statusCode, 200)
        assert.ok(await serialOf('upload.test') > serial, 'the record changed')
        assert.deepEqual(await rdataOf('upload.test', 'TXT', 'split'), ['a bc;d'])
        assert.match(await exportText('upload.test'), /^split\t3600\tIN\tTXT\t"a bc;d"$/m)
      })

      it('reads the same through the upload task (a file too large for the request)', async () => {
        // Eleven 60,000-character records pass the 512 KiB limit of a synchronous upload.
        let big = ZONE_FILE
        for (let i = 0; i < 11; i++) big += `big${i} IN TXT "${'abcdefghijk'[i]!.repeat(60_000)}"\n`
        const res = await alice.upload({ properties: { name: 'task.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, big)
        assert.equal(res.statusCode, 202, res.body)
        const task = await waitForTask(String(res.headers['x-task-id']))
        assert.equal(task.code, 'COMPLETE', task.message)
        assert.deepEqual(await rdataOf('task.test', 'TXT', 'split'), ['a bc;d'])
        assert.deepEqual(await rdataOf('task.test', 'TXT', 'big3'), ['d'.repeat(60_000)])
      })
    })

    describe('export', () => {
      it('writes BIND syntax that named-checkzone accepts and named-compilezone reads to the same strings', { skip: bindSkipped }, async () => {
        const text = await exportText('text.test')
        assert.match(text, /^multi\t300\tIN\tTXT\t"say \\"hi\\"; a \\\\ backslash, a \\\\\\"quoted\\\\\\" part"$/m)
        assert.match(text, new RegExp(`^dkim\\._domainkey\\t300\\tIN\\tTXT\\t"${DKIM.slice(0, 255)}" "${DKIM.slice(255)}"$`, 'm'))
        const dir = mkdtempSync(join(tmpdir(), 'zonal-txt-'))
        try {
          const file = join(dir, 'text.test.zone')
          writeFileSync(file, text)
          const check = spawnSync('named-checkzone', ['-i', 'local', 'text.test', file], { encoding: 'utf8' })
          assert.equal(check.status, 0, check.stdout + check.stderr)
          const compiled = spawnSync('named-compilezone', ['-i', 'none', '-s', 'full', '-o', '-', 'text.test', file], { encoding: 'utf8' })
          assert.equal(compiled.status, 0, compiled.stderr)
          const txt = (owner: string, type = 'TXT'): string => {
            const line = compiled.stdout.split('\n').find(l => l.startsWith(`${owner}.text.test.`) && l.split(/\s+/)[3] === type)
            assert.ok(line !== undefined, `${owner} ${type} in ${compiled.stdout}`)
            return line.split(/\s+/).slice(4).join(' ')
          }
          assert.equal(txt('_dmarc'), '"v=DMARC1; p=reject; pct=50"')
          assert.equal(txt('dkim._domainkey'), `"${DKIM.slice(0, 255)}" "${DKIM.slice(255)}"`)
          assert.equal(txt('empty'), '""')
          assert.match(compiled.stdout, /multi\.text\.test\.\s+300\s+IN\s+TXT\s+"say \\"hi\\"; a \\\\ backslash, a \\\\\\"quoted\\\\\\" part"/)
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      })
    })
  })
}
