const SLAB_SIZE = 16 * 1024

let slab = new Uint8Array(SLAB_SIZE)
let used = 0

/**
 * Copy bytes into a shared slab and return a view of the copy. Names and rdata are small and
 * numerous (a million-record zone holds two million of them): views into 16 KiB slabs cost far
 * less memory and garbage collection than one ArrayBuffer each. Larger values get their own.
 */
export function slabCopy (bytes: Uint8Array): Uint8Array {
  const n = bytes.length
  if (n > 1024) return bytes.slice()
  if (used + n > SLAB_SIZE) {
    slab = new Uint8Array(SLAB_SIZE)
    used = 0
  }
  const view = slab.subarray(used, used + n)
  view.set(bytes)
  used += n
  return view
}
