import { createReadStream, readFileSync, realpathSync } from 'node:fs'
import { NameError, nameToString, parseName, type WireName } from '../zone/name.ts'
import type { ZoneProblem, ZoneRecord } from '../zone/record.ts'
import type { ParseContext } from '../zone/rdata/fields.ts'
import { parseRdata, typeName } from '../zone/rdata/registry.ts'
import { readSoa } from '../zone/rdata/soa.ts'
import { RdataError, tokenize, type Token } from '../zone/rdata/tokens.ts'
import { expandTemplate, GenerateError, MAX_GENERATE, parseRange, rangeCount } from './generate.ts'
import { resolveInclude } from './include.ts'
import { ZoneLexer, type Entry } from './lexer.ts'
import { zoneFileProblem, type ZoneFileProblemCode } from './problems.ts'
import { IN, isMetaType, MAX_TTL, readClass, readTtl, readType } from './record-fields.ts'
import { RRType } from '../zone/rrtype.ts'

/** Options of one parse. */
export interface ZoneFileOptions {
  /** The origin at the start of the file: the zone's apex (RFC 1035 §5.1). */
  origin: WireName
  /** The file name, for problems and for resolving `$INCLUDE` names. */
  file?: string
  /** A default TTL in effect before any `$TTL` (as if the file began with one). */
  defaultTtl?: number
  /**
   * `'refuse'`: every `$INCLUDE` is a ZONEFILE_INCLUDE_REFUSED problem (uploads). `{ root }`:
   * includes are read, confined to the folder `root` (the CLI).
   */
  includes: 'refuse' | { root: string }
  /** Stop with ZONEFILE_TOO_MANY_RECORDS after this many records (default: no limit). */
  maxRecords?: number
  /**
   * Records all `$GENERATE` lines together may make (default {@link MAX_GENERATE}): a line that
   * would go over it is a ZONEFILE_BAD_GENERATE problem, found before it is expanded.
   */
  maxGenerated?: number
  /** Stop with ZONEFILE_TOO_MANY_PROBLEMS after this many problems (default 10000). */
  maxProblems?: number
}

/** The state that an `$INCLUDE` saves and restores (RFC 1035 §5.1). */
interface Frame {
  file: string | undefined
  origin: WireName
  ctx: ParseContext
  /** The owner blank lines inherit; null after a bad owner (no record, no further problem). */
  owner: WireName | null | undefined
  /** `$ORIGIN` just changed: BIND warns when the next record inherits its owner. */
  originChanged: boolean
}

/** TTL and type of a record or `$GENERATE`, and where its rdata starts. */
interface Head {
  ttl: number | undefined
  type: number
  rdataAt: number
}

const DOLLAR = 0x24

/**
 * The master-file parser (RFC 1035 §5, RFC 2308 §4 `$TTL`, RFC 3597 `\#` and `TYPEnnn`, BIND's
 * `$GENERATE`). Synchronous and streaming: feed text with {@link ZoneFileParser.push} in chunks
 * of any size, then call {@link ZoneFileParser.end}. Records and problems are handed out as they
 * are found; nothing else is kept, so a file of any size parses in bounded memory.
 *
 * Every problem is reported with its file and line, and parsing goes on after it (the entry at
 * fault is skipped). Codes (`problems.ts`): the lexer's ZONEFILE_UNTERMINATED_QUOTE,
 * ZONEFILE_UNBALANCED_PARENS and ZONEFILE_LINE_TOO_LONG; ZONEFILE_BAD_DIRECTIVE,
 * ZONEFILE_BAD_ORIGIN, ZONEFILE_INCLUDE_* and ZONEFILE_BAD_GENERATE for directives;
 * ZONEFILE_BAD_OWNER, ZONEFILE_NO_OWNER, ZONEFILE_BAD_TTL, ZONEFILE_NO_TTL, ZONEFILE_BAD_CLASS,
 * ZONEFILE_CLASS_NOT_IN, ZONEFILE_NO_TYPE, ZONEFILE_UNKNOWN_TYPE, ZONEFILE_META_TYPE and
 * ZONEFILE_BAD_RDATA for records; the warnings ZONEFILE_OWNER_AFTER_ORIGIN,
 * ZONEFILE_TTL_TOO_LARGE, ZONEFILE_TTL_FROM_PREVIOUS and ZONEFILE_TTL_FROM_SOA (the last two
 * once per parse, as BIND); ZONEFILE_TOO_MANY_RECORDS and ZONEFILE_TOO_MANY_PROBLEMS, after
 * which parsing stops. Data outside the zone is not a parser problem: zone checks report it.
 *
 * Records may share one owner array (a blank owner, or the same owner written again): treat
 * records as immutable.
 *
 * TTLs follow BIND: an omitted TTL is the `$TTL`; without one, the last TTL given (RFC 1035,
 * warning ZONEFILE_TTL_FROM_PREVIOUS); before any TTL at all, an SOA takes its minimum field and
 * that becomes the default (ZONEFILE_TTL_FROM_SOA); any other record is ZONEFILE_NO_TTL.
 *
 * `$INCLUDE` files are read with `readFileSync`, within the call that meets the directive: this
 * keeps the core synchronous. Includes are for the CLI only (uploads refuse them), so a blocking
 * read of a local file is acceptable there.
 */
export class ZoneFileParser {
  private readonly lexer: ZoneLexer
  private frame: Frame
  private readonly open: string[] = []
  private defaultTtl: number | undefined
  private lastTtl: number | undefined
  private readonly warned = new Set<ZoneFileProblemCode>()
  private records = 0
  private problems = 0
  private readonly maxRecords: number
  private readonly maxProblems: number
  private readonly maxGenerated: number
  /** Records the `$GENERATE` lines met so far may make. */
  private generated = 0
  private stopped = false
  private first = true
  private ownerText = ''
  private ownerOrigin: WireName | undefined
  private ownerName: WireName | undefined

  private readonly opts: ZoneFileOptions
  private readonly onRecord: (r: ZoneRecord) => void
  private readonly onProblem: (p: ZoneProblem) => void

  /**
   * @param opts - origin, file name, include policy and limits
   * @param onRecord - receives each record, in file order
   * @param onProblem - receives each problem, in file order
   */
  constructor (
    opts: ZoneFileOptions,
    onRecord: (r: ZoneRecord) => void,
    onProblem: (p: ZoneProblem) => void
  ) {
    this.opts = opts
    this.onRecord = onRecord
    this.onProblem = onProblem
    this.frame = { file: opts.file, origin: opts.origin, ctx: { origin: opts.origin }, owner: undefined, originChanged: false }
    this.defaultTtl = opts.defaultTtl
    this.maxRecords = opts.maxRecords ?? Infinity
    this.maxProblems = opts.maxProblems ?? 10000
    this.maxGenerated = opts.maxGenerated ?? MAX_GENERATE
    this.lexer = this.newLexer()
  }

  /** Records handed out so far. */
  get recordCount (): number {
    return this.records
  }

  /** Parse a chunk of text (a leading byte-order mark is dropped). */
  push (chunk: string): void {
    if (this.stopped || chunk === '') return
    if (this.first) {
      this.first = false
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1)
    }
    this.lexer.push(chunk)
  }

  /** The input is complete: the last entry is parsed. */
  end (): void {
    if (!this.stopped) this.lexer.end()
  }

  private newLexer (): ZoneLexer {
    return new ZoneLexer(
      (e) => this.entry(e),
      (code, detail, line) => this.problem(code, detail, line)
    )
  }

  private problem (code: ZoneFileProblemCode, detail: string, line: number): void {
    if (this.stopped) return
    if (++this.problems > this.maxProblems) {
      this.onProblem(zoneFileProblem('ZONEFILE_TOO_MANY_PROBLEMS', `more than ${this.maxProblems}`, this.frame.file, line))
      this.stopped = true
      return
    }
    this.onProblem(zoneFileProblem(code, detail, this.frame.file, line))
  }

  /** A warning given once per parse, as BIND does. */
  private warnOnce (code: ZoneFileProblemCode, detail: string, line: number): void {
    if (this.warned.has(code)) return
    this.warned.add(code)
    this.problem(code, detail, line)
  }

  private emit (owner: WireName, type: number, ttl: number, rdata: Uint8Array, line: number): void {
    if (this.records >= this.maxRecords) {
      this.problem('ZONEFILE_TOO_MANY_RECORDS', `more than ${this.maxRecords}`, line)
      this.stopped = true
      return
    }
    this.records++
    this.onRecord({ owner, type, ttl, rdata, line })
  }

  private entry (e: Entry): void {
    if (this.stopped) return
    const tokens = e.tokens
    const first = tokens[0]!
    const f = this.frame
    if (!e.blankOwner && !first.quoted && first.text.charCodeAt(0) === DOLLAR) {
      if (!e.broken) this.directive(e)
      return
    }
    let owner: WireName | null
    let k = 0
    if (e.blankOwner) {
      // RFC 1035 §5.1: a blank owner is the last owner stated, as an absolute name.
      if (f.owner === undefined) {
        if (!e.broken) this.problem('ZONEFILE_NO_OWNER', 'the line starts with a blank but no owner was given before', e.line)
        owner = null
      } else {
        owner = f.owner
        if (f.originChanged && owner !== null) {
          this.problem('ZONEFILE_OWNER_AFTER_ORIGIN', `"${nameToString(owner)}" is inherited right after the origin changed to "${nameToString(f.origin)}"`, e.line)
        }
      }
    } else {
      owner = this.owner(first, e.line)
      f.owner = owner
      k = 1
    }
    f.originChanged = false
    if (e.broken) return
    const head = this.head(tokens, k, e.line, 'record')
    if (head === undefined) return
    const rdata = this.rdata(head.type, tokens.slice(head.rdataAt), e.line, '')
    if (rdata === undefined) return
    const ttl = this.ttl(head, rdata, e.line)
    if (ttl === undefined || owner === null) return
    this.emit(owner, head.type, ttl, rdata, e.line)
  }

  /** The owner field: `@`, relative or absolute, with escapes (RFC 1035 §5.1). */
  private owner (t: Token, line: number): WireName | null {
    if (t.quoted) {
      this.problem('ZONEFILE_BAD_OWNER', `"${t.text}": an owner name cannot be quoted`, line)
      return null
    }
    const origin = this.frame.origin
    if (t.text === this.ownerText && origin === this.ownerOrigin) return this.ownerName!
    try {
      const name = parseName(t.text, origin)
      this.ownerText = t.text
      this.ownerOrigin = origin
      this.ownerName = name
      return name
    } catch (err) {
      if (!(err instanceof NameError)) throw err
      this.problem('ZONEFILE_BAD_OWNER', `"${t.text}": ${err.message}`, line)
      return null
    }
  }

  /**
   * TTL and class, in either order and both optional (RFC 1035 §5.1), then the type. Reports
   * the problem and returns undefined when they do not read.
   */
  private head (tokens: readonly Token[], k: number, line: number, what: string): Head | undefined {
    let ttl: number | undefined
    let cls: number | undefined
    for (let n = 0; n < 2 && k < tokens.length; n++) {
      const t = tokens[k]!
      if (t.quoted) break
      if (ttl === undefined) {
        const v = readTtl(t.text)
        if (v !== undefined) {
          ttl = this.limitTtl(v, line)
          k++
          continue
        }
      }
      if (cls === undefined) {
        const c = readClass(t.text)
        if (c !== undefined) {
          if (c === -1) {
            this.problem('ZONEFILE_BAD_CLASS', `"${t.text}"`, line)
            return undefined
          }
          if (c !== IN) {
            this.problem('ZONEFILE_CLASS_NOT_IN', `"${t.text}"`, line)
            return undefined
          }
          cls = c
          k++
          continue
        }
      }
      break
    }
    const t = tokens[k]
    if (t === undefined) {
      this.problem('ZONEFILE_NO_TYPE', `the ${what} ends before its type`, line)
      return undefined
    }
    const type = t.quoted ? undefined : readType(t.text)
    if (type === undefined) {
      if (ttl !== undefined && /^\d+$/.test(t.text)) this.problem('ZONEFILE_UNKNOWN_TYPE', `"${t.text}": a type is a name or TYPE${t.text}, not a bare number`, line)
      else if (ttl !== undefined && readTtl(t.text) !== undefined) this.problem('ZONEFILE_BAD_TTL', `a second TTL "${t.text}"`, line)
      else if (readClass(t.text) !== undefined) this.problem('ZONEFILE_BAD_CLASS', `a second class "${t.text}"`, line)
      else if (/^\d+$/.test(t.text)) this.problem('ZONEFILE_BAD_TTL', `"${t.text}" is over 4294967295`, line)
      else if (/^\d/.test(t.text)) this.problem('ZONEFILE_BAD_TTL', `"${t.text}" is neither a TTL (seconds, or units as in 1h30m) nor a type`, line)
      else this.problem('ZONEFILE_UNKNOWN_TYPE', t.quoted ? `"${t.text}" (a type is never quoted)` : `"${t.text}"`, line)
      return undefined
    }
    if (isMetaType(type)) {
      this.problem('ZONEFILE_META_TYPE', `"${t.text}"`, line)
      return undefined
    }
    return { ttl, type, rdataAt: k + 1 }
  }

  /** RFC 2181 §8: a TTL with the top bit set is taken as zero (BIND warns and does so). */
  private limitTtl (v: number, line: number): number {
    if (v <= MAX_TTL) return v
    this.problem('ZONEFILE_TTL_TOO_LARGE', `${v}`, line)
    return 0
  }

  private rdata (type: number, tokens: readonly Token[], line: number, note: string): Uint8Array | undefined {
    try {
      return parseRdata(type, tokens, this.frame.ctx)
    } catch (err) {
      // Anything a type module throws is reported, never passed on: one bad record must not
      // end the parse. Only RdataError is expected; others name the module's own bug.
      const message = err instanceof RdataError ? err.message : `internal error in the ${typeName(type)} parser: ${String(err)}`
      this.problem('ZONEFILE_BAD_RDATA', `${typeName(type)}${note}: ${message}`, line)
      return undefined
    }
  }

  /** The TTL of a record whose TTL field may be omitted (BIND's rules; see the class TSDoc). */
  private ttl (head: Head, rdata: Uint8Array, line: number): number | undefined {
    if (head.ttl !== undefined) {
      this.lastTtl = head.ttl
      return head.ttl
    }
    // RFC 2308 §4: $TTL is the TTL of records without one.
    if (this.defaultTtl !== undefined) return this.defaultTtl
    if (this.lastTtl !== undefined) {
      // RFC 1035 §5.1: "the last explicitly stated" TTL.
      this.warnOnce('ZONEFILE_TTL_FROM_PREVIOUS', `${this.lastTtl}`, line)
      return this.lastTtl
    }
    if (head.type === RRType.SOA) {
      // BIND's BIND 8 compatibility: the SOA minimum becomes the default TTL.
      const ttl = this.limitTtl(readSoa(rdata).minimum, line)
      this.warnOnce('ZONEFILE_TTL_FROM_SOA', `${ttl}`, line)
      this.defaultTtl = ttl
      return ttl
    }
    this.problem('ZONEFILE_NO_TTL', 'give the record a TTL or start the file with $TTL', line)
    return undefined
  }

  private directive (e: Entry): void {
    const name = e.tokens[0]!.text.toUpperCase()
    switch (name) {
      case '$ORIGIN': return this.origin(e)
      case '$TTL': return this.defaultTtlDirective(e)
      case '$INCLUDE': return this.include(e)
      case '$GENERATE': return this.generate(e)
      default: this.problem('ZONEFILE_BAD_DIRECTIVE', `unknown directive "${e.tokens[0]!.text}"`, e.line)
    }
  }

  /** `$ORIGIN <name>`: a relative name is relative to the current origin (RFC 1035 §5.1). */
  private origin (e: Entry): void {
    if (e.tokens.length !== 2) {
      this.problem('ZONEFILE_BAD_DIRECTIVE', '$ORIGIN takes one domain name', e.line)
      return
    }
    const origin = this.originName(e.tokens[1]!, e.line)
    if (origin === undefined) return
    this.setOrigin(this.frame, origin)
    this.frame.originChanged = true
  }

  private originName (t: Token, line: number): WireName | undefined {
    try {
      return parseName(t.text, this.frame.origin)
    } catch (err) {
      if (!(err instanceof NameError)) throw err
      this.problem('ZONEFILE_BAD_ORIGIN', `"${t.text}": ${err.message}`, line)
      return undefined
    }
  }

  private setOrigin (f: Frame, origin: WireName): void {
    f.origin = origin
    f.ctx = { origin }
  }

  /** `$TTL <ttl>` (RFC 2308 §4), with BIND's units. */
  private defaultTtlDirective (e: Entry): void {
    if (e.tokens.length !== 2) {
      this.problem('ZONEFILE_BAD_DIRECTIVE', '$TTL takes one TTL', e.line)
      return
    }
    const t = e.tokens[1]!
    const v = t.quoted ? undefined : readTtl(t.text)
    if (v === undefined) {
      this.problem('ZONEFILE_BAD_TTL', `$TTL "${t.text}"`, e.line)
      return
    }
    this.defaultTtl = this.limitTtl(v, e.line)
  }

  /**
   * `$INCLUDE <file> [<origin>]` (RFC 1035 §5.1): the file is read with the given origin (else
   * the current one) and the current owner; afterwards the origin and owner are restored, since
   * an include "never changes the relative origin of the parent file". `$TTL` set inside it stays
   * in effect, as in BIND.
   */
  private include (e: Entry): void {
    const args = e.tokens.slice(1)
    if (this.opts.includes === 'refuse') {
      this.problem('ZONEFILE_INCLUDE_REFUSED', args.length > 0 ? `"${args[0]!.text}"` : '', e.line)
      return
    }
    if (args.length < 1 || args.length > 2) {
      this.problem('ZONEFILE_BAD_DIRECTIVE', '$INCLUDE takes a file name and an optional origin', e.line)
      return
    }
    const parent = this.frame
    let origin = parent.origin
    if (args.length === 2) {
      const o = this.originName(args[1]!, e.line)
      if (o === undefined) return
      origin = o
    }
    if (this.open.length === 0 && parent.file !== undefined) {
      try {
        this.open.push(realpathSync(parent.file))
      } catch {
        this.open.push(parent.file)
      }
    }
    const target = resolveInclude(args[0]!.text.replace(/\\(.)/g, '$1'), parent.file, this.opts.includes.root, this.open)
    if ('code' in target) {
      this.problem(target.code, target.detail, e.line)
      return
    }
    let text: string
    try {
      text = readFileSync(target.real, 'utf8')
    } catch (err) {
      this.problem('ZONEFILE_INCLUDE_NOT_FOUND', `"${args[0]!.text}": ${(err as Error).message}`, e.line)
      return
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    this.frame = { file: target.path, origin, ctx: { origin }, owner: parent.owner, originChanged: args.length === 2 }
    this.open.push(target.real)
    try {
      const lexer = this.newLexer()
      lexer.push(text)
      lexer.end()
    } finally {
      this.open.pop()
      this.frame = parent
    }
  }

  /**
   * BIND's `$GENERATE range owner [ttl] [class] type rdata`: one record per value of the range,
   * `$` in the owner and rdata templates replaced (see `generate.ts`). The current owner is not
   * changed. Any type but meta types is accepted, as BIND 9.18 does.
   */
  private generate (e: Entry): void {
    const t = e.tokens
    const usage = 'expected "$GENERATE start-stop[/step] owner [ttl] [class] type rdata"'
    if (t.length < 5) {
      this.problem('ZONEFILE_BAD_GENERATE', usage, e.line)
      return
    }
    const range = parseRange(t[1]!.text)
    if (range === undefined) {
      this.problem('ZONEFILE_BAD_GENERATE', `bad range "${t[1]!.text}" (start-stop[/step], start ≤ stop)`, e.line)
      return
    }
    const count = rangeCount(range)
    if (this.generated + count > this.maxGenerated) {
      this.problem('ZONEFILE_BAD_GENERATE', `range "${t[1]!.text}" would bring the records made by $GENERATE to ${this.generated + count}, over the limit of ${this.maxGenerated} per file`, e.line)
      return
    }
    this.generated += count
    const head = this.head(t, 3, e.line, '$GENERATE')
    if (head === undefined) return
    if (t.length !== head.rdataAt + 1) {
      this.problem('ZONEFILE_BAD_GENERATE', `${usage}, the rdata as one token (quote it when it has blanks)`, e.line)
      return
    }
    const lhs = t[2]!.text
    const rhs = t[head.rdataAt]!.text
    for (let it = range.start; it <= range.stop; it += range.step) {
      let owner: WireName
      let tokens: Token[]
      try {
        const ownerText = expandTemplate(lhs, it)
        try {
          owner = parseName(ownerText, this.frame.origin)
        } catch (err) {
          if (!(err instanceof NameError)) throw err
          throw new GenerateError(`owner "${ownerText}": ${err.message}`)
        }
        tokens = tokenize(expandTemplate(rhs, it))
      } catch (err) {
        if (!(err instanceof GenerateError) && !(err instanceof RdataError)) throw err
        this.problem('ZONEFILE_BAD_GENERATE', `at ${it}: ${err.message}`, e.line)
        return
      }
      const rdata = this.rdata(head.type, tokens, e.line, ` (generated for ${it})`)
      if (rdata === undefined) return
      const ttl = this.ttl(head, rdata, e.line)
      if (ttl === undefined) return
      this.emit(owner, head.type, ttl, rdata, e.line)
      if (this.stopped) return
    }
  }
}

/**
 * Parse zone-file text held in memory.
 *
 * @param text - the whole file
 * @param opts - see {@link ZoneFileOptions}
 * @returns every record and every problem, in file order
 * @remarks For large input prefer {@link parseZoneStream}, which keeps no records.
 */
export function parseZoneText (text: string, opts: ZoneFileOptions): { records: ZoneRecord[], problems: ZoneProblem[] } {
  const records: ZoneRecord[] = []
  const problems: ZoneProblem[] = []
  const parser = new ZoneFileParser(opts, (r) => records.push(r), (p) => problems.push(p))
  parser.push(text)
  parser.end()
  return { records, problems }
}

/**
 * Parse a zone file from a stream of text or UTF-8 bytes (an upload, a `Readable`), in bounded
 * memory: records and problems go to the callbacks as they are found.
 *
 * @param input - chunks of text, or of bytes decoded as UTF-8 (split characters are handled;
 *   invalid UTF-8 becomes U+FFFD; write other bytes as `\DDD`)
 * @param opts - see {@link ZoneFileOptions}
 * @param onRecord - receives each record
 * @param onProblem - receives each problem (codes in `problems.ts`)
 * @returns when the input is consumed; rejects only when the input stream fails
 */
export async function parseZoneStream (
  input: AsyncIterable<string | Uint8Array>,
  opts: ZoneFileOptions,
  onRecord: (r: ZoneRecord) => void,
  onProblem: (p: ZoneProblem) => void
): Promise<void> {
  const parser = new ZoneFileParser(opts, onRecord, onProblem)
  const decoder = new TextDecoder('utf-8')
  for await (const chunk of input) {
    parser.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))
  }
  parser.push(decoder.decode())
  parser.end()
}

/**
 * Parse a zone file on disk, streamed with `fs.createReadStream` (UTF-8). `opts.file` defaults
 * to `path`, so problems name it and relative `$INCLUDE` names start from its folder.
 *
 * @param path - the file
 * @param opts - see {@link ZoneFileOptions}
 * @returns every record and every problem, in file order
 * @throws the `fs` error when the file itself cannot be read (a missing `$INCLUDE` file is a
 *   ZONEFILE_INCLUDE_NOT_FOUND problem instead)
 */
export async function parseZoneFile (path: string, opts: ZoneFileOptions): Promise<{ records: ZoneRecord[], problems: ZoneProblem[] }> {
  const records: ZoneRecord[] = []
  const problems: ZoneProblem[] = []
  const stream = createReadStream(path, { encoding: 'utf8' })
  await parseZoneStream(stream, { ...opts, file: opts.file ?? path }, (r) => records.push(r), (p) => problems.push(p))
  return { records, problems }
}
