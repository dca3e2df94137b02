import { msg, NO_RESOLVERS, notApplicable, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

const list = (names: string[]): string => `[${names.map(n => `'${n}'`).join(', ')}]`

/** RFC 1034 §4.2.2, RFC 2181 §5.4.1: the parent's delegation NS set equals the zone's own (Zonemaster DELEGATION/CONSISTENCY05). */
export const nsParent: HealthCheck = {
  category: 'NS',
  name: 'Authoritative name servers have the same NS record list as the parent zone',
  description: 'The NS records of the delegation at the parent and those at the zone\'s apex should list the same servers; resolvers may use either (RFC 1034 §4.2.2, RFC 2181 §5.4.1).',
  run (o) {
    if (o.network === undefined) return notApplicable(NO_RESOLVERS)
    const p = o.network.parent
    if (!p.ok || p.ns.length === 0) return notApplicable(`The delegation of '${o.zone}' was not found at its parent${p.ok ? '' : `: ${p.error}`}.`)
    const parent = [...p.ns].sort()
    const child = [...o.ns].sort()
    const same = parent.length === child.length && parent.every((n, i) => n === child[i])
    if (same) return outcome([msg('OK', `The NS set from parent ${list(parent)} and NS set from zone ${list(child)} are same.`)])
    const onlyParent = parent.filter(n => !child.includes(n))
    const onlyChild = child.filter(n => !parent.includes(n))
    return outcome([msg('WARNING', `The NS set from parent ${list(parent)} and NS set from zone ${list(child)} differ` +
      `${onlyParent.length > 0 ? `; only at the parent: ${list(onlyParent)}` : ''}${onlyChild.length > 0 ? `; only in the zone: ${list(onlyChild)}` : ''}.`)],
    'Make the delegation at the registrar list exactly the name servers of the zone\'s NS records.')
  }
}
