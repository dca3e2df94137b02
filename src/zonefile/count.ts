import { parseRange, rangeCount } from './generate.ts'
import { ZoneLexer } from './lexer.ts'

/** How many records a zone file would give, counted without parsing a record. */
export interface ZoneFileCount {
  /** Record entries, plus what every `$GENERATE` line would make. */
  records: number
  /** What the `$GENERATE` lines would make together. */
  generated: number
}

const DOLLAR = 0x24

/**
 * Count the records of a zone file the cheap way: the text is only split into entries (the
 * lexer), each entry not a directive counts one, each `$GENERATE` line the size of its range
 * (nothing is expanded). The count is what the file says: an upper bound of what parsing gives
 * (entries in error and duplicates are counted too). Limits are checked on it before any work.
 */
export function countZoneFile (text: string): ZoneFileCount {
  let records = 0
  let generated = 0
  const lexer = new ZoneLexer((e) => {
    const first = e.tokens[0]
    if (first === undefined) return
    if (!e.blankOwner && !first.quoted && first.text.charCodeAt(0) === DOLLAR) {
      if (first.text.toUpperCase() !== '$GENERATE' || e.tokens.length < 2) return
      const range = parseRange(e.tokens[1]!.text)
      if (range === undefined) return
      const n = rangeCount(range)
      generated += n
      records += n
      return
    }
    records++
  }, () => {})
  lexer.push(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  lexer.end()
  return { records, generated }
}
