/** DNS header values (RFC 1035 §4.1.1, RFC 6895). */
export const Opcode = { QUERY: 0, IQUERY: 1, STATUS: 2, NOTIFY: 4, UPDATE: 5 } as const

export const Rcode = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  YXDOMAIN: 6,
  YXRRSET: 7,
  NXRRSET: 8,
  NOTAUTH: 9,
  NOTZONE: 10,
  /** RFC 6891 §6.1.3 (extended, with OPT); TSIG's BADSIG shares the value (RFC 8945 §4.3). */
  BADVERS: 16,
  BADSIG: 16,
  BADKEY: 17,
  BADTIME: 18,
  BADTRUNC: 22
} as const

export const CLASS_IN = 1
export const CLASS_ANY = 255
export const CLASS_NONE = 254

/** Sizes (RFC 1035 §2.3.4, RFC 6891 §6.2.5). */
export const MAX_UDP_NO_EDNS = 512
export const MAX_MESSAGE = 65535
