import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { ZonalError } from '../../../errors/catalog.ts'
import type { AccountSummary, Store } from '../../../store/store.ts'
import { principalOf } from '../../plugins/auth.ts'
import { Account, AccountList, AccountParams } from '../../schemas/accounts.ts'
import { ErrorBody } from '../../schemas/common.ts'
import { ZoneListQuerystring } from '../../schemas/zone-list.ts'
import { splitZoneQ } from '../zones/list-query.ts'

function toAccountDto (a: AccountSummary): Static<typeof Account> {
  return {
    accountName: a.name,
    accountHolderUserName: a.ownerUserName,
    ownerUserName: a.ownerUserName,
    numberOfUsers: a.numberOfUsers,
    numberOfGroups: a.numberOfGroups,
    accountType: a.account_type,
    features: []
  }
}

/**
 * The `q` of the v3 list for the zones of `account`: the caller's own terms, less any
 * `account_name` of theirs (the path names the account), then `account_name:<account>`. The
 * account comes last because its value is free text (only a known key ends it), so an unknown key
 * of the caller's is still reported. A `q` that does not parse is passed on as it is, for the list
 * to answer its error.
 */
export function accountZonesQ (account: string, q: string | undefined): string {
  const own = (q ?? '').trim()
  let rest = own
  try {
    rest = splitZoneQ(own).filter(t => t.key.toLowerCase() !== 'account_name').map(t => `${t.key}:${t.value}`).join(' ')
  } catch {}
  return [rest, `account_name:${account}`].filter(p => p !== '').join(' ')
}

/**
 * `GET /accounts`, `GET /accounts/{accountName}` (only the caller's own accounts exist) and the
 * deprecated account zone list.
 */
export const accountRoutes: FastifyPluginAsyncTypebox<{ store: Store }> = async (app, { store }) => {
  app.get('/accounts', {
    schema: { tags: ['accounts'], summary: 'The accounts the caller belongs to', response: { 200: AccountList } }
  }, async (request) => {
    const accounts = (await store.accounts.summaries(principalOf(request).scope('read'))).map(toAccountDto)
    return { resultInfo: { totalCount: accounts.length, offset: 0, returnedCount: accounts.length }, accounts }
  })

  app.get('/accounts/:accountName', {
    schema: { tags: ['accounts'], summary: 'One account of the caller', params: AccountParams, response: { 200: Account, '4xx': ErrorBody } }
  }, async (request) => {
    const principal = principalOf(request)
    const membership = principal.membership(request.params.accountName)
    if (membership === undefined) throw new ZonalError('ACCOUNT_NOT_FOUND')
    const [summary] = await store.accounts.summaries({ accountIds: [membership.accountId] })
    if (summary === undefined) throw new ZonalError('ACCOUNT_NOT_FOUND')
    return toAccountDto(summary)
  })

  // The deprecated account zone list answers 301 with a relative Location to the v3 list of that
  // account, as the real API does (notes §3, §9); the Python client's get_zones_of_account
  // (requests follows a 301 for GET, with its token, on the same host) reads the v3 answer.
  app.get('/accounts/:accountName/zones', {
    schema: {
      tags: ['accounts'],
      summary: 'Deprecated: 301 to the v3 zone list of the account (/v3/zones?q=account_name:…)',
      params: AccountParams,
      querystring: ZoneListQuerystring,
      response: { 301: Type.Null(), '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    const { query } = request
    const params = new URLSearchParams({ q: accountZonesQ(request.params.accountName, query.q) })
    for (const key of ['limit', 'sort', 'reverse'] as const) {
      const value = query[key]
      if (value !== undefined && value !== '') params.set(key, value)
    }
    return await reply.code(301).header('location', `/v3/zones?${params.toString()}`).send(null)
  })
}
