/**
 * The columns of the two tables of query counts (migration 0011): query volume and response
 * codes per (day, zone, node). Every one is an additive counter.
 */

/** Query volume: the response total, by transport and IP version, then one per record type. */
export const VOLUME_COUNTERS = [
  'rsp_total', 'tcp', 'udp', 'ipv4', 'ipv6', 'ipv4_tcp', 'ipv4_udp', 'ipv6_tcp', 'ipv6_udp',
  'type_a', 'type_a6', 'type_aaaa', 'type_any', 'type_axfr', 'type_cert', 'type_cname', 'type_dlv',
  'type_dnskey', 'type_hinfo', 'type_ipseckey', 'type_ixfr', 'type_loc', 'type_mf', 'type_naptr',
  'type_mx', 'type_ns', 'type_nsec', 'type_nsec3', 'type_nsec3param', 'type_rp', 'type_ptr',
  'type_rrsig', 'type_soa', 'type_spf', 'type_srv', 'type_sshfp', 'type_ta', 'type_tsig',
  'type_tkey', 'type_txt', 'type_https', 'type_svcb'
] as const

/** Response codes: one per rcode the report names, and the rest. */
export const RCODE_COUNTERS = ['noerror', 'formerr', 'servfail', 'nxdomain', 'notimp', 'refused', 'other'] as const

export type VolumeCounter = typeof VOLUME_COUNTERS[number]
export type RcodeCounter = typeof RCODE_COUNTERS[number]
