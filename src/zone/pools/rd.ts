import { ADDRESS_TYPES, descriptionOf, ORDERS, type PoolType } from './common.ts'
import { ProfileObject } from './fields.ts'

/**
 * RD (resource distribution) pool, `RDPool.jsonschema`: the records of an A or AAAA rrset served
 * in an `order`: FIXED, RANDOM or ROUND_ROBIN (reference notes §7, Python `create_rd_pool`).
 *
 * @remarks The real API expects `order`; a profile without one is taken as ROUND_ROBIN, the
 * Python client's default. `description` defaults to the owner name.
 */
export const RD_POOL: PoolType<'RD_POOLS'> = {
  kind: 'RD_POOLS',
  schema: 'RDPool',
  label: 'RD',
  rrtypes: ADDRESS_TYPES,
  rrtypeText: 'A or AAAA',
  validate ({ profile, ownerName }) {
    const p = ProfileObject.of(profile, 'profile', ['@context', 'order', 'description'])
    return {
      order: p.choice('order', ORDERS, 'POOL_ORDER_INVALID') ?? 'ROUND_ROBIN',
      description: descriptionOf(p, 'description', ownerName)
    }
  },
  summary: (p) => `order ${String(p.order)}`
}
