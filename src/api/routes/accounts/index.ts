import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from 'typebox'
import { ZonalError } from '../../../errors/catalog.ts'
import type { AccountSummary, Store } from '../../../store/store.ts'
import { principalOf } from '../../plugins/auth.ts'
import { Account, AccountList, AccountParams } from '../../schemas/accounts.ts'
import { ErrorBody } from '../../schemas/common.ts'

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

/** `GET /accounts` and `GET /accounts/{accountName}`: only the caller's own accounts exist. */
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
}
