import { Type } from 'typebox'
import { ResultInfo } from './common.ts'

/** Path of the rrset lists and of one rrset (`rrType` and `ownerName` as the client wrote them). */
export const RrsetZoneParams = Type.Object({ zoneName: Type.String({ minLength: 1, maxLength: 1024 }) })
export const RrsetTypeParams = Type.Object({
  zoneName: Type.String({ minLength: 1, maxLength: 1024 }),
  rrType: Type.String({ minLength: 1, maxLength: 40, description: 'A type name (A), number (1), the "A (1)" spelling, or ANY (reads only).' })
})
export const RrsetParams = Type.Object({
  zoneName: Type.String({ minLength: 1, maxLength: 1024 }),
  rrType: Type.String({ minLength: 1, maxLength: 40, description: 'A type name (A), number (1), the "A (1)" spelling, or ANY (reads only).' }),
  ownerName: Type.String({ minLength: 1, maxLength: 1024, description: 'Relative (www), absolute (www.example.org.) or @ for the apex.' })
})

/**
 * Query string of the rrset lists. All values are strings checked by the route, so an empty value
 * means "the default" and a bad value is answered with a message naming the parameter.
 */
export const RrsetListQuerystring = Type.Object({
  q: Type.Optional(Type.String({
    maxLength: 2000,
    description: 'Space-separated key:value terms: ttl (exact), owner (substring), value (substring of the rdata, may hold spaces), ' +
      'kind (comma-separated ALL, RECORDS, POOLS, RD_POOLS, SB_POOLS, TC_POOLS, SF_POOLS, SLB_POOLS, DIR_POOLS).'
  })),
  sort: Type.Optional(Type.String({ maxLength: 100, description: 'OWNER (default), TTL, TYPE or VALUE, in any case.' })),
  reverse: Type.Optional(Type.String({ maxLength: 20, description: 'true for descending order; any case, default false.' })),
  offset: Type.Optional(Type.String({ maxLength: 20, description: '0-based position of the first rrset, default 0.' })),
  limit: Type.Optional(Type.String({ maxLength: 20, description: 'Rrsets per page, 1 to 1000, default 100.' }))
})

/** One rrset as GET shows it: absolute owner, rrtype as `A (1)`, rdata strings, the pool profile. */
export const RrsetDto = Type.Object({
  ownerName: Type.String(),
  rrtype: Type.String(),
  ttl: Type.Integer(),
  rdata: Type.Array(Type.String({ description: 'One record: presentation format (`10 mail.example.org.`); for TXT and SPF the text itself (`v=spf1 -all`), strings joined.' })),
  profile: Type.Optional(Type.Record(Type.String(), Type.Unknown()))
})

/** The rrset list of every GET (reference notes §7): the key is `rrSets`. */
export const RrsetList = Type.Object({
  zoneName: Type.String(),
  rrSets: Type.Array(RrsetDto),
  queryInfo: Type.Object({
    q: Type.Optional(Type.String()),
    sort: Type.String(),
    reverse: Type.Boolean(),
    limit: Type.Integer()
  }),
  resultInfo: ResultInfo
})

/** Body of POST, PUT and PATCH (merge); validated by the service with UltraDNS error codes. */
export const RrsetBody = Type.Unknown({
  description: '{ttl?, rdata: [..], profile?, changeComment?}; with Content-Type application/json-patch+json on PATCH, a list of RFC 6902 operations on {ttl, rdata, profile}, rdata fields addressable as /rdata/0/1.'
})

export const exampleRrsetA = { ttl: 300, rdata: ['192.0.2.80'] }
export const exampleRrsetMx = { ttl: 3600, rdata: ['10 mail.example.org.', '20 mail2.example.org.'], changeComment: 'mail servers' }
export const exampleRrsetRdPool = {
  ttl: 300,
  rdata: ['192.0.2.80', '192.0.2.81'],
  profile: { '@context': 'http://schemas.ultradns.com/RDPool.jsonschema', order: 'ROUND_ROBIN', description: 'www' }
}

/** Body of POST (create): as {@link RrsetBody}, with examples for the OpenAPI document. */
export const RrsetCreateBody = Type.Unknown({
  description: '{ttl?, rdata: [..], profile?, changeComment?}: the TTL (default 86400), the records in presentation form, a pool profile.',
  'x-examples': {
    a: { summary: 'An A record (POST …/rrsets/A/www)', value: exampleRrsetA },
    mx: { summary: 'Two MX records (POST …/rrsets/MX/@)', value: exampleRrsetMx },
    rdPool: { summary: 'A resource distribution pool (POST …/rrsets/A/www)', value: exampleRrsetRdPool }
  }
})
