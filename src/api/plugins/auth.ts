import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AuthService } from '../../auth/auth-service.ts'
import type { Principal } from '../../auth/principal.ts'
import { ZonalError } from '../../errors/catalog.ts'
import { sendError } from './error-handler.ts'
import { bearerFrom } from './rate-limit.ts'
import { subRequestContext } from './sub-request.ts'

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null
  }
  interface FastifyContextConfig {
    /** The route needs no token (token endpoint, status, version, docs, metrics). */
    public?: boolean
  }
}

/**
 * Every route needs a valid bearer token unless its config says `public: true`. A missing,
 * expired or invalid token answers 401 60001 as a single object, so clients refresh and retry.
 * A sub-request the service sends with a caller (a batch run by a task) is that caller.
 */
export function registerAuth (app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('principal', null)
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.public === true || request.is404) return
    const delegated = subRequestContext()?.principal
    if (delegated !== undefined) {
      request.principal = delegated
      return
    }
    const token = bearerFrom(request.headers.authorization) ?? bearerFrom(request.headers.token as string | undefined)
    const principal = token === undefined ? undefined : await auth.authenticate(token)
    if (principal === undefined) return sendError(reply, new ZonalError('AUTH_TOKEN_INVALID'))
    request.principal = principal
  })
}

/** The caller of an authenticated route. */
export function principalOf (request: FastifyRequest): Principal {
  if (request.principal === null) throw new ZonalError('AUTH_TOKEN_INVALID')
  return request.principal
}
