import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AuthService } from '../../../auth/auth-service.ts'
import { groupAllows, PERMISSIONS } from '../../../auth/permissions.ts'
import { ZonalError } from '../../../errors/catalog.ts'
import { principalOf } from '../../plugins/auth.ts'
import { Me, TokenRequest, TokenResponse } from '../../schemas/authorization.ts'
import { ErrorBody } from '../../schemas/common.ts'

/**
 * `POST /authorization/token`: password and refresh_token grants (reference notes §2). An
 * `Authorization: Basic` header, as Go's oauth2 sends, is ignored. `GET /authorization/me`: the
 * token's user with their group and permissions in each account (what the web console, or a
 * script, reads to know which changes the service would accept).
 */
export const authorizationRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.post('/authorization/token', {
    config: { public: true, objectErrors: true },
    schema: {
      tags: ['authorization'],
      summary: 'Get an access token (password or refresh_token grant)',
      consumes: ['application/x-www-form-urlencoded', 'application/json'],
      body: TokenRequest,
      response: { 200: TokenResponse, '4xx': ErrorBody }
    }
  }, async (request) => {
    const body = request.body ?? {}
    switch (body.grant_type) {
      case 'password': {
        if (body.username === undefined || body.username === '') throw new ZonalError('AUTH_USERNAME_REQUIRED')
        if (body.password === undefined || body.password === '') throw new ZonalError('AUTH_PASSWORD_REQUIRED')
        return await auth.login(body.username, body.password, request.ip)
      }
      case 'refresh_token': {
        if (body.refresh_token === undefined || body.refresh_token === '') throw new ZonalError('AUTH_REFRESH_TOKEN_REQUIRED')
        return await auth.refresh(body.refresh_token)
      }
      default:
        throw new ZonalError('AUTH_GRANT_TYPE_NOT_SUPPORTED')
    }
  })

  app.get('/authorization/me', {
    schema: {
      tags: ['authorization'],
      summary: 'The signed-in user: their accounts, group and permissions in each',
      response: { 200: Me }
    }
  }, async (request) => {
    const principal = principalOf(request)
    return {
      username: principal.username,
      accounts: principal.memberships.map(m => ({
        accountName: m.accountName,
        group: m.group,
        permissions: PERMISSIONS.filter(p => groupAllows(m.group, p))
      }))
    }
  })
}
