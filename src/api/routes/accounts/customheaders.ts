import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Store } from '../../../store/store.ts'
import { addCustomHeaders, deleteCustomHeader, listCustomHeaders } from '../../../zones/custom-headers.ts'
import { principalOf } from '../../plugins/auth.ts'
import { AccountParams } from '../../schemas/accounts.ts'
import { ErrorBody, MessageBody } from '../../schemas/common.ts'
import { CustomHeaderBody, CustomHeaderList, CustomHeaderParams } from '../../schemas/webforwards.ts'
import { callerOf } from '../zones/index.ts'

/**
 * Custom HTTP headers of an account (the real API's "Web Forwards" page): the header names the
 * account's advanced web forwards may match. Rules in `src/zones/custom-headers.ts`.
 */
export const customHeaderRoutes: FastifyPluginAsyncTypebox<{ store: Store }> = async (app, { store }) => {
  const tags = ['web forwards']

  app.get('/accounts/:accountName/customheaders', {
    schema: { tags, summary: 'The custom HTTP header names of an account', params: AccountParams, response: { 200: CustomHeaderList, '4xx': ErrorBody } }
  }, async (request) => ({ names: await listCustomHeaders(store, principalOf(request), request.params.accountName) }))

  app.post('/accounts/:accountName/customheaders', {
    schema: { tags, summary: 'Add custom HTTP header names to an account', params: AccountParams, body: CustomHeaderBody, response: { 201: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const caller = callerOf(request)
    await addCustomHeaders(store, caller.principal, caller.actor, request.params.accountName, request.body)
    return await reply.code(201).send({ message: 'Successful' })
  })

  app.delete('/accounts/:accountName/customheaders/:headerName', {
    schema: { tags, summary: 'Delete a custom HTTP header name of an account', params: CustomHeaderParams, response: { 204: Type.Null(), '4xx': ErrorBody } }
  }, async (request, reply) => {
    const caller = callerOf(request)
    await deleteCustomHeader(store, caller.principal, caller.actor, request.params.accountName, request.params.headerName)
    return await reply.code(204).send(null)
  })
}
