import type { Field, ParseContext } from './fields.ts'
import type { Token } from './tokens.ts'

/**
 * A record type: its number and mnemonic, its rdata layout, and the RFCs it follows. Each type
 * lives in its own module (`zone/rdata/<type>.ts`, STYLE.md §8.1) and is listed in
 * `registry.ts`, which imports every module itself, so the registry is complete whatever
 * imports it first.
 */
export interface RdataType {
  readonly type: number
  readonly mnemonic: string
  readonly rfcs: readonly string[]
  readonly fields: readonly Field[]
  /** Semantic checks beyond the layout; returns reasons (empty when valid). */
  validate?: (rdata: Uint8Array) => string[]
  /** Custom presentation parser, when a field list cannot express the type. */
  parse?: (tokens: readonly Token[], ctx: ParseContext) => Uint8Array
  /** Custom presentation writer. */
  format?: (rdata: Uint8Array) => string
  /** Custom wire check. @throws WireError */
  check?: (rdata: Uint8Array) => void
}

/** A type definition (typed; the registry lists it). */
export function defineType (t: RdataType): RdataType {
  return t
}
