import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError } from '../../src/config/config.ts'
import { resolverServers } from '../../src/health/resolvers.ts'

describe('resolverServers (ZONAL_RESOLVERS)', () => {
  it('reads addresses with and without a port, IPv4 and IPv6', () => {
    assert.deepEqual(resolverServers(['192.0.2.53', '192.0.2.54:5353', '2001:db8::53', '[2001:db8::54]:53']), [
      { host: '192.0.2.53', port: 53 },
      { host: '192.0.2.54', port: 5353 },
      { host: '2001:db8::53', port: 53 },
      { host: '2001:db8::54', port: 53 }
    ])
    assert.deepEqual(resolverServers([]), [])
  })

  it('refuses a host name or a bad port, naming the variable', () => {
    for (const bad of ['resolver.example.net', '192.0.2.1:99999', '192.0.2.1:']) {
      assert.throws(() => resolverServers([bad]), (err: unknown) => err instanceof ConfigError && err.message.startsWith('ZONAL_RESOLVERS must be'), bad)
    }
  })
})
