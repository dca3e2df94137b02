import type { Token } from '../zone/rdata/tokens.ts'
import type { ZoneFileProblemCode } from './problems.ts'

/**
 * One logical entry of a master file (RFC 1035 §5.1): a record or a directive, possibly spread
 * over several lines inside parentheses.
 */
export interface Entry {
  /** 1-based line of the entry's first token or parenthesis. */
  line: number
  /** The entry's first line began with a space or tab: the owner is blank (RFC 1035 §5.1). */
  blankOwner: boolean
  /** The tokens, quotes removed, escapes kept as written (what `parseRdata` expects). */
  tokens: Token[]
  /**
   * A lexical problem was reported for this entry (unterminated quote, unbalanced
   * parentheses): its tokens are only good for the owner.
   */
  broken: boolean
}

/** Longest entry, in characters (comments inside it included), before it is given up. */
export const MAX_ENTRY_CHARS = 64 * 1024

/** Called for each problem the lexer finds. */
export type LexProblem = (code: ZoneFileProblemCode, detail: string, line: number) => void

const TAB = 0x09
const LF = 0x0a
const CR = 0x0d
const SPACE = 0x20
const QUOTE = 0x22
const LPAREN = 0x28
const RPAREN = 0x29
const SEMICOLON = 0x3b
const BACKSLASH = 0x5c

/** Characters that end an unquoted token. */
const DELIMITER = new Uint8Array(128)
for (const c of [TAB, LF, CR, SPACE, QUOTE, LPAREN, RPAREN, SEMICOLON]) DELIMITER[c] = 1

// Lexer modes.
const BETWEEN = 0
const WORD = 1
const QUOTED = 2
const COMMENT = 3
const SKIP = 4

/**
 * An incremental master-file lexer (RFC 1035 §5.1): fed string chunks of any size, it hands out
 * complete entries as soon as they end. It keeps only the entry being read, so memory does not
 * grow with the input.
 *
 * Handled: `;` comments, double-quoted strings (`\"` and `\\` inside; `;` and `(` there are
 * text), backslash escapes outside quotes (`\;`, `\(`, `\DDD` are kept as written for the
 * name and rdata parsers), parentheses across lines (nested too, as BIND allows), CRLF, tabs,
 * blank and whitespace-only lines.
 *
 * Resynchronisation: a quoted string still open at the end of its line (BIND: "unbalanced
 * quotes"), a `)` without `(`, an entry over {@link MAX_ENTRY_CHARS} and an open `(` at the end
 * of the input are reported; the entry then ends at that line (or is dropped, when too long)
 * and lexing goes on with the next line.
 *
 * Problem codes: ZONEFILE_UNTERMINATED_QUOTE, ZONEFILE_UNBALANCED_PARENS, ZONEFILE_LINE_TOO_LONG.
 */
export class ZoneLexer {
  private mode = BETWEEN
  private escaped = false
  private depth = 0
  private line = 1
  private atLineStart = true
  private tokens: Token[] = []
  private started = false
  private entryLine = 0
  /** Absolute position where the entry becomes too long (Infinity between entries). */
  private limitAt = Infinity
  private blankOwner = false
  private broken = false
  /** Text of the current token from earlier chunks. */
  private pending = ''
  private tokenStart = 0
  /** Absolute position of the current chunk's first character. */
  private base = 0

  private readonly onEntry: (e: Entry) => void
  private readonly onProblem: LexProblem
  private readonly maxEntryChars: number

  /**
   * @param onEntry - receives each complete entry (never one without tokens)
   * @param onProblem - receives each lexical problem with its line
   * @param maxEntryChars - the runaway guard (default {@link MAX_ENTRY_CHARS})
   */
  constructor (
    onEntry: (e: Entry) => void,
    onProblem: LexProblem,
    maxEntryChars = MAX_ENTRY_CHARS
  ) {
    this.onEntry = onEntry
    this.onProblem = onProblem
    this.maxEntryChars = maxEntryChars
  }

  /** Lex a chunk; complete entries are handed out before this returns. */
  push (chunk: string): void {
    const n = chunk.length
    let i = 0
    while (i < n) {
      // The runaway guard, at the same character whatever the chunking.
      if (this.base + i >= this.limitAt) {
        this.tooLong()
        continue
      }
      switch (this.mode) {
        case BETWEEN: {
          const c = chunk.charCodeAt(i)
          if (this.atLineStart) {
            this.atLineStart = false
            // RFC 1035 §5.1: a line starting with a blank has the previous owner.
            if (!this.started) this.blankOwner = c === SPACE || c === TAB
          }
          if (c === SPACE || c === TAB || c === CR) {
            i++
          } else if (c === LF) {
            i++
            this.newline()
          } else if (c === SEMICOLON) {
            this.mode = COMMENT
            i++
          } else if (c === LPAREN) {
            this.start(i)
            this.depth++
            i++
          } else if (c === RPAREN) {
            this.start(i)
            if (this.depth === 0) {
              this.onProblem('ZONEFILE_UNBALANCED_PARENS', '")" without "("', this.line)
              this.broken = true
            } else {
              this.depth--
            }
            i++
          } else if (c === QUOTE) {
            this.start(i)
            this.mode = QUOTED
            this.pending = ''
            this.tokenStart = ++i
          } else {
            this.start(i)
            this.mode = WORD
            this.pending = ''
            this.tokenStart = i
          }
          break
        }
        case WORD: {
          const end = Math.min(n, this.limitAt - this.base)
          for (; i < end; i++) {
            const c = chunk.charCodeAt(i)
            if (this.escaped) {
              this.escaped = false
              if (c === LF) this.line++
            } else if (c === BACKSLASH) {
              this.escaped = true
            } else if (c < 128 && DELIMITER[c] === 1) {
              break
            }
          }
          if (i < end) {
            this.tokens.push({ text: this.pending + chunk.slice(this.tokenStart, i), quoted: false })
            this.pending = ''
            this.mode = BETWEEN
          }
          break
        }
        case QUOTED: {
          const end = Math.min(n, this.limitAt - this.base)
          for (; i < end; i++) {
            const c = chunk.charCodeAt(i)
            if (this.escaped) {
              this.escaped = false
              if (c === LF) this.line++
            } else if (c === BACKSLASH) {
              this.escaped = true
            } else if (c === QUOTE || c === LF) {
              break
            }
          }
          if (i < end) {
            const text = this.pending + chunk.slice(this.tokenStart, i)
            this.pending = ''
            this.mode = BETWEEN
            if (chunk.charCodeAt(i) === QUOTE) {
              this.tokens.push({ text, quoted: true })
              i++
            } else {
              // A raw line break inside quotes: BIND's "unbalanced quotes". End the entry at
              // this line (the LF is handled in BETWEEN) so one quote cannot eat the file.
              this.onProblem('ZONEFILE_UNTERMINATED_QUOTE', `"${clip(text)}`, this.line)
              this.broken = true
              this.depth = 0
            }
          }
          break
        }
        case COMMENT: {
          const j = chunk.indexOf('\n', i)
          const end = Math.min(n, this.limitAt - this.base)
          if (j < 0 || j >= end) {
            i = end
          } else {
            i = j
            this.mode = BETWEEN
          }
          break
        }
        default: { // SKIP: drop the rest of the line after an over-long entry.
          const j = chunk.indexOf('\n', i)
          if (j < 0) {
            i = n
          } else {
            i = j + 1
            this.line++
            this.atLineStart = true
            this.mode = BETWEEN
          }
        }
      }
    }
    if (this.mode === WORD || this.mode === QUOTED) {
      this.pending += chunk.slice(this.tokenStart, n)
      this.tokenStart = 0
    }
    this.base += n
  }

  /** Finish: the last entry (even without a final newline) is handed out. */
  end (): void {
    if (this.mode === WORD) {
      this.tokens.push({ text: this.pending, quoted: false })
    } else if (this.mode === QUOTED) {
      this.onProblem('ZONEFILE_UNTERMINATED_QUOTE', `"${clip(this.pending)}`, this.line)
      this.broken = true
    }
    this.pending = ''
    this.mode = BETWEEN
    this.escaped = false
    if (this.depth > 0) {
      this.onProblem('ZONEFILE_UNBALANCED_PARENS', `"(" opened on line ${this.entryLine} not closed at the end of the file`, this.entryLine)
      this.broken = true
    }
    this.emit()
  }

  private start (i: number): void {
    if (this.started) return
    this.started = true
    this.entryLine = this.line
    this.limitAt = this.base + i + this.maxEntryChars
  }

  /** A line feed outside quotes. */
  private newline (): void {
    this.line++
    this.atLineStart = true
    // Inside parentheses a line break is only whitespace (RFC 1035 §5.1).
    if (this.started && this.depth === 0) this.emit()
  }

  private emit (): void {
    if (this.tokens.length > 0) {
      this.onEntry({ line: this.entryLine, blankOwner: this.blankOwner, tokens: this.tokens, broken: this.broken })
    }
    this.reset()
  }

  private reset (): void {
    this.tokens = []
    this.started = false
    this.limitAt = Infinity
    this.broken = false
    this.depth = 0
  }

  /**
   * The runaway guard: drop the entry and skip to the next line (unless the limit falls on the
   * first character of a line).
   */
  private tooLong (): void {
    this.onProblem('ZONEFILE_LINE_TOO_LONG', `longer than ${this.maxEntryChars} characters (an unclosed "(" or quote?); skipped`, this.entryLine)
    const lineStart = this.mode === BETWEEN && this.atLineStart
    this.reset()
    this.pending = ''
    this.escaped = false
    this.mode = lineStart ? BETWEEN : SKIP
  }
}

function clip (s: string): string {
  const t = s.replace(/\s+/g, ' ').trimEnd()
  return t.length > 40 ? t.slice(0, 40) + '…' : t
}
