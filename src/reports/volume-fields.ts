import { VOLUME_COUNTERS, type VolumeCounter } from '../store/query-count-columns.ts'

/**
 * The query volume fields of the zone, zone daily and host query volume records (spec "Zone
 * query volume record"), in the real API's order, by stored counter. The spec's table spells the
 * UDP total `updTotal` and its example `udpTotal`: records carry both, with the same value.
 */
const FIELD_OF: Readonly<Record<VolumeCounter, string>> = {
  rsp_total: 'rspTotal',
  tcp: 'tcpTotal',
  udp: 'udpTotal',
  ipv4: 'ipv4Total',
  ipv6: 'ipv6Total',
  ipv4_tcp: 'ipv4tcpTotal',
  ipv4_udp: 'ipv4udpTotal',
  ipv6_tcp: 'ipv6tcpTotal',
  ipv6_udp: 'ipv6udpTotal',
  type_a: 'recordA',
  type_a6: 'recordA6',
  type_aaaa: 'recordAAAA',
  type_any: 'recordAny',
  type_axfr: 'recordAxfr',
  type_cert: 'recordCert',
  type_cname: 'recordCname',
  type_dlv: 'recordDlv',
  type_dnskey: 'recordDnskey',
  type_hinfo: 'recordHinfo',
  type_ipseckey: 'recordIpseckey',
  type_ixfr: 'recordIxfr',
  type_loc: 'recordLoc',
  type_mf: 'recordMf',
  type_naptr: 'recordNaptr',
  type_mx: 'recordMx',
  type_ns: 'recordNs',
  type_nsec: 'recordNsec',
  type_nsec3: 'recordNsec3',
  type_nsec3param: 'recordNsec3Param',
  type_rp: 'recordRp',
  type_ptr: 'recordPtr',
  type_rrsig: 'recordRrsig',
  type_soa: 'recordSoa',
  type_spf: 'recordSpf',
  type_srv: 'recordSrv',
  type_sshfp: 'recordSshfp',
  type_ta: 'recordTa',
  type_tsig: 'recordTsig',
  type_tkey: 'recordTkey',
  type_txt: 'recordTxt',
  type_https: 'recordHttps',
  type_svcb: 'recordSvcb'
}

/** The counter fields in record order, `updTotal` right after `udpTotal`. */
export const VOLUME_FIELDS: readonly string[] = VOLUME_COUNTERS.flatMap(c => c === 'udp' ? [FIELD_OF[c], 'updTotal'] : [FIELD_OF[c]])

/** The counter fields of a record from the stored counters (0 for any not given). */
export function volumeFields (counts: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const c of VOLUME_COUNTERS) {
    out[FIELD_OF[c]] = counts[c] ?? 0
    if (c === 'udp') out.updTotal = counts[c] ?? 0
  }
  return out
}
