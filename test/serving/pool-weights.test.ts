/**
 * TC pools draw their records by weight (issue 18): over 20,000 answers from two DNS workers,
 * the counts of the records (weights 2, 4, 10) pass a chi-square test at α = 1e-9 (critical
 * value 41.45 for two degrees of freedom), a bound a correct draw fails once in a billion runs;
 * a record judged DOWN is never drawn.
 */
import assert from 'node:assert/strict'
import { createSocket } from 'node:dgram'
import { after, before, describe, it } from 'node:test'
import { decodeMessage } from '../../src/dns/wire/message.ts'
import { parseName } from '../../src/zone/name.ts'
import { addressesOf, poolQuery, storePoolZone, trafficPools } from '../helpers/pool-zone.ts'
import { eventually } from '../helpers/named.ts'
import { startTestService, type TestService } from '../helpers/service.ts'

const ANSWERS = 20_000
const BATCH = 200
/** χ² with 2 degrees of freedom exceeds this with probability 1e-9 (−2 ln 1e-9). */
const CRITICAL = 41.45

/** `count` answers to `name` over UDP, asked `BATCH` at a time (a lost datagram is asked again). */
async function draw (port: number, name: string, count: number): Promise<string[][]> {
  const socket = createSocket('udp4')
  await new Promise<void>(resolve => socket.bind(0, '127.0.0.1', resolve))
  const got = new Map<number, string[]>()
  let wake: (() => void) | undefined
  socket.on('message', (msg) => {
    got.set(msg.readUInt16BE(0), addressesOf(decodeMessage(msg)))
    wake?.()
  })
  const out: string[][] = []
  try {
    while (out.length < count) {
      got.clear()
      const requests = new Map<number, Uint8Array>()
      for (let i = 0; i < Math.min(BATCH, count - out.length); i++) {
        const q = poolQuery(name)
        requests.set((q[0]! << 8) | q[1]!, q)
      }
      for (let attempt = 0; [...requests.keys()].some(id => !got.has(id)); attempt++) {
        if (attempt === 10) throw new Error('answers missing after 10 tries')
        for (const [id, q] of requests) if (!got.has(id)) socket.send(q, port, '127.0.0.1')
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 1000)
          wake = () => {
            if ([...requests.keys()].every(id => got.has(id))) {
              clearTimeout(timer)
              resolve()
            }
          }
        })
      }
      for (const id of requests.keys()) out.push(got.get(id)!)
    }
  } finally {
    socket.close()
  }
  return out
}

describe('TC pool weights', () => {
  let t: TestService
  let zoneId: string
  before(async () => {
    t = await startTestService('admin password', { ZONAL_DNS_WORKERS: '2' })
    zoneId = await storePoolZone(t.service.store, trafficPools())
    await eventually(async () => t.service.dns.index.find(parseName('example.org.')) !== undefined, 10_000, 'zone loaded')
    await t.service.dns.settled()
  })
  after(async () => { await t?.stop() })

  it('draws each record in proportion to its weight over 20,000 answers (chi-square, α = 1e-9)', async () => {
    const answers = await draw(t.service.dns.port, 'tc.example.org.', ANSWERS)
    const records = ['192.0.2.11', '192.0.2.12', '192.0.2.13']
    const weights = [2, 4, 10]
    const counts = records.map(r => answers.filter(a => a.length === 1 && a[0] === r).length)
    assert.equal(counts.reduce((a, b) => a + b, 0), ANSWERS, `one of the records in every answer: ${counts.join()}`)
    const expected = weights.map(w => ANSWERS * w / 16)
    const chi2 = counts.reduce((sum, c, i) => sum + (c - expected[i]!) ** 2 / expected[i]!, 0)
    assert.ok(chi2 < CRITICAL, `χ² = ${chi2.toFixed(2)} for counts ${counts.join()} (expected ${expected.join()})`)
  })

  it('never draws a record judged DOWN, and shares its weight among the others', async () => {
    t.service.dns.setPoolHealth({ zoneId, owner: 'tc.example.org.', type: 1, health: new Map([['192.0.2.13', 'DOWN']]) })
    await t.service.dns.settled()
    const answers = await draw(t.service.dns.port, 'tc.example.org.', 3000)
    const counts = ['192.0.2.11', '192.0.2.12', '192.0.2.13'].map(r => answers.filter(a => a[0] === r).length)
    assert.equal(counts[2], 0)
    // Weights 2 and 4 of 6: χ² with one degree of freedom below 37.3 (α = 1e-9).
    const expected = [1000, 2000]
    const chi2 = (counts[0]! - expected[0]!) ** 2 / expected[0]! + (counts[1]! - expected[1]!) ** 2 / expected[1]!
    assert.ok(chi2 < 37.3, `χ² = ${chi2.toFixed(2)} for counts ${counts.join()}`)
  })
})
