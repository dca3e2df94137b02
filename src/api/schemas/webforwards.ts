import { Type } from 'typebox'
import { ResultInfo } from './common.ts'

const FORWARD_TYPES = 'Framed, HTTP_301_REDIRECT, HTTP_302_REDIRECT, HTTP_303_REDIRECT or HTTP_307_REDIRECT'

export const WebForwardZoneParams = Type.Object({ zoneName: Type.String({ minLength: 1, maxLength: 1024 }) })
export const WebForwardParams = Type.Object({
  zoneName: Type.String({ minLength: 1, maxLength: 1024 }),
  guid: Type.String({ minLength: 1, maxLength: 64, description: 'The forward\'s guid (16 hex digits).' })
})

export const WebForwardRule = Type.Object({
  header: Type.String(),
  matchCriteria: Type.String({ description: 'BEGINS_WITH, CONTAINS, ENDS_WITH or MATCHES (a regular expression).' }),
  value: Type.String(),
  caseInsensitive: Type.Boolean()
})

export const WebForwardRecord = Type.Object({
  redirectTo: Type.String(),
  forwardType: Type.String({ description: FORWARD_TYPES }),
  priority: Type.Integer(),
  rules: Type.Array(WebForwardRule)
})

/** The WebForward DTO as GET shows it. */
export const WebForwardDto = Type.Object({
  guid: Type.String(),
  requestTo: Type.String(),
  defaultRedirectTo: Type.String(),
  defaultForwardType: Type.String({ description: FORWARD_TYPES }),
  relativeForwardType: Type.Optional(Type.String({ description: 'PARAMETER, PATH or PARAMETER_AND_PATH; absent: nothing of the request is carried over.' })),
  records: Type.Optional(Type.Array(WebForwardRecord))
})

/** The WebForwardList DTO. */
export const WebForwardList = Type.Object({
  queryInfo: Type.Object({
    q: Type.Optional(Type.String()),
    sort: Type.String(),
    reverse: Type.Boolean(),
    limit: Type.Integer()
  }),
  resultInfo: ResultInfo,
  webForwards: Type.Array(WebForwardDto)
})

/** The Web Forward Create DTO. */
export const WebForwardCreated = Type.Object({ guid: Type.String() })

export const WebForwardListQuerystring = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 2000, description: 'Space-separated terms: type (a forward type), advanced (true or false), name (substring of the request URL or a target, any case).' })),
  sort: Type.Optional(Type.String({ maxLength: 100, description: 'REQUEST_TO (default), REDIRECT_TO, TYPE, DOMAIN or ADVANCED, any case.' })),
  reverse: Type.Optional(Type.String({ maxLength: 20, description: 'true for descending order; default false.' })),
  offset: Type.Optional(Type.String({ maxLength: 20, description: '0-based position of the first forward, default 0.' })),
  limit: Type.Optional(Type.String({ maxLength: 20, description: 'Forwards per page, 1 to 1000, default 100.' }))
})

export const exampleWebForward = { requestTo: 'go.example.org', defaultRedirectTo: 'https://example.net/', defaultForwardType: 'HTTP_301_REDIRECT' }
export const exampleAdvancedWebForward = {
  requestTo: 'shop.example.org/offers#spring',
  defaultRedirectTo: 'https://shop.example.net/offers',
  defaultForwardType: 'HTTP_302_REDIRECT',
  relativeForwardType: 'PATH',
  records: [{ redirectTo: 'https://m.example.net:8443/offers', forwardType: 'HTTP_302_REDIRECT', priority: 1, rules: [{ header: 'User-Agent', matchCriteria: 'CONTAINS', value: 'Mobile', caseInsensitive: true }] }]
}

/** Body of POST, PUT and PATCH; validated by the service with UltraDNS error codes. */
export const WebForwardBody = Type.Unknown({
  description: 'A WebForward DTO {requestTo, defaultRedirectTo, defaultForwardType, relativeForwardType?, records?, changeComment?}; PATCH merges it into the stored forward, or with Content-Type application/json-patch+json applies RFC 6902 operations to the forward\'s document.',
  'x-examples': {
    simple: { summary: 'A permanent redirect of a host', value: exampleWebForward },
    advanced: { summary: 'A page with an anchor, the path carried over, mobile clients sent elsewhere', value: exampleAdvancedWebForward }
  }
})

export const CustomHeaderParams = Type.Object({
  accountName: Type.String({ minLength: 1, maxLength: 255 }),
  headerName: Type.String({ minLength: 1, maxLength: 255 })
})

/** The Custom Header List DTO. */
export const CustomHeaderList = Type.Object({ names: Type.Array(Type.String()) })

export const CustomHeaderBody = Type.Unknown({
  description: 'A Custom Header List DTO {names: [...]}: HTTP header names.',
  'x-examples': { two: { summary: 'Two header names', value: { names: ['X-Client-Tier', 'X-Region'] } } }
})
