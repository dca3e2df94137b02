import type { HealthCheck } from '../types.ts'
import { dnssecDs } from './dnssec-ds.ts'
import { dnssecSigned } from './dnssec-signed.ts'
import { domainApexCname } from './domain-apex-cname.ts'
import { domainDelegation } from './domain-delegation.ts'
import { domainGlue } from './domain-glue.ts'
import { mxPresent } from './mx-present.ts'
import { mxTargets } from './mx-targets.ts'
import { nsAuthoritative } from './ns-authoritative.ts'
import { nsCount } from './ns-count.ts'
import { nsParent } from './ns-parent.ts'
import { nsRecursion } from './ns-recursion.ts'
import { nsResolve } from './ns-resolve.ts'
import { nsRespond } from './ns-respond.ts'
import { nsSerial } from './ns-serial.ts'
import { soaExists } from './soa-exists.ts'
import { soaMname } from './soa-mname.ts'
import { soaRname } from './soa-rname.ts'
import { soaExpire, soaMinimum, soaRefresh, soaRetry } from './soa-timers.ts'

/** Every check, in report order (by category, then as listed). A new check is a module and a line here. */
export const HEALTH_CHECKS: readonly HealthCheck[] = [
  nsParent, nsCount, nsResolve, nsRespond, nsAuthoritative, nsSerial, nsRecursion,
  soaExists, soaRefresh, soaRetry, soaExpire, soaMinimum, soaMname, soaRname,
  mxPresent, mxTargets,
  dnssecSigned, dnssecDs,
  domainApexCname, domainDelegation, domainGlue
]
