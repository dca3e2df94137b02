/**
 * Loads every record type module, so each registers itself. Import this (not the modules one by
 * one) wherever rdata is parsed or written.
 */
import './a.ts'
import './aaaa.ts'
import './afsdb.ts'
import './caa.ts'
import './cname.ts'
import './dname.ts'
import './hinfo.ts'
import './kx.ts'
import './mf.ts'
import './mx.ts'
import './naptr.ts'
import './ns.ts'
import './ptr.ts'
import './rp.ts'
import './soa.ts'
import './spf.ts'
import './srv.ts'
import './txt.ts'
import './uri.ts'

export * from './registry.ts'
export { RdataError, tokenize, type Token } from './tokens.ts'
