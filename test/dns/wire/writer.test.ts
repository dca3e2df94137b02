/**
 * The writer's case checks (`MessageWriter` with `caseChecks`): which names written after the
 * question equal one of its suffixes but for case, and whether compression found them equal.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { MessageWriter, Section, type CaseCheck } from '../../../src/dns/wire/writer.ts'
import { parseName } from '../../../src/zone/name.ts'

const key = (name: string): string => Buffer.from(parseName(name)).toString('latin1')

function checks (question: string, owners: Array<string | 'question'>): CaseCheck[] {
  const out: CaseCheck[] = []
  const w = new MessageWriter(512, out)
  const q = parseName(question)
  w.question({ name: q, type: 1, class: 1 })
  for (const o of owners) w.record(Section.Answer, { name: o === 'question' ? q : parseName(o), type: 1, class: 1, ttl: 60, rdata: new Uint8Array(4) })
  w.finish()
  return out
}

describe('MessageWriter case checks', () => {
  it('records each suffix compared that differs from the question\'s only by case, until compression finds one', () => {
    assert.deepEqual(checks('WWW.example.org.', ['www.example.org.']), [
      { at: 0, octets: key('www.example.org.'), equal: false },
      { at: 4, octets: key('example.org.'), equal: true }
    ])
  })

  it('records none for the question name itself (it always points at the question) or names not in it', () => {
    assert.deepEqual(checks('WWW.example.org.', ['question', 'mail.example.net.']), [])
  })

  it('records the same check once', () => {
    assert.deepEqual(checks('a.Example.org.', ['b.example.org.', 'c.example.org.']), [
      { at: 2, octets: key('example.org.'), equal: false },
      { at: 10, octets: key('org.'), equal: true }
    ])
  })
})
