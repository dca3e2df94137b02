import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { MAX_ENTRY_CHARS, ZoneLexer, type Entry } from '../../src/zonefile/lexer.ts'

interface Lexed {
  entries: Array<{ line: number, blank: boolean, tokens: string[], broken: boolean }>
  problems: string[]
}

/** Lex `text` in chunks of `size` characters; tokens shown as text, quoted ones in quotes. */
function lex (text: string, size = Infinity, maxEntryChars?: number): Lexed {
  const out: Lexed = { entries: [], problems: [] }
  const lexer = new ZoneLexer(
    (e: Entry) => out.entries.push({ line: e.line, blank: e.blankOwner, tokens: e.tokens.map(t => t.quoted ? `"${t.text}"` : t.text), broken: e.broken }),
    (code, _detail, line) => out.problems.push(`${line} ${code}`),
    maxEntryChars
  )
  if (size === Infinity) lexer.push(text)
  else for (let i = 0; i < text.length; i += size) lexer.push(text.slice(i, i + size))
  lexer.end()
  return out
}

describe('ZoneLexer', () => {
  it('splits lines into entries with their first line and whether the owner is blank', () => {
    const r = lex('a 1 IN A 192.0.2.1\n  IN A 192.0.2.2\n\tTXT x\nb A 1')
    assert.deepEqual(r.entries, [
      { line: 1, blank: false, tokens: ['a', '1', 'IN', 'A', '192.0.2.1'], broken: false },
      { line: 2, blank: true, tokens: ['IN', 'A', '192.0.2.2'], broken: false },
      { line: 3, blank: true, tokens: ['TXT', 'x'], broken: false },
      { line: 4, blank: false, tokens: ['b', 'A', '1'], broken: false }
    ])
    assert.deepEqual(r.problems, [])
  })

  it('skips blank, whitespace-only and comment-only lines without resetting anything', () => {
    const r = lex('\n   \n\t\n; c\n  ; indented comment\na A 1 ; trailing\n')
    assert.deepEqual(r.entries, [{ line: 6, blank: false, tokens: ['a', 'A', '1'], broken: false }])
  })

  it('joins lines inside parentheses (nested too) and numbers the entry by its first line', () => {
    const r = lex('@ SOA ns hm (\n 1 ; serial\n\n 2 ( 3 ) 4\n 5 )\nx A 1\n')
    assert.deepEqual(r.entries.map(e => [e.line, e.tokens.join(' ')]), [[1, '@ SOA ns hm 1 2 3 4 5'], [6, 'x A 1']])
  })

  it('keeps ; ( ) and escapes inside quotes as text, escapes as written', () => {
    const r = lex('t TXT "a;b (c) \\"q\\" \\\\ \\065" "" x"y"\n')
    assert.deepEqual(r.entries[0]!.tokens, ['t', 'TXT', '"a;b (c) \\"q\\" \\\\ \\065"', '""', 'x', '"y"'])
  })

  it('keeps backslash escapes outside quotes in the token, as written', () => {
    const r = lex('a\\;b TXT \\(x\\) c\\ d \\"\n')
    assert.deepEqual(r.entries[0]!.tokens, ['a\\;b', 'TXT', '\\(x\\)', 'c\\ d', '\\"'])
  })

  it('takes CR LF line ends and counts an escaped line break as a line', () => {
    const r = lex('a A 1\r\n\r\nb TXT "x\\\ny"\r\nc A 3\r\n')
    assert.deepEqual(r.entries.map(e => [e.line, e.tokens]), [[1, ['a', 'A', '1']], [3, ['b', 'TXT', '"x\\\ny"']], [5, ['c', 'A', '3']]])
  })

  it('reports a quote open at the end of its line and goes on with the next line', () => {
    const r = lex('a TXT "open ; not a comment\nb A 1\nc TXT ( "x\n d A 2\n')
    assert.deepEqual(r.problems, ['1 ZONEFILE_UNTERMINATED_QUOTE', '3 ZONEFILE_UNTERMINATED_QUOTE'])
    assert.deepEqual(r.entries.map(e => [e.line, e.broken, e.blank, e.tokens[0]]), [[1, true, false, 'a'], [2, false, false, 'b'], [3, true, false, 'c'], [4, false, true, 'd']])
  })

  it('reports ")" without "(" and a "(" still open at the end', () => {
    const r = lex('a A 1 )\nb TXT ( x\ny\n')
    assert.deepEqual(r.problems, ['1 ZONEFILE_UNBALANCED_PARENS', '2 ZONEFILE_UNBALANCED_PARENS'])
    assert.deepEqual(r.entries.map(e => [e.line, e.broken, e.tokens.join(' ')]), [[1, true, 'a A 1'], [2, true, 'b TXT x y']])
  })

  it('gives up an entry over the limit and resynchronises at the next line', () => {
    const body = 'x A 1\n'.repeat(40)
    const r = lex(`a TXT ( "never closed"\n${body}`, 4096, 100)
    assert.deepEqual(r.problems, ['1 ZONEFILE_LINE_TOO_LONG'])
    // The lines inside the limit were swallowed; the ones after it are entries again.
    assert.ok(r.entries.length > 20 && r.entries.length < 40, String(r.entries.length))
    assert.deepEqual(r.entries.at(-1), { line: 41, blank: false, tokens: ['x', 'A', '1'], broken: false })
  })

  it('bounds a runaway entry at 64 KiB by default, whatever the chunking', () => {
    const text = 'a TXT (\n' + 'y A 1\n'.repeat(20000) + ')\nz A 2\n'
    for (const size of [1000, 65536, Infinity]) {
      const r = lex(text, size)
      assert.deepEqual(r.problems, ['1 ZONEFILE_LINE_TOO_LONG', '20002 ZONEFILE_UNBALANCED_PARENS'], `chunks of ${size}`)
      assert.ok(r.entries.length > 5000)
      assert.deepEqual(r.entries.at(-1)!.tokens, ['z', 'A', '2'])
      assert.ok(r.entries.every(e => e.tokens.join(' ').length < MAX_ENTRY_CHARS))
    }
  })

  it('gives up at the same character for any chunking, quotes and comments included', () => {
    const text = 'a TXT ( ; open\n' + 'y "q ; (" A 1 ; c\n'.repeat(4000) + 'z TXT "open\nw A 2\n'
    const whole = lex(text)
    assert.equal(whole.problems[0], '1 ZONEFILE_LINE_TOO_LONG')
    for (const size of [1, 7, 4096]) assert.deepEqual(lex(text, size), whole, `chunks of ${size}`)
  })

  it('drops a single line longer than the limit and keeps no more than that of it', () => {
    const long = 'x'.repeat(3 * MAX_ENTRY_CHARS)
    const r = lex(`a TXT ${long} ; comment\nb A 1\n`, 4096)
    assert.deepEqual(r.problems, ['1 ZONEFILE_LINE_TOO_LONG'])
    assert.deepEqual(r.entries, [{ line: 2, blank: false, tokens: ['b', 'A', '1'], broken: false }])
  })

  it('handles a last line without a line end, and empty input', () => {
    assert.deepEqual(lex('a A 1').entries.map(e => e.tokens), [['a', 'A', '1']])
    assert.deepEqual(lex('a TXT "x"').entries.map(e => e.tokens), [['a', 'TXT', '"x"']])
    assert.deepEqual(lex(''), { entries: [], problems: [] })
  })

  it('gives the same entries for any chunking', () => {
    const text = '$ORIGIN example.org.\r\n@ SOA ( ns hm ; c\n 1 2 3 4 5 )\n  TXT "a;\\"b" \\; c\\\nd\nx A 1'
    const whole = lex(text)
    for (const size of [1, 2, 3, 7, 64]) assert.deepEqual(lex(text, size), whole, `chunks of ${size}`)
  })
})
