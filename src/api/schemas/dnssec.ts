import { Type } from 'typebox'

/**
 * The Zone DNSSEC APIs' shapes (UltraDNS "Zone DNSSEC APIs": DNSSEC Info Response DTO, Policy DTO,
 * NSEC3 Parameters DTO, Key Policy DTO, Key DTO; "KSK Key Rollover" body).
 */

export const DnssecPolicyInput = Type.Object({
  dnsKeyTtl: Type.Optional(Type.Integer({ minimum: 300, maximum: 172800, description: 'TTL of the DNSKEY rrset, seconds (also spelt dnskeyTtl)' })),
  rrsigValidity: Type.Optional(Type.Integer({ minimum: 5, maximum: 30, description: 'How long a signature is valid, days' })),
  zskRolloverFrequency: Type.Optional(Type.Integer({ minimum: 30, maximum: 120, description: 'Days between ZSK rollovers' })),
  kskRolloverFrequency: Type.Optional(Type.Integer({ minimum: 365, maximum: 1826, description: 'Days between KSK rollovers' })),
  algorithm: Type.Optional(Type.String({ enum: ['ECDSAP256SHA256', 'ED25519', 'RSASHA256'] })),
  securityType: Type.Optional(Type.String({ enum: ['NSEC', 'NSEC3', 'NSEC3_OPT_OUT'] }))
}, { description: 'Overrides of the default DNSSEC settings; checked by the service, each bad field a 400 naming it' })

/** The body of sign, re-sign and unsign (all optional; the clients send `{}`). */
export const DnssecBody = Type.Unknown({ description: '{changeComment?, dnssecPolicy?} (dnssecPolicy on POST, PUT and PATCH)' })

const KeyPolicy = Type.Object({ type: Type.String(), bitLength: Type.Integer(), keyRolloverFrequency: Type.Integer() })

export const DnssecPolicyDto = Type.Object({
  algorithm: Type.String(),
  securityType: Type.String(),
  /** Milliseconds, as the real API's example shows it. */
  rrsigSignatureDuration: Type.Integer(),
  nsec3Parameters: Type.Optional(Type.Object({ salt: Type.String(), optOutFlag: Type.Integer(), iterations: Type.Integer(), hashAlgorithm: Type.String() })),
  keyPolicy: Type.Array(KeyPolicy)
})

export const DnssecKeyDto = Type.Object({
  type: Type.String(),
  bitLength: Type.Integer(),
  keyRolloverFrequency: Type.Integer(),
  status: Type.String({ enum: ['CURRENT', 'FUTURE', 'EXPIRED'] }),
  created: Type.String(),
  nextRoll: Type.Optional(Type.String()),
  keyId: Type.Integer(),
  publicKey: Type.String(),
  dnsKeyRecord: Type.String(),
  dsRecords: Type.Optional(Type.Array(Type.String()))
})

export const DnssecInfoDto = Type.Object({
  status: Type.String({ enum: ['SIGNED', 'UNSIGNED'] }),
  policy: Type.Optional(DnssecPolicyDto),
  dnssecPolicy: Type.Optional(DnssecPolicyInput),
  keys: Type.Array(DnssecKeyDto),
  lastModifiedDateTime: Type.Optional(Type.String()),
  lastModifiedZoneDateTime: Type.String(),
  resignNeeded: Type.Boolean()
})

export const DsRecordsDto = Type.Object({ dsRecords: Type.Array(Type.String()) })
