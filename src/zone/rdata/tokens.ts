/**
 * Presentation-format tokens: what the zone-file lexer produces for the rdata of a record, and
 * what an API rdata string such as `10 mail.example.org.` is split into.
 */
export interface Token {
  /** The token text with quotes removed; escapes are kept as written (`\.`, `\065`). */
  text: string
  /** Written in double quotes (a character string, never a name or number). */
  quoted: boolean
}

/** A rdata value that cannot be parsed or is not valid for its type. */
export class RdataError extends Error {}

/** How {@link tokenize} reads the characters that are special in zone files only. */
export interface TokenizeOptions {
  /**
   * Zone-file syntax (the default): parentheses group and are dropped, `;` starts a comment.
   * `false` for one value on its own (an API rdata string): there they are ordinary characters,
   * so nothing is cut off or dropped silently.
   */
  zoneFile?: boolean
}

/**
 * Split one line of presentation text into tokens: whitespace separates, double quotes group
 * (with `\"` inside), a backslash escapes the next character. In zone-file syntax parentheses
 * are taken as grouping and dropped and `;` starts a comment outside quotes.
 *
 * @throws RdataError for an unterminated quoted string.
 */
export function tokenize (text: string, { zoneFile = true }: TokenizeOptions = {}): Token[] {
  const out: Token[] = []
  const n = text.length
  let i = 0
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || (zoneFile && (c === 0x28 || c === 0x29))) {
      i++
      continue
    }
    if (zoneFile && c === 0x3b) break
    if (c === 0x22) {
      let j = i + 1
      let s = ''
      let closed = false
      while (j < n) {
        const d = text.charCodeAt(j)
        if (d === 0x5c && j + 1 < n) {
          s += text.slice(j, j + 2)
          j += 2
          continue
        }
        if (d === 0x22) {
          closed = true
          break
        }
        s += text[j]
        j++
      }
      if (!closed) throw new RdataError('unterminated quoted string')
      out.push({ text: s, quoted: true })
      i = j + 1
      continue
    }
    let j = i
    while (j < n) {
      const d = text.charCodeAt(j)
      if (d === 0x5c && j + 1 < n) {
        j += 2
        continue
      }
      if (d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d || d === 0x22) break
      if (zoneFile && (d === 0x28 || d === 0x29 || d === 0x3b)) break
      j++
    }
    out.push({ text: text.slice(i, j), quoted: false })
    i = j
  }
  return out
}

/** Sequential access to the tokens of one rdata. */
export class TokenReader {
  pos = 0
  readonly tokens: readonly Token[]

  constructor (tokens: readonly Token[]) {
    this.tokens = tokens
  }

  get done (): boolean {
    return this.pos >= this.tokens.length
  }

  /** The next token. @throws RdataError naming `what` when there is none. */
  next (what: string): Token {
    const t = this.tokens[this.pos]
    if (t === undefined) throw new RdataError(`missing ${what}`)
    this.pos++
    return t
  }

  peek (): Token | undefined {
    return this.tokens[this.pos]
  }

  /** All remaining tokens (possibly none). */
  rest (): Token[] {
    const r = this.tokens.slice(this.pos)
    this.pos = this.tokens.length
    return r
  }
}

/**
 * Decode the escapes of a character-string (RFC 1035 §5.1): `\X` is X, `\DDD` the octet DDD.
 * Other characters are their UTF-8 bytes.
 *
 * @throws RdataError for a `\DDD` over 255, a `\D` or `\DD` that is not three digits, or a lone final backslash.
 */
export function unescapeBytes (text: string): Uint8Array {
  if (!text.includes('\\')) return new TextEncoder().encode(text)
  const out: number[] = []
  const enc = new TextEncoder()
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x5c) {
      // RFC 1035 §5.1: a backslash always escapes; `\D` and `\DD` are not `\DDD`.
      if (i + 1 >= text.length) throw new RdataError('a backslash at the end escapes nothing')
      const d1 = text.charCodeAt(i + 1)
      if (d1 >= 0x30 && d1 <= 0x39) {
        const digits = text.slice(i + 1, i + 4)
        if (!/^\d{3}$/.test(digits)) throw new RdataError(`bad \\DDD escape "\\${digits}"`)
        const v = Number(digits)
        if (v > 255) throw new RdataError(`\\DDD escape over 255: "\\${digits}"`)
        out.push(v)
        i += 3
      } else {
        const cp = text.codePointAt(i + 1)!
        for (const b of enc.encode(String.fromCodePoint(cp))) out.push(b)
        i += cp > 0xffff ? 2 : 1
      }
      continue
    }
    if (c < 0x80) {
      out.push(c)
      continue
    }
    const cp = text.codePointAt(i)!
    for (const b of enc.encode(String.fromCodePoint(cp))) out.push(b)
    if (cp > 0xffff) i++
  }
  return Uint8Array.from(out)
}

/** Presentation of character-string bytes, for use inside double quotes. */
export function escapeBytes (bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) s += '\\' + String.fromCharCode(b)
    else if (b >= 0x20 && b < 0x7f) s += String.fromCharCode(b)
    else s += '\\' + String(b).padStart(3, '0')
  }
  return s
}
