import { name, u16 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'
import { svcParams, validateSvcParams } from './svcb-params.ts'

/**
 * HTTPS: SVCB for the HTTP origins (RFC 9460 §9), the same rdata layout and SvcParams as
 * SVCB (`svcb-params.ts`).
 */
export const HTTPS = defineType({
  type: RRType.HTTPS,
  mnemonic: 'HTTPS',
  rfcs: ['RFC 9460 §9', 'RFC 9461 §5', 'RFC 9540 §4'],
  fields: [u16('priority'), name('target'), svcParams('params')],
  validate: validateSvcParams
})
