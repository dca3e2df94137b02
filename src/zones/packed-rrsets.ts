import type { StoredRrset } from '../store/store.ts'
import { ByteReader, ByteWriter } from '../util/byte-pack.ts'

/** What a packed rrset keeps: everything but its pool profile (packed rrsets are plain records). */
export type PackableRrset = Pick<StoredRrset, 'ownerKey' | 'ownerName' | 'type' | 'ttl' | 'rdata'> & { rdataText?: readonly string[] }

/**
 * Rrsets packed into one buffer, to cross to or from a worker thread by transfer rather than by
 * one structured clone per object ({@link unpackRrsets} reads them back). The text of each rdata
 * is kept when the rrset has it, else left empty.
 */
export function packRrsets (rrsets: Iterable<PackableRrset>, initialBytes = 1 << 16): Uint8Array {
  const w = new ByteWriter(initialBytes)
  for (const r of rrsets) {
    w.string(r.ownerKey)
    w.string(r.ownerName)
    w.u16(r.type)
    w.u32(r.ttl)
    w.u32(r.rdata.length)
    for (let i = 0; i < r.rdata.length; i++) {
      w.bytes(r.rdata[i]!)
      w.string(r.rdataText?.[i] ?? '')
    }
  }
  return w.finish()
}

/** The rrsets of {@link packRrsets}, `chunk` at a time (rdata are views into the buffer). */
export function * unpackRrsets (bytes: Uint8Array, chunk: number): Generator<StoredRrset[]> {
  const r = new ByteReader(bytes)
  let out: StoredRrset[] = []
  while (!r.done) {
    const ownerKey = r.string()
    const ownerName = r.string()
    const type = r.u16()
    const ttl = r.u32()
    const n = r.u32()
    const rdata: Uint8Array[] = []
    const rdataText: string[] = []
    for (let i = 0; i < n; i++) {
      rdata.push(r.bytes())
      rdataText.push(r.string())
    }
    out.push({ ownerKey, ownerName, type, ttl, rdata, rdataText, profile: null })
    if (out.length >= chunk) {
      yield out
      out = []
    }
  }
  if (out.length > 0) yield out
}
