import { isIP } from 'node:net'
import { ConfigError } from '../config/config.ts'
import type { QueryServer } from '../dns/client/query.ts'
import { parseSourceAddress } from '../dns/transfer/client.ts'

/**
 * `ZONAL_RESOLVERS` as servers to ask: each `ip`, `ip:port`, `[ipv6]` or `[ipv6]:port` (port 53
 * when none). @throws ConfigError naming the variable for anything else (a host name among them).
 */
export function resolverServers (list: readonly string[]): QueryServer[] {
  return list.map((text) => {
    const s = isIP(text) !== 0 ? { host: text, port: 53 } : parseSourceAddress(text)
    if (s === undefined || isIP(s.host) === 0) throw new ConfigError(`ZONAL_RESOLVERS must be comma-separated IP addresses, each with an optional port (192.0.2.53, 192.0.2.53:5353, [2001:db8::53]:53), got "${text}"`)
    return s
  })
}
