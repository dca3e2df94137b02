import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { catalog, type ErrorDef } from '../../src/errors/catalog.ts'

interface DocRow {
  status: number
  errorCode: number
  shape: string
  message: string
}

/** The rows of the table in docs/errors.md, by code (STYLE.md §5 "Conventions as tests"). */
function documentedErrors (): Map<string, DocRow> {
  const text = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')
  const rows = new Map<string, DocRow>()
  for (const line of text.split('\n')) {
    if (!line.startsWith('| `')) continue
    // Split on unescaped pipes; the first and last cells are the empty edges of the row.
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map(c => c.trim().replace(/\\\|/g, '|'))
    assert.equal(cells.length, 5, `docs/errors.md row has ${cells.length} cells: ${line}`)
    const [code, status, errorCode, shape, message] = cells as [string, string, string, string, string]
    const name = /^`([A-Z0-9_]+)`$/.exec(code)?.[1]
    assert.ok(name !== undefined, `docs/errors.md: bad code cell ${code}`)
    assert.ok(!rows.has(name), `docs/errors.md lists ${name} twice`)
    rows.set(name, { status: Number(status), errorCode: Number(errorCode), shape, message })
  }
  return rows
}

const entries = Object.entries(catalog as Record<string, ErrorDef>)

describe('error catalog', () => {
  it('is documented in docs/errors.md, one row per code in catalog order', () => {
    const documented = documentedErrors()
    assert.deepEqual([...documented.keys()], entries.map(([code]) => code))
  })

  it('matches docs/errors.md in status, errorCode, shape and message', () => {
    const documented = documentedErrors()
    for (const [code, def] of entries) {
      assert.deepEqual(documented.get(code), {
        status: def.status,
        errorCode: def.errorCode,
        shape: def.shape ?? 'list',
        message: def.message
      }, code)
    }
  })

  it('uses only 4xx and 5xx statuses', () => {
    for (const [code, def] of entries) {
      assert.ok(Number.isInteger(def.status) && def.status >= 400 && def.status <= 599, `${code}: status ${def.status}`)
    }
  })

  it('gives every code a positive integer errorCode and a non-empty message', () => {
    for (const [code, def] of entries) {
      assert.ok(Number.isInteger(def.errorCode) && def.errorCode > 0, `${code}: errorCode ${def.errorCode}`)
      assert.ok(def.message.trim() !== '', `${code}: empty message`)
    }
  })

  it('uses the spec message verbatim for an invalid token', () => {
    assert.equal(catalog.AUTH_TOKEN_INVALID.message, 'Unauthorized. Token not found, expired or invalid.')
  })
})
