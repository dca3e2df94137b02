/**
 * A zone with one pool of each traffic kind, stored with validated profiles, and DNS questions
 * to ask it over UDP (with an EDNS Client Subnet option when asked): shared by the pool answer
 * tests.
 */
import { createSocket } from 'node:dgram'
import type { Store } from '../../src/store/store.ts'
import { decodeMessage, type Message } from '../../src/dns/wire/message.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { parseName } from '../../src/zone/name.ts'
import { validateProfile } from '../../src/zone/pools/index.ts'
import type { PoolProfile } from '../../src/zone/pools/profile.ts'
import { parseTypeName } from '../../src/zone/rdata/index.ts'
import { storeZone } from './stored-zones.ts'

export const POOL_ZONE = `$TTL 300
@      IN SOA ns1 hostmaster 2026010101 3600 900 604800 300
@      IN NS  ns1
ns1    IN A   192.0.2.53
sb     IN A   192.0.2.1
sb     IN A   192.0.2.2
sb     IN A   192.0.2.3
tc     IN A   192.0.2.11
tc     IN A   192.0.2.12
tc     IN A   192.0.2.13
sf     IN A   192.0.2.21
slb    IN A   192.0.2.31
slb    IN A   192.0.2.32
plain  IN A   192.0.2.99
cn     IN CNAME ns1
cn     IN CNAME mail.example.net.
`

const ctx = (schema: string): string => `http://schemas.ultradns.com/${schema}.jsonschema`
const MONITOR = { method: 'GET', url: 'http://192.0.2.200/health' }
const sbInfo = (priority: number): Record<string, unknown> => ({ priority })

/** A profile validated as the API validates it. */
export function poolProfile (owner: string, schema: string, fields: Record<string, unknown>, rdata: readonly string[], type = 'A'): PoolProfile {
  return validateProfile(parseTypeName(type)!, { '@context': ctx(schema), ...fields }, rdata, owner).profile
}

/** The traffic pools of {@link POOL_ZONE}, by `owner/type` as `storeZone` takes them. */
export function trafficPools (): Record<string, PoolProfile> {
  return {
    'sb.example.org./1': poolProfile('sb.example.org.', 'SBPool', {
      order: 'FIXED', maxActive: 1, rdataInfo: [sbInfo(1), sbInfo(2), sbInfo(3)], backupRecords: [{ rdata: '198.51.100.9' }]
    }, ['192.0.2.1', '192.0.2.2', '192.0.2.3']),
    'tc.example.org./1': poolProfile('tc.example.org.', 'TCPool', {
      maxToLB: 1, rdataInfo: [{ weight: 2 }, { weight: 4 }, { weight: 10 }], backupRecord: { rdata: '198.51.100.19' }
    }, ['192.0.2.11', '192.0.2.12', '192.0.2.13']),
    'sf.example.org./1': poolProfile('sf.example.org.', 'SFPool', {
      regionFailureSensitivity: 'HIGH', monitor: MONITOR, backupRecord: { rdata: '198.51.100.29' }
    }, ['192.0.2.21']),
    'slb.example.org./1': poolProfile('slb.example.org.', 'SLBPool', {
      responseMethod: 'PRIORITY_HUNT', monitor: MONITOR, allFailRecord: { rdata: '198.51.100.39' }, rdataInfo: [{}, {}]
    }, ['192.0.2.31', '192.0.2.32']),
    'cn.example.org./5': poolProfile('cn.example.org.', 'DirPool', {
      rdataInfo: [{ ipInfo: { name: 'lab', ips: [{ address: '127.0.0.2' }] } }, { allNonConfigured: true }]
    }, ['ns1.example.org.', 'mail.example.net.'], 'CNAME')
  }
}

/** Store `example.org.` with {@link POOL_ZONE} (and `extra` records) and these pools. */
export async function storePoolZone (store: Store, profiles: Record<string, PoolProfile>, extra = ''): Promise<string> {
  const zone = await storeZone(store, 'default', 'example.org.', POOL_ZONE + extra, { profiles })
  return zone.id
}

/** An EDNS Client Subnet option's data (RFC 7871 §6) for `address` (IPv4) / `prefix`. */
export function ecsOption (address: string, prefix: number): Uint8Array {
  const octets = address.split('.').map(Number).slice(0, Math.ceil(prefix / 8))
  return new Uint8Array([0, 1, prefix, 0, ...octets])
}

let nextId = 1

/** A query for `name`/`type` with EDNS, and a Client Subnet option when given. */
export function poolQuery (name: string, type = 'A', ecs?: Uint8Array): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: nextId++ & 0xffff, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type: parseTypeName(type)!, class: 1 })
  w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk: false, options: ecs === undefined ? [] : [{ code: 8, data: ecs }] })
  return w.finish()
}

/** One question over UDP from `from` (a loopback address) to the server; the decoded answer. */
export async function askFrom (port: number, request: Uint8Array, from = '127.0.0.1'): Promise<Message> {
  const socket = createSocket('udp4')
  try {
    await new Promise<void>(resolve => socket.bind(0, from, resolve))
    for (let attempt = 0; ; attempt++) {
      const reply = new Promise<Buffer | undefined>((resolve) => {
        socket.once('message', resolve)
        setTimeout(() => resolve(undefined), 1000).unref()
      })
      socket.send(request, port, '127.0.0.1')
      const got = await reply
      if (got !== undefined) return decodeMessage(got)
      if (attempt === 5) throw new Error('no answer over UDP')
    }
  } finally {
    socket.close()
  }
}

/** The A records of an answer, as text. */
export function addressesOf (m: Message): string[] {
  return m.answers.filter(a => a.type === 1).map(a => [...a.rdata].join('.'))
}
