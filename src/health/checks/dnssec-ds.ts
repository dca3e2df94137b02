import { dsRdata, keyTagOf } from '../../zone/dnssec/keys.ts'
import { parseName } from '../../zone/name.ts'
import { msg, NO_RESOLVERS, notApplicable, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

/** Digest types a DS can be checked with here (RFC 4034 §5.1.4 SHA-1, RFC 4509 SHA-256, RFC 6605 SHA-384). */
const DIGESTS = new Set([1, 2, 4])

const sameOctets = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i])

/** A DS rdata as presentation text: key tag, algorithm, digest type, digest in hex (RFC 4034 §5.3). */
function dsText (ds: Uint8Array): string {
  const tag = (ds[0]! << 8) | ds[1]!
  return `${tag} ${ds[2]!} ${ds[3]!} ${Buffer.from(ds.subarray(4)).toString('hex').toUpperCase()}`
}

/**
 * RFC 4035 §5, RFC 4509: the DS records at the parent against the zone's DNSKEYs. A DS matches a
 * key when its key tag, algorithm and digest (of the owner name and the DNSKEY rdata) are the
 * key's. A signed zone whose DS matches none of its keys fails validation everywhere (SERVFAIL);
 * a DS left for a key the zone no longer has is stale; a signed zone without DS is not validated
 * (no chain of trust); DS records for an unsigned zone break its resolution at validators.
 */
export const dnssecDs: HealthCheck = {
  category: 'DNSSEC',
  name: 'DS records at the parent match the zone\'s DNSKEYs',
  description: 'The parent\'s DS records link the zone into the chain of trust; each must be the digest of one of the zone\'s DNSKEYs, or validating resolvers fail the zone (RFC 4035 §5, RFC 4509).',
  run (o) {
    if (o.network === undefined) return notApplicable(NO_RESOLVERS)
    const p = o.network.parent
    if (!p.ok) return notApplicable(`The delegation of '${o.zone}' was not found at its parent: ${p.error}.`)
    if (!p.ds.ok) return notApplicable(`The DS records of '${o.zone}' could not be read at its parent: ${p.ds.error}.`)
    const ds = p.ds.records
    if (o.dnskeys.length === 0) {
      if (ds.length === 0) return outcome([msg('INFO', `Zone '${o.zone}' is not signed and its parent '${p.parent}' holds no DS records for it.`)])
      return outcome([msg('ERROR', `The parent '${p.parent}' holds DS records for '${o.zone}' [${ds.map(dsText).join(', ')}], but the zone is not signed: validating resolvers fail its names.`)],
        'Remove the DS records at the registrar, or sign the zone.')
    }
    if (ds.length === 0) {
      return outcome([msg('WARNING', `Zone '${o.zone}' is signed but its parent '${p.parent}' holds no DS record for it: its answers are not validated.`)],
        'Publish the DS records of the zone\'s key signing key at the registrar (GET /zones/{zoneName}/dnssec lists them).')
    }
    const owner = parseName(o.zone)
    const matching: string[] = []
    const stale: string[] = []
    for (const record of ds) {
      const tag = (record[0]! << 8) | record[1]!
      const matches = DIGESTS.has(record[3]!) && o.dnskeys.some(key => key[3] === record[2] && keyTagOf(key) === tag && sameOctets(dsRdata(owner, key, record[3] as 1 | 2 | 4), record))
      ;(matches ? matching : stale).push(dsText(record))
    }
    if (matching.length === 0) {
      return outcome([msg('ERROR', `None of the DS records at the parent '${p.parent}' [${stale.join(', ')}] matches a DNSKEY of '${o.zone}': validating resolvers fail its names.`)],
        'Replace the DS records at the registrar with those of the zone\'s current key signing key.')
    }
    const messages = [msg('OK', `The DS records [${matching.join(', ')}] at the parent '${p.parent}' match DNSKEYs of '${o.zone}'.`)]
    if (stale.length > 0) messages.push(msg('WARNING', `The DS records [${stale.join(', ')}] at the parent match no DNSKEY of the zone (stale or of an unknown digest type).`))
    return outcome(messages, stale.length > 0 ? 'Remove the stale DS records at the registrar.' : undefined)
  }
}
