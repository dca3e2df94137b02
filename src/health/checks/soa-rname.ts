import { msg, notApplicable, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i

/**
 * RFC 1035 §3.3.13 and §8, RFC 1912 §2.2: RNAME is a mailbox written as a name, its first label
 * the local part (a `.` in it escaped), the rest a mail domain: no `@`, at least two labels of
 * host-name syntax after the local part.
 */
export const soaRname: HealthCheck = {
  category: 'SOA',
  name: 'SOA RNAME is a valid mailbox',
  description: 'The SOA RNAME is the mailbox of the person responsible for the zone, written as a domain name: hostmaster.example.org. for hostmaster@example.org (RFC 1035 §8, RFC 1912 §2.2).',
  run (o) {
    if (o.soa === undefined) return notApplicable(`The zone '${o.zone}' has no SOA record.`)
    const rname = o.soa.rname
    const hint = 'Write the mailbox as a name, the @ replaced by a dot: hostmaster.example.org.'
    if (rname.includes('@')) return outcome([msg('ERROR', `The SOA RNAME '${rname}' of the zone '${o.zone}' contains '@'.`)], hint)
    // The local part may hold escaped dots: split after it.
    const local = /^((?:[^.\\]|\\.)*)\.(.*)$/.exec(rname)
    const domain = (local?.[2] ?? '').replace(/\.$/, '')
    const labels = domain === '' ? [] : domain.split('.')
    if (local === null || local[1] === '' || labels.length < 2 || !labels.every(l => LABEL.test(l))) {
      return outcome([msg('ERROR', `The SOA RNAME '${rname}' of the zone '${o.zone}' is not a valid mailbox.`)], hint)
    }
    return outcome([msg('OK', `The SOA RNAME '${rname}' of the zone '${o.zone}' is a valid mailbox.`)])
  }
}
