import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { leadingOrigin } from '../../src/zonefile/origin.ts'

async function * lines (text: string): AsyncGenerator<string> {
  yield * text.split('\n')
}

describe('leadingOrigin', () => {
  it('finds the $ORIGIN before the first record, after blank lines, comments and $TTL', async () => {
    assert.equal(await leadingOrigin(lines('; zone\n\n$TTL 1h ; default\n$origin Example.ORG. ; name\n@ NS ns1\n')), 'Example.ORG.')
    assert.equal(await leadingOrigin(lines('$ORIGIN a\\.b.example.\n')), 'a\\.b.example.')
  })

  it('finds nothing when a record, an inherited-owner line, $INCLUDE or $GENERATE comes first, or there is no $ORIGIN', async () => {
    for (const text of ['@ NS ns1\n$ORIGIN example.org.\n', '$TTL 60\n  NS ns1\n$ORIGIN example.org.\n', '$INCLUDE x\n$ORIGIN example.org.\n', '$GENERATE 1-2 a$ A 192.0.2.$\n', '', '; only a comment\n', '$ORIGIN\n']) {
      assert.equal(await leadingOrigin(lines(text)), undefined, JSON.stringify(text))
    }
  })
})
