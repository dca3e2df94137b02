import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { VERSION } from '../../../version.ts'
import { MessageBody } from '../../schemas/common.ts'

/** `GET /status` and `GET /version`, both without a token. */
export const systemRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/status', {
    config: { public: true },
    schema: { tags: ['system'], summary: 'Service status', response: { 200: MessageBody } }
  }, async () => ({ message: 'Good' }))

  app.get('/version', {
    config: { public: true },
    schema: { tags: ['system'], summary: 'Service version', response: { 200: Type.Object({ version: Type.String() }) } }
  }, async () => ({ version: VERSION }))
}
