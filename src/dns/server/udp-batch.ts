import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { getSystemErrorName } from 'node:util'

/**
 * The batched UDP socket (native/udp-batch, built at install on Linux): one recvmmsg(2) reads up
 * to `slots` datagrams into memory shared with JavaScript, `onBatch` is called once for them,
 * and the replies left in the shared output go out with one sendmmsg(2). Where the addon is not
 * built or does not load, {@link loadUdpBatch} says why and the listeners use `node:dgram`.
 */
export interface UdpBatchAddon {
  open (host: string, port: number, ipv6: boolean, reusePort: boolean, slots: number): UdpBatchHandle
  start (handle: UdpBatchHandle, onBatch: (count: number | null, errno: number) => void): void
  send (handle: UdpBatchHandle, count: number): number
  close (handle: UdpBatchHandle): void
  ref (handle: UdpBatchHandle, on: boolean): void
  /** Octets per datagram slot of `input` and `output` (every UDP payload fits). */
  SLOT_SIZE: number
  /** Numbers per slot of `meta`: length, source port, length of the address text, truncated. */
  META: number
  /** Octets per slot of `address`: the source address as text. */
  ADDRESS_SIZE: number
}

/** One open batched socket: its port and the memory it shares with JavaScript. */
export interface UdpBatchHandle {
  port: number
  /** The datagrams of the batch being handled, one per slot. */
  input: Uint8Array
  /** The replies to send, one per slot. */
  output: Uint8Array
  meta: Uint32Array
  address: Uint8Array
  /** Per reply: its length, and the index in the batch of the datagram it answers. */
  replies: Uint32Array
}

/** Where the install step leaves the addon (scripts/build-native.mjs). */
export const UDP_BATCH_ADDON = fileURLToPath(new URL('../../../native/udp-batch/build/Release/udp_batch.node', import.meta.url))

let loaded: { addon: UdpBatchAddon } | { error: string } | undefined

/** The addon, or why it cannot be used here (read once per thread). */
export function loadUdpBatch (): { addon: UdpBatchAddon } | { error: string } {
  if (loaded !== undefined) return loaded
  if (process.platform !== 'linux') loaded = { error: `no recvmmsg/sendmmsg on ${process.platform}` }
  else if (!existsSync(UDP_BATCH_ADDON)) loaded = { error: `${UDP_BATCH_ADDON} was not built (see the install step's output)` }
  else {
    try {
      loaded = { addon: createRequire(import.meta.url)(UDP_BATCH_ADDON) as UdpBatchAddon }
    } catch (err) {
      loaded = { error: `${UDP_BATCH_ADDON} does not load: ${err instanceof Error ? err.message : String(err)}` }
    }
  }
  return loaded
}

/** An error like node's system errors (code, errno, syscall) from a libuv error number. */
export function systemError (errno: number, syscall: string): NodeJS.ErrnoException {
  const code = getSystemErrorName(errno)
  return Object.assign(new Error(`${syscall} ${code}`), { code, errno, syscall })
}

/**
 * A datagram of a batch and who sent it: valid only while its batch is being handled.
 * `received` is `performance.now()` when the batch reached JavaScript (one reading per batch).
 */
export type BatchDatagram = (request: Buffer, address: string, port: number, received: number) => Uint8Array | undefined

/** IPv4 source addresses as text by their 32 bits: most batches come from a few clients. */
const ADDRESS_CACHE_SIZE = 4096

/**
 * A UDP socket read and written in batches. `answer` is called for each datagram, in order, and
 * returns the reply to send to its source (or undefined); the replies of a batch go out together
 * once every datagram of it is answered. An exception of `answer` goes to `onError` and the
 * datagram gets no reply, as do socket errors.
 */
export class BatchUdpSocket {
  readonly #addon: UdpBatchAddon
  readonly #handle: UdpBatchHandle
  readonly #host: string
  readonly #family: 'IPv4' | 'IPv6'
  #closed = false
  /** Batches read (recvmmsg calls that returned datagrams) and the datagrams in them. */
  readonly stats = { batches: 0, datagrams: 0 }

  constructor (addon: UdpBatchAddon, host: string, port: number, ipv6: boolean, reusePort: boolean, answer: BatchDatagram, onError: (err: unknown) => void, slots = 64) {
    this.#addon = addon
    this.#host = host
    this.#family = ipv6 ? 'IPv6' : 'IPv4'
    const handle = this.#handle = addon.open(host, port, ipv6, reusePort, slots)
    const { SLOT_SIZE: slot, META: meta, ADDRESS_SIZE: size } = addon
    const input = Buffer.from(handle.input.buffer, handle.input.byteOffset, handle.input.byteLength)
    const text = Buffer.from(handle.address.buffer, handle.address.byteOffset, handle.address.byteLength)
    const { output, replies } = handle
    const info = handle.meta
    const raw = new DataView(handle.address.buffer, handle.address.byteOffset, handle.address.byteLength)
    const names = new Map<number, string>()
    const addressOf = (i: number): string => {
      const at = i * size
      if (ipv6) return text.toString('latin1', at, at + info[i * meta + 2]!)
      const key = raw.getUint32(at + size - 4)
      let name = names.get(key)
      if (name === undefined) {
        if (names.size >= ADDRESS_CACHE_SIZE) names.clear()
        name = text.toString('latin1', at, at + info[i * meta + 2]!)
        names.set(key, name)
      }
      return name
    }
    addon.start(handle, (count, errno) => {
      if (count === null) {
        onError(systemError(errno, 'recvmmsg'))
        return
      }
      const received = performance.now()
      this.stats.batches++
      this.stats.datagrams += count
      let out = 0
      for (let i = 0; i < count; i++) {
        const m = i * meta
        if (info[m + 3] !== 0) continue // larger than a slot: never, every UDP payload fits
        try {
          const reply = answer(input.subarray(i * slot, i * slot + info[m]!), addressOf(i), info[m + 1]!, received)
          if (reply === undefined || this.#closed) continue
          output.set(reply, out * slot)
          replies[2 * out] = reply.length
          replies[2 * out + 1] = i
          out++
        } catch (err) {
          onError(err)
        }
      }
      if (out > 0 && !this.#closed) {
        try {
          addon.send(handle, out)
        } catch (err) {
          onError(err)
        }
      }
    })
  }

  address (): AddressInfo {
    return { address: this.#host, family: this.#family, port: this.#handle.port }
  }

  /** Stop reading and free the port at once (idempotent, as dgram's close is not). */
  close (): void {
    if (this.#closed) return
    this.#closed = true
    this.#addon.close(this.#handle)
  }

  ref (): this {
    if (!this.#closed) this.#addon.ref(this.#handle, true)
    return this
  }

  unref (): this {
    if (!this.#closed) this.#addon.ref(this.#handle, false)
    return this
  }
}
