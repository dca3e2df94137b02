/**
 * The rdata layer's entry point: the registry (complete on its own: it imports every type
 * module) and the presentation tokens.
 */
export * from './registry.ts'
export { RdataError, tokenize, type Token } from './tokens.ts'
