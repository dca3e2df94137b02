import { name, u16 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'
import { svcParams, validateSvcParams } from './svcb-params.ts'

/**
 * SVCB: service binding (RFC 9460 §2.2): SvcPriority, TargetName (never compressed, §2.2) and
 * SvcParams (`svcb-params.ts`; dohpath RFC 9461, ohttp RFC 9540). Priority 0 is AliasMode
 * (§2.4.2), any other ServiceMode (§2.4.3).
 */
export const SVCB = defineType({
  type: RRType.SVCB,
  mnemonic: 'SVCB',
  rfcs: ['RFC 9460 §2.2', 'RFC 9461 §5', 'RFC 9540 §4'],
  fields: [u16('priority'), name('target'), svcParams('params')],
  validate: validateSvcParams
})
