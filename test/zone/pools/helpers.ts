import assert from 'node:assert/strict'
import { isZonalError } from '../../../src/errors/catalog.ts'
import { profileDocument, validateProfile } from '../../../src/zone/pools/index.ts'

export const OWNER = 'www.example.org.'

export const context = (schema: string): string => `http://schemas.ultradns.com/${schema}.jsonschema`

/** Validate for an A rrset (or `type`) at {@link OWNER}; returns the profile as clients read it back. */
export function valid (profile: unknown, rdata: readonly string[] = ['192.0.2.1'], type = 1): Record<string, unknown> {
  return profileDocument(validateProfile(type, profile, rdata, OWNER).profile)
}

/** Assert that validation fails with `errorCode` and a message naming `field`. */
export function refused (profile: unknown, errorCode: number, field: string, rdata: readonly string[] = ['192.0.2.1'], type = 1): void {
  assert.throws(() => validateProfile(type, profile, rdata, OWNER), (err: unknown) => {
    assert.ok(isZonalError(err), `not a ZonalError: ${String(err)}`)
    assert.equal(err.def.errorCode, errorCode, err.message)
    assert.ok(err.message.includes(field), `"${err.message}" does not name ${field}`)
    return true
  })
}
