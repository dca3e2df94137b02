import { Type, type TSchema } from 'typebox'

/**
 * Request and response schemas of the zone routes, in UltraDNS spelling (spec "Zone Create DTO"
 * and "Zone DTO"; the real API's Zone DTOs page; reference notes §7).
 *
 * Request schemas check the SHAPE of a body: JSON types, known field names (an unknown field is
 * refused, naming it), `changeComment` at most 512 characters. Values (zone names, zone types,
 * create types, addresses, TSIG keys) are checked by the zone use cases in `src/zones/`, which
 * answer with the real API's error codes; so the schemas stay lenient where a use case has a
 * more precise code (a type `TERTIARY` is 53001, not a schema error). `src/api/routes/zones/
 * validation.ts` maps the schema errors to the catalog.
 *
 * Response schemas are the last whitelist for TSIG secrets: Fastify serialises only the fields
 * declared here, so a secret can only leave where a `tsigKeyValue` is declared.
 */

const nullable = <T extends TSchema>(schema: T, options?: { description: string }) => Type.Union([schema, Type.Null()], options)

/**
 * A JSON `true` or `false`. Written as an enum without `type`, because Fastify's validator
 * coerces to a declared type (`1` and `"true"` would become `true`), and a flag that is not a
 * boolean is refused (53005).
 */
const JsonBoolean = (options: { description?: string } = {}) => Type.Unsafe<boolean>({ enum: [true, false], description: 'true or false', ...options })

const TSIG_ALGORITHMS = 'hmac-md5 (default), hmac-sha1, hmac-sha224, hmac-sha256, hmac-sha384 or hmac-sha512'

/** One primary name server (of a secondary zone, or the source of createType TRANSFER). */
export const NameServerInput = Type.Object({
  ip: Type.Optional(Type.String({ description: 'Required. IPv4 or IPv6 address, optionally with a port (192.0.2.1:5353, [2001:db8::1]:5353).' })),
  tsigKey: Type.Optional(Type.String({ description: 'Name of the TSIG key, when the server requires one.' })),
  tsigKeyValue: Type.Optional(Type.String({ description: 'The TSIG secret (base64).' })),
  tsigAlgorithm: Type.Optional(Type.String({ description: TSIG_ALGORITHMS }))
}, { additionalProperties: false })

/** One restrict entry: a range (startIP, endIP), a `cidr` or a `singleIP`. */
export const RestrictIpInput = Type.Object({
  startIP: Type.Optional(Type.String()),
  endIP: Type.Optional(Type.String()),
  cidr: Type.Optional(Type.String({ description: 'e.g. 192.0.2.0/24, 2001:db8::/126' })),
  singleIP: Type.Optional(Type.String()),
  comment: Type.Optional(Type.String())
}, { additionalProperties: false, description: 'One of (startIP, endIP), cidr or singleIP.' })

export const TsigInput = Type.Object({
  tsigKeyName: Type.String(),
  tsigKeyValue: Type.Optional(Type.String({ description: 'Required. The secret, base64.' })),
  tsigAlgorithm: Type.Optional(Type.String({ description: TSIG_ALGORITHMS })),
  description: Type.Optional(Type.String())
}, { additionalProperties: false })

export const NotifyAddressInput = Type.Object({
  notifyAddress: Type.Optional(Type.String({ description: 'Required. IPv4 or IPv6 address, optionally with a port.' })),
  description: Type.Optional(Type.String())
}, { additionalProperties: false })

const RestrictIpList = nullable(Type.Array(RestrictIpInput))

/**
 * The primary section (`primaryCreateInfo`, also spelled `createPrimaryInfo`). On create,
 * `createType` says how the zone is made; on PUT and PATCH only the transfer settings
 * (restrictIPList, tsig, notifyAddresses) and the flags count, the create fields are ignored.
 */
export const PrimaryZoneInfo = Type.Object({
  forceImport: Type.Optional(JsonBoolean({ description: 'Accepted for compatibility (the real API moves records of existing zones); default false.' })),
  createType: Type.Optional(Type.String({ description: 'Required on create: NEW, COPY, TRANSFER or UPLOAD (any case). Ignored on update.' })),
  originalZoneName: Type.Optional(Type.String({ description: 'createType COPY: the primary zone to copy.' })),
  nameServer: Type.Optional(nullable(NameServerInput)),
  restrictIPList: Type.Optional(RestrictIpList),
  restrictIpList: Type.Optional(RestrictIpList),
  tsig: Type.Optional(nullable(TsigInput)),
  notifyAddresses: Type.Optional(nullable(Type.Array(NotifyAddressInput))),
  inherit: Type.Optional(Type.String({ description: 'ALL, NONE, or a comma-separated list of IP_RANGE, NOTIFY_IP, TSIG.' })),
  valimailMonitor: Type.Optional(JsonBoolean())
}, { additionalProperties: false })

/** `nameServerIpList`: `nameServerIp1` (required), `nameServerIp2`, `nameServerIp3` … */
export const NameServerIpListInput = Type.Record(Type.String({ pattern: '^nameServerIp[0-9]+$' }), NameServerInput, {
  additionalProperties: false,
  required: ['nameServerIp1'],
  description: 'nameServerIp1 (required), nameServerIp2, nameServerIp3 …'
})

/** The secondary section (`secondaryCreateInfo`, also spelled `createSecondaryInfo`). */
export const SecondaryZoneInfo = Type.Object({
  primaryNameServers: Type.Optional(Type.Object({ nameServerIpList: NameServerIpListInput }, { additionalProperties: false, description: 'Required on create.' })),
  notificationEmailAddress: Type.Optional(nullable(Type.String())),
  allowUnresponsiveNS: Type.Optional(JsonBoolean())
}, { additionalProperties: false })

export const AliasZoneInfo = Type.Object({
  originalZoneName: Type.String({ description: 'The primary zone (of the same account) this zone aliases.' })
}, { additionalProperties: false })

/** The read-only fields of `properties` a client may send back; ignored on create and update. */
const echoedProperties = {
  owner: Type.Optional(Type.String()),
  recordCount: Type.Optional(Type.Integer()),
  resourceRecordCount: Type.Optional(Type.Integer()),
  dnssecStatus: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
  lastModifiedDateTime: Type.Optional(Type.String()),
  mailMonitor: Type.Optional(JsonBoolean()),
  certEnabled: Type.Optional(JsonBoolean()),
  valimailMonitor: Type.Optional(JsonBoolean()),
  network2: Type.Optional(JsonBoolean()),
  ultra2: Type.Optional(JsonBoolean())
}

/** `properties` of a create: name and type required; accountName may be left out when the caller can create in one account only. */
export const ZonePropertiesInput = Type.Object({
  name: Type.String({ description: 'Zone name, with or without the trailing dot.' }),
  accountName: Type.Optional(Type.String()),
  type: Type.String({ description: 'PRIMARY, SECONDARY or ALIAS (any case).' }),
  ...echoedProperties
}, { additionalProperties: false })

/** `properties` on PUT and PATCH: ignored. */
const ZonePropertiesEcho = Type.Object({
  name: Type.Optional(Type.String()),
  accountName: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  ...echoedProperties
}, { additionalProperties: false, description: 'Ignored on update.' })

const ChangeComment = Type.Optional(nullable(Type.String({ maxLength: 512, description: 'Up to 512 characters, shown and searchable in the audit log.' })))

const sections = {
  primaryCreateInfo: Type.Optional(PrimaryZoneInfo),
  createPrimaryInfo: Type.Optional(PrimaryZoneInfo),
  secondaryCreateInfo: Type.Optional(SecondaryZoneInfo),
  createSecondaryInfo: Type.Optional(SecondaryZoneInfo),
  aliasCreateInfo: Type.Optional(AliasZoneInfo),
  changeComment: ChangeComment
}

export const exampleCreatePrimaryNew = {
  properties: { name: 'example.org.', accountName: 'acme', type: 'PRIMARY' },
  primaryCreateInfo: { forceImport: true, createType: 'NEW' },
  changeComment: 'Created as agreed'
}
export const exampleCreatePrimaryCopy = {
  properties: { name: 'example.net.', accountName: 'acme', type: 'PRIMARY' },
  primaryCreateInfo: { forceImport: true, createType: 'COPY', originalZoneName: 'example.org.' }
}
export const exampleCreatePrimaryTransfer = {
  properties: { name: 'example.com.', accountName: 'acme', type: 'PRIMARY' },
  primaryCreateInfo: { forceImport: true, createType: 'TRANSFER', nameServer: { ip: '192.0.2.53', tsigKey: 'xfr-key', tsigKeyValue: 'c2VjcmV0c2VjcmV0', tsigAlgorithm: 'hmac-sha256' } }
}
export const exampleCreatePrimaryUpload = {
  properties: { name: 'upload.example.', accountName: 'acme', type: 'PRIMARY' },
  primaryCreateInfo: { forceImport: true, createType: 'UPLOAD' }
}
export const exampleCreateSecondary = {
  properties: { name: 'secondary.example.', accountName: 'acme', type: 'SECONDARY' },
  secondaryCreateInfo: {
    primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.53', tsigKey: 'xfr-key', tsigKeyValue: 'c2VjcmV0c2VjcmV0', tsigAlgorithm: 'hmac-sha256' } } },
    notificationEmailAddress: 'dns-ops@example.org'
  }
}
export const exampleCreateAlias = {
  properties: { name: 'alias.example.', accountName: 'acme', type: 'ALIAS' },
  aliasCreateInfo: { originalZoneName: 'example.org.' },
  changeComment: 'Create an alias zone'
}

/** Body of `POST /zones` (JSON): the Zone Create DTO; the section that matches `properties.type` is used. */
export const ZoneCreateBody = Type.Object({
  properties: ZonePropertiesInput,
  ...sections
}, {
  additionalProperties: false,
  description: 'Zone Create DTO. A primary needs primaryCreateInfo.createType (NEW, COPY with originalZoneName, TRANSFER with nameServer, ' +
    'UPLOAD as multipart/form-data); a secondary secondaryCreateInfo.primaryNameServers; an alias aliasCreateInfo.originalZoneName.',
  'x-examples': {
    primaryNew: { summary: 'New primary zone', value: exampleCreatePrimaryNew },
    primaryCopy: { summary: 'Primary zone copied from another primary', value: exampleCreatePrimaryCopy },
    primaryTransfer: { summary: 'Primary zone copied by zone transfer (AXFR)', value: exampleCreatePrimaryTransfer },
    secondary: { summary: 'Secondary zone', value: exampleCreateSecondary },
    alias: { summary: 'Alias zone', value: exampleCreateAlias }
  }
})

/** `POST /zones` as multipart/form-data (createType UPLOAD), as the Python client and curl send it. */
export const ZoneUploadBody = Type.Object({
  zone: Type.Optional(Type.String({ description: 'Required. The Zone Create DTO as JSON (createType UPLOAD), as a field or a part with a filename, Content-Type application/json.' })),
  file: Type.Optional(Type.String({ contentEncoding: 'binary', description: 'Required. The zone as a BIND master file.' }))
}, {
  description: 'curl -F \'zone=<zone.json;type=application/json\' -F file=@example.zone …',
  'x-examples': { upload: { summary: 'The zone part of an upload', value: { zone: JSON.stringify(exampleCreatePrimaryUpload) } } }
})

/** Body of PUT and PATCH (merge): the section of the zone's type; `properties` and the other sections are ignored. */
export const ZoneUpdateBody = Type.Object({
  properties: Type.Optional(ZonePropertiesEcho),
  ...sections
}, {
  additionalProperties: false,
  description: 'Zone Create DTO: a primary takes primaryCreateInfo (restrictIPList, tsig, notifyAddresses), a secondary secondaryCreateInfo ' +
    '(primaryNameServers, notificationEmailAddress). PUT deletes what is left out, PATCH keeps it.',
  'x-examples': {
    primary: {
      summary: 'Transfer settings of a primary zone',
      value: {
        primaryCreateInfo: {
          restrictIPList: [{ startIP: '192.0.2.10', endIP: '192.0.2.20', comment: 'secondaries' }, { cidr: '2001:db8::/64' }],
          tsig: { tsigKeyName: 'xfr-key', tsigKeyValue: 'c2VjcmV0c2VjcmV0', tsigAlgorithm: 'hmac-sha256', description: 'transfers' },
          notifyAddresses: [{ notifyAddress: '192.0.2.10', description: 'secondary' }]
        },
        changeComment: 'Updating zone'
      }
    },
    secondary: {
      summary: 'Primary name servers of a secondary zone',
      value: { secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.53' }, nameServerIp2: { ip: '2001:db8::53' } } } } }
    }
  }
})

/** Body of convert: optional (absent or null: none); the spec allows the Zone API DTOs here, which are accepted and ignored. */
export const ZoneConvertBody = nullable(Type.Object({
  properties: Type.Optional(ZonePropertiesEcho),
  ...sections
}, { additionalProperties: false }), { description: 'Optional: a changeComment for the audit log (the sections the spec allows here are accepted and ignored). null is no body.' })

/** RFC 6902 operations, as `application/json-patch+json` (on the sections as GET spells them). */
export const JsonPatchBody = Type.Array(Type.Object({
  op: Type.Enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
  path: Type.String({ description: 'JSON Pointer into the zone as GET shows it: /restrictIpList/0/endIP, /tsig, /notifyAddresses/-, /primaryNameServers/nameServerIpList/nameServerIp1/ip' }),
  value: Type.Optional(Type.Unknown()),
  from: Type.Optional(Type.String())
}), {
  minItems: 1,
  'x-examples': {
    primary: {
      summary: 'Change a restrict range, add a notify address',
      value: [
        { op: 'replace', path: '/restrictIpList/0/endIP', value: '192.0.2.30' },
        { op: 'add', path: '/notifyAddresses/-', value: { notifyAddress: '192.0.2.11', description: 'second secondary' } }
      ]
    }
  }
})

/** Body of DELETE, suspend, unalias and transfer: optional (absent or null: none). */
export const ZoneActionBody = nullable(Type.Object({ changeComment: ChangeComment }, { additionalProperties: false }), { description: 'Optional: a changeComment for the audit log. null is no body.' })

export const ZoneParams = Type.Object({ zoneName: Type.String({ minLength: 1, maxLength: 1024, description: 'Zone name, with or without the trailing dot; a / inside the name as %2F.' }) })

// ---- Responses: the Zone DTO of each type ----

const listOfNames = Type.Optional(Type.Array(Type.String()))

const zonePropertiesOf = <T extends string>(type: T) => Type.Object({
  name: Type.String(),
  accountName: Type.String(),
  type: Type.Literal(type),
  dnssecStatus: Type.String({ description: 'SIGNED or UNSIGNED' }),
  status: Type.String({ description: 'ACTIVE or SUSPENDED' }),
  owner: Type.String(),
  lastModifiedDateTime: Type.String({ description: 'yyyy-MM-ddTHH:mmZ' }),
  recordCount: Type.Optional(Type.Integer()),
  resourceRecordCount: Type.Integer(),
  mailMonitor: Type.Optional(Type.Boolean()),
  certEnabled: Type.Optional(Type.Boolean()),
  valimailMonitor: Type.Optional(Type.Boolean()),
  network2: Type.Optional(Type.Boolean())
})

export const RegistrarInfo = Type.Object({
  registrar: Type.Optional(Type.String()),
  whoisExpiration: Type.Optional(Type.String({ description: 'yyyy-MM-dd HH:mm:ss' })),
  nameServers: Type.Optional(Type.Object({ ok: listOfNames, unknown: listOfNames, missing: listOfNames, incorrect: listOfNames }))
})

export const PrimaryZoneDto = Type.Object({
  properties: zonePropertiesOf('PRIMARY'),
  registrarInfo: Type.Optional(RegistrarInfo),
  inherit: Type.Optional(Type.String()),
  restrictIpList: Type.Optional(Type.Array(Type.Object({ startIP: Type.String(), endIP: Type.String(), comment: Type.Optional(Type.String()) }))),
  tsig: Type.Optional(Type.Object({
    tsigKeyName: Type.String(),
    tsigKeyValue: Type.String({ description: 'The secret for callers who may write the zone, <TSIG_KEY_VALUE> for others.' }),
    tsigAlgorithm: Type.String(),
    description: Type.Optional(Type.String())
  })),
  notifyAddresses: Type.Optional(Type.Array(Type.Object({ notifyAddress: Type.String(), description: Type.Optional(Type.String()) })))
}, { title: 'Primary zone' })

const NameServerOut = Type.Object({
  ip: Type.String(),
  tsigKey: Type.Optional(Type.String()),
  tsigKeyValue: Type.Optional(Type.String({ description: 'The secret for callers who may write the zone, <TSIG_KEY_VALUE> for others.' })),
  tsigAlgorithm: Type.Optional(Type.String())
})

export const SecondaryZoneDto = Type.Object({
  properties: zonePropertiesOf('SECONDARY'),
  primaryNameServers: Type.Optional(Type.Object({
    nameServerIpList: Type.Record(Type.String({ pattern: '^nameServerIp[0-9]+$' }), NameServerOut, { description: 'nameServerIp1, nameServerIp2, …' })
  })),
  transferStatusDetails: Type.Optional(Type.Object({
    lastRefresh: Type.Optional(Type.String({ description: 'MM/dd/yy hh:mm:ss AM/PM GMT' })),
    nextRefresh: Type.Optional(Type.String({ description: 'MM/dd/yy hh:mm:ss AM/PM GMT' })),
    lastRefreshStatus: Type.Optional(Type.String({ description: 'IN_PROGRESS, SUCCESSFUL or FAILED' })),
    lastRefreshStatusMessage: Type.Optional(Type.String())
  })),
  notificationEmailAddress: Type.Optional(Type.String())
}, { title: 'Secondary zone' })

export const AliasZoneDto = Type.Object({
  properties: zonePropertiesOf('ALIAS'),
  originalZoneName: Type.String()
}, { title: 'Alias zone' })

/** The Zone DTO of `GET /zones/{zoneName}`, by `properties.type`. */
export const ZoneDto = Type.Union([PrimaryZoneDto, SecondaryZoneDto, AliasZoneDto], { description: 'Zone DTO by type (properties.type PRIMARY, SECONDARY or ALIAS)' })
