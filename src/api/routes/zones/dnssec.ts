import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import type { Static } from 'typebox'
import { Type } from 'typebox'
import type { DnssecKey, DnssecPolicy } from '../../../store/store.ts'
import type { ZoneDeps } from '../../../zones/context.ts'
import { dnssecInfo, dsRecordsOf, type DnssecInfo } from '../../../zones/dnssec/info.ts'
import { dnskeyOf } from '../../../zones/dnssec/keyring.ts'
import { startKskRollover } from '../../../zones/dnssec/rollover.ts'
import { dnssecComment, requestDnssec, type DnssecOutcome } from '../../../zones/dnssec/sign-zone.ts'
import { rdataToRecordText } from '../../../zone/record-text.ts'
import { RRType } from '../../../zone/rrtype.ts'
import { DnssecBody, DnssecInfoDto, DsRecordsDto, type DnssecKeyDto, type DnssecPolicyDto } from '../../schemas/dnssec.ts'
import { ErrorBody, MessageBody } from '../../schemas/common.ts'
import { callerOf } from './index.ts'

const ZoneParams = Type.Object({ zoneName: Type.String({ minLength: 1, maxLength: 1024 }) })
const DAY_MS = 86_400_000

/** ISO 8601 UTC to the second, as the real API writes its times ("2020-07-08T06:46:21Z"). */
const seconds = (iso: string): string => iso.replace(/\.\d+Z$/, 'Z')

/** The Key DTO statuses: signing (CURRENT), published for later (FUTURE), leaving (EXPIRED). */
const STATUS: Record<DnssecKey['state'], Static<typeof DnssecKeyDto>['status']> = { ACTIVE: 'CURRENT', PUBLISHED: 'FUTURE', RETIRED: 'EXPIRED', REMOVED: 'EXPIRED' }

function rolloverDays (policy: DnssecPolicy, role: DnssecKey['role']): number {
  return role === 'KSK' ? policy.kskRolloverDays : policy.zskRolloverDays
}

/** When the key next moves: its planned activation, departure, or scheduled rollover. */
function nextRoll (k: DnssecKey, policy: DnssecPolicy): string | undefined {
  if (k.state === 'PUBLISHED') return k.activeAt ?? undefined
  if (k.retiredAt !== null || k.removedAt !== null) return (k.state === 'ACTIVE' ? k.retiredAt ?? k.removedAt : k.removedAt) ?? undefined
  if (k.activeAt === null) return undefined
  return new Date(Date.parse(k.activeAt) + rolloverDays(policy, k.role) * DAY_MS).toISOString()
}

function keyDto (zoneName: string, k: DnssecKey, policy: DnssecPolicy): Static<typeof DnssecKeyDto> {
  const roll = nextRoll(k, policy)
  return {
    type: k.role,
    bitLength: k.bits,
    keyRolloverFrequency: rolloverDays(policy, k.role),
    status: STATUS[k.state],
    created: seconds(k.createdAt),
    ...(roll === undefined ? {} : { nextRoll: seconds(roll) }),
    keyId: k.keyTag,
    publicKey: Buffer.from(k.publicKey).toString('base64'),
    dnsKeyRecord: `${zoneName} ${policy.dnskeyTtl} IN DNSKEY ${rdataToRecordText(RRType.DNSKEY, dnskeyOf(k))}`,
    ...(k.role === 'KSK' ? { dsRecords: dsRecordsOf(zoneName, k) } : {})
  }
}

function policyDto (p: DnssecPolicy): Static<typeof DnssecPolicyDto> {
  return {
    algorithm: p.algorithm,
    securityType: p.securityType,
    rrsigSignatureDuration: p.rrsigValidityDays * DAY_MS,
    ...(p.securityType === 'NSEC' ? {} : { nsec3Parameters: { salt: p.nsec3Salt, optOutFlag: p.securityType === 'NSEC3_OPT_OUT' ? 1 : 0, iterations: p.nsec3Iterations, hashAlgorithm: 'SHA1' } }),
    keyPolicy: [
      { type: 'ZSK', bitLength: p.zskBits, keyRolloverFrequency: p.zskRolloverDays },
      { type: 'KSK', bitLength: p.kskBits, keyRolloverFrequency: p.kskRolloverDays }
    ]
  }
}

/** The overrides the zone's `dnssecPolicy` set, in the API's spelling (what a PUT should send back). */
function overridesDto (p: DnssecPolicy): Record<string, unknown> | undefined {
  const names: Record<string, string> = { dnskeyTtl: 'dnsKeyTtl', rrsigValidityDays: 'rrsigValidity', zskRolloverDays: 'zskRolloverFrequency', kskRolloverDays: 'kskRolloverFrequency', algorithm: 'algorithm', securityType: 'securityType' }
  if (p.overrides.length === 0) return undefined
  return Object.fromEntries(p.overrides.map(k => [names[k] ?? k, p[k as keyof DnssecPolicy]]))
}

/** The DNSSEC Info Response DTO. Public parts of the keys only: never a private key. */
export function dnssecDto (info: DnssecInfo, now: Date): Static<typeof DnssecInfoDto> {
  const { zone, state } = info
  const base = { lastModifiedZoneDateTime: seconds(zone.updated_at) }
  if (state === undefined) return { status: 'UNSIGNED', keys: [], ...base, resignNeeded: false }
  const overrides = overridesDto(state.policy)
  return {
    status: 'SIGNED',
    policy: policyDto(state.policy),
    ...(overrides === undefined ? {} : { dnssecPolicy: overrides }),
    keys: info.keys.map(k => keyDto(zone.name, k, state.policy)),
    lastModifiedDateTime: seconds(state.modifiedAt),
    ...base,
    resignNeeded: state.nextEventAt !== null && Date.parse(state.nextEventAt) + DAY_MS < now.getTime()
  }
}

/**
 * The Zone DNSSEC APIs: `GET|POST|PUT|PATCH|DELETE /zones/{zoneName}/dnssec` (details, sign,
 * re-sign, re-sign, unsign) and `POST /zones/{zoneName}/dnssec/kskrollover`. Changes of zones
 * of more than 10,000 records run as a task (202 `{"message":"Pending"}` + X-Task-Id). The rules
 * live in `src/zones/dnssec/`.
 */
export const dnssecRoutes: FastifyPluginAsyncTypebox<{ zones: ZoneDeps, tasks?: { wake (): void } }> = async (app, { zones, tasks }) => {
  const tags = ['zones']
  const outcome = async (reply: FastifyReply, o: DnssecOutcome, status: number): Promise<void> => {
    if (!o.done) {
      tasks?.wake()
      await reply.code(202).header('x-task-id', o.task.id).send({ message: 'Pending' })
    } else if (status === 204) await reply.code(204).send()
    else await reply.code(status).send({ message: 'Successful' })
  }

  app.get('/zones/:zoneName/dnssec', {
    schema: { tags, operationId: 'getZoneDnssec', summary: 'The zone\'s DNSSEC status, policy and keys', params: ZoneParams, response: { 200: DnssecInfoDto, '4xx': ErrorBody } }
  }, async (request) => dnssecDto(await dnssecInfo(zones, callerOf(request), request.params.zoneName), zones.clock()))

  app.post('/zones/:zoneName/dnssec', {
    schema: { tags, operationId: 'signZone', summary: 'Sign the zone (201, or 202 with a task for a large zone)', params: ZoneParams, body: DnssecBody, response: { 201: MessageBody, 202: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => await outcome(reply, await requestDnssec(zones, callerOf(request), request.params.zoneName, 'POST', request.body), 201))

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/zones/:zoneName/dnssec',
      schema: { tags, operationId: method === 'PUT' ? 'resignZone' : 'patchZoneDnssec', summary: 'Sign the zone again, applying a changed dnssecPolicy (200, or 202 with a task)', params: ZoneParams, body: DnssecBody, response: { 200: MessageBody, 202: MessageBody, '4xx': ErrorBody } },
      handler: async (request, reply) => await outcome(reply, await requestDnssec(zones, callerOf(request), request.params.zoneName, method, request.body), 200)
    })
  }

  app.delete('/zones/:zoneName/dnssec', {
    schema: { tags, operationId: 'unsignZone', summary: 'Unsign the zone: its DNSSEC records and keys removed (204, or 202 with a task)', params: ZoneParams, body: DnssecBody, response: { 202: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => await outcome(reply, await requestDnssec(zones, callerOf(request), request.params.zoneName, 'DELETE', request.body), 204))

  app.post('/zones/:zoneName/dnssec/kskrollover', {
    schema: { tags, operationId: 'rollZoneKsk', summary: 'Start a double-signature KSK rollover; answers the new KSK\'s DS records', params: ZoneParams, body: DnssecBody, response: { 200: DsRecordsDto, '4xx': ErrorBody } }
  }, async (request) => {
    const { zoneName, key } = await startKskRollover(zones, callerOf(request), request.params.zoneName, dnssecComment(request.body))
    return { dsRecords: dsRecordsOf(zoneName, key) }
  })
}
