import { randomUUID } from 'node:crypto'
import helmet from '@fastify/helmet'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { accountRoutes } from './api/routes/accounts/index.ts'
import { batchRoutes } from './api/routes/batch/index.ts'
import { authorizationRoutes } from './api/routes/authorization/index.ts'
import { systemRoutes } from './api/routes/system/index.ts'
import { taskRoutes } from './api/routes/tasks/index.ts'
import { zoneExportRoutes } from './api/routes/zones/export.ts'
import { zoneListRoutes } from './api/routes/zones/list.ts'
import { registerAuth } from './api/plugins/auth.ts'
import { reportRoutes } from './api/routes/reports/index.ts'
import { reportRequestRoutes } from './api/routes/reports/requests.ts'
import { registerContentTypes } from './api/plugins/content-types.ts'
import { registerTextGuard } from './api/plugins/text-guard.ts'
import { registerIntegerBounds } from './api/plugins/integer-bounds.ts'
import { registerErrorHandler } from './api/plugins/error-handler.ts'
import { httpErrorOptions, MAX_PARAM_LENGTH, registerHttpErrors } from './api/plugins/http-errors.ts'
import { registerMetrics } from './api/plugins/metrics.ts'
import { openapiOptions } from './api/plugins/openapi.ts'
import { registerRateLimit } from './api/plugins/rate-limit.ts'
import { rewriteVersionPrefix } from './api/plugins/version-prefix.ts'
import type { AuthService } from './auth/auth-service.ts'
import { DEFAULT_NAMESERVERS, type Config } from './config/config.ts'
import type { Store } from './store/store.ts'
import type { TaskHandler } from './tasks/runner.ts'
import { VERSION } from './version.ts'
import { SecretBox } from './auth/secrets.ts'
import { zoneRoutes } from './api/routes/zones/index.ts'
import { zoneSnapshotRoutes } from './api/routes/zones/snapshot.ts'
import { dnssecRoutes } from './api/routes/zones/dnssec.ts'
import { danglingRoutes } from './api/routes/zones/dangling.ts'
import { MULTIPART_LIMITS } from './api/routes/zones/upload.ts'
import type { ZoneDeps } from './zones/context.ts'
import { DEFAULT_ZONE_LIMITS, type ZoneLimits } from './zones/limits.ts'
import { rrsetRoutes } from './api/routes/rrsets/index.ts'
import multipart from '@fastify/multipart'
import type { Registry } from 'prom-client'
import { usageRoutes } from './api/routes/reports/usage.ts'
import { systemClock, type Clock } from './util/time.ts'
import { healthCheckRoutes } from './api/routes/zones/healthchecks.ts'
import { HealthChecker } from './health/service.ts'
import { healthStatusRoutes } from './api/routes/reports/health-status.ts'
import { failoverRoutes } from './api/routes/reports/failover.ts'
import { probeRoutes } from './api/routes/probes/index.ts'
import { probeResultRoutes } from './api/routes/reports/probe-results.ts'
import { consoleRoutes } from './api/routes/console/index.ts'
import { webForwardRoutes } from './api/routes/zones/webforwards.ts'
import { customHeaderRoutes } from './api/routes/accounts/customheaders.ts'

export interface AppDeps {
  store: Store
  auth: AuthService
  config: Pick<Config, 'bodyLimit' | 'rateLimitMax' | 'rateLimitWindowSeconds'> & Partial<Pick<Config, 'nameservers' | 'secretKey' | 'zoneMaxRecords' | 'generateMaxRecords' | 'uploadSyncMaxRecords' | 'forwardAddresses'>>
  /** A pino logger; without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger
  /**
   * The task runner, woken when a route creates a task (without one, tasks wait for a runner).
   * Routes whose jobs need the app itself register them (`POST /batch?async=true`).
   */
  tasks?: { wake (): void, register? (kind: string, handler: TaskHandler): void }
  /** The Prometheus registry `/metrics` shows, when other parts add to it (a new one otherwise). */
  metrics?: Registry
  /** Fetches a zone by AXFR (primary zones created with createType TRANSFER). */
  transferZone?: ZoneDeps['transferZone']
  /** The time reports read "now" from (tests move it). */
  clock?: Clock
  /** The built web console's folder (default dist/console, where `npm install` builds it). */
  consoleDir?: string
  /**
   * Runs DNS health checks (`POST /zones/{zone}/healthchecks`); without one the app runs its own,
   * with no resolver (the checks needing DNS answers are NOT_APPLICABLE), stopped when it closes.
   */
  health?: HealthChecker
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/**
 * Build the HTTP API (never listens; `main.ts` does). Routes answer under no prefix and under
 * `/v1`, `/v2`, `/v3` alike; a route that differs by version reads `apiVersionOf(request)`.
 */
export async function buildApp (deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.logger === undefined ? { logger: false } : { loggerInstance: deps.logger }),
    ...httpErrorOptions,
    bodyLimit: deps.config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: MAX_PARAM_LENGTH },
    rewriteUrl: rewriteVersionPrefix,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    // `x-examples` holds the named request examples of the OpenAPI document (an annotation).
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, keywords: ['x-examples'] } }
  }).withTypeProvider<TypeBoxTypeProvider>()

  registerHttpErrors(app)
  registerIntegerBounds(app)
  registerContentTypes(app)
  registerTextGuard(app)
  registerErrorHandler(app)
  await app.register(helmet, { contentSecurityPolicy: false, global: true })
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  // A request without a body is checked as an empty object, so a missing required field is
  // reported by name (55001 "properties is required field.") rather than "body must be object".
  // A body of `null` is a body: routes that take an object refuse it.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined) request.body = {}
  })
  registerRateLimit(app, deps.config.rateLimitMax, deps.config.rateLimitWindowSeconds)

  await app.register(swagger, openapiOptions({
    title: 'Zonal API',
    version: VERSION,
    description: 'UltraDNS-compatible zone management and reporting API. Every path also answers under /v1, /v2 and /v3.'
  }))
  // The UI's own routes are public; its page is in the document, its files are not.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...(route.config ?? {}), public: true }
    if (/^\/docs\/?$/.test(route.url) && route.method === 'GET') {
      route.schema = { ...route.schema, hide: false, tags: ['system'], operationId: 'getDocs', summary: 'Interactive API documentation (Swagger UI, HTML)' }
    }
  })
  registerMetrics(app, deps.metrics)
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } })
  app.get('/openapi.json', {
    config: { public: true },
    schema: { tags: ['system'], operationId: 'getOpenApiDocument', summary: 'This OpenAPI document' }
  }, async () => app.swagger())

  await app.register(multipart, { limits: { ...MULTIPART_LIMITS, fileSize: deps.config.bodyLimit, fieldSize: deps.config.bodyLimit } })
  registerAuth(app, deps.auth)
  await app.register(consoleRoutes, deps.consoleDir === undefined ? {} : { dir: deps.consoleDir })
  await app.register(systemRoutes)
  await app.register(authorizationRoutes, { auth: deps.auth })
  await app.register(accountRoutes, { store: deps.store })
  const limits: ZoneLimits = {
    zoneMaxRecords: deps.config.zoneMaxRecords ?? DEFAULT_ZONE_LIMITS.zoneMaxRecords,
    generateMaxRecords: deps.config.generateMaxRecords ?? DEFAULT_ZONE_LIMITS.generateMaxRecords,
    uploadSyncMaxRecords: deps.config.uploadSyncMaxRecords ?? DEFAULT_ZONE_LIMITS.uploadSyncMaxRecords
  }
  // What every route that changes zones is given (one box for the secrets, one set of limits).
  const zones = {
    store: deps.store,
    nameservers: deps.config.nameservers ?? DEFAULT_NAMESERVERS,
    secrets: new SecretBox(deps.config.secretKey),
    clock: systemClock,
    limits,
    ...(deps.config.forwardAddresses === undefined ? {} : { forwardAddresses: deps.config.forwardAddresses })
  }
  await app.register(zoneRoutes, {
    zones: { ...zones, ...(deps.transferZone === undefined ? {} : { transferZone: deps.transferZone }) },
    tasks: deps.tasks
  })
  await app.register(zoneSnapshotRoutes, { zones, tasks: deps.tasks })
  await app.register(dnssecRoutes, { zones: { ...zones, clock: deps.clock ?? systemClock }, tasks: deps.tasks })
  await app.register(zoneListRoutes, { store: deps.store })
  await app.register(rrsetRoutes, { zones })
  await app.register(taskRoutes, { store: deps.store })
  await app.register(zoneExportRoutes, { store: deps.store, tasks: deps.tasks })
  await app.register(batchRoutes, { store: deps.store, tasks: deps.tasks })
  await app.register(reportRoutes, { store: deps.store, clock: deps.clock ?? systemClock })
  await app.register(reportRequestRoutes, { store: deps.store, clock: deps.clock ?? systemClock, ...(deps.tasks === undefined ? {} : { tasks: deps.tasks }) })
  const checker = deps.health ?? new HealthChecker(deps.store, { resolvers: [], nsPort: 53, concurrency: 2, perServerQps: 10, intervalMs: 0, changeDelayMs: 0 })
  if (deps.health === undefined) app.addHook('onClose', async () => await checker.stop())
  await app.register(healthCheckRoutes, { store: deps.store, checker })
  await app.register(healthStatusRoutes, { store: deps.store })
  await app.register(danglingRoutes, {
    zones,
    clock: deps.clock ?? systemClock,
    ...(deps.tasks === undefined ? {} : { tasks: deps.tasks })
  })
  await app.register(usageRoutes, { store: deps.store, clock: deps.clock ?? systemClock })
  await app.register(failoverRoutes, { store: deps.store, clock: deps.clock ?? systemClock })
  await app.register(probeResultRoutes, { store: deps.store, clock: deps.clock ?? systemClock })
  await app.register(probeRoutes, { zones })
  await app.register(webForwardRoutes, { zones })
  await app.register(customHeaderRoutes, { store: deps.store })
  return app
}
