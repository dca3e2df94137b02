import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { SecretBox } from '../../src/auth/secrets.ts'
import { nameToString } from '../../src/zone/name.ts'
import { tsigKeyOf } from '../../src/zones/tsig-key.ts'

describe('tsigKeyOf', () => {
  it('opens a sealed secret into the key bytes DNS signs with', () => {
    const secrets = new SecretBox('a key')
    const sealed = secrets.seal(Buffer.from('the secret').toString('base64'))
    assert.notEqual(sealed, Buffer.from('the secret').toString('base64'))
    const key = tsigKeyOf({ name: 'xfr.example.org.', algorithm: 'hmac-sha256', secret: sealed }, secrets)
    assert.equal(nameToString(key.name), 'xfr.example.org.')
    assert.equal(key.algorithm, 'hmac-sha256')
    assert.equal(Buffer.from(key.secret).toString(), 'the secret')
  })

  it('refuses a sealed secret without the key it was sealed with', () => {
    const sealed = new SecretBox('a key').seal('c2VjcmV0')
    assert.throws(() => tsigKeyOf({ name: 'k.', algorithm: 'hmac-md5', secret: sealed }, new SecretBox(undefined)), /ZONAL_SECRET_KEY/)
  })
})
