import type { FastifyInstance } from 'fastify'
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/**
 * Prometheus metrics at `/metrics`: request counts and latencies by method, route pattern and
 * status (never by raw URL, zone or client, to keep label cardinality bounded), plus Node's own.
 * Other parts of the service add theirs to the same registry (the DNS query counts).
 */
export function registerMetrics (app: FastifyInstance, registry: Registry = new Registry()): Registry {
  collectDefaultMetrics({ register: registry, prefix: 'zonal_' })
  const requests = new Counter({
    name: 'zonal_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry]
  })
  const latency = new Histogram({
    name: 'zonal_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry]
  })
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.is404 ? 'unknown' : (request.routeOptions.url ?? 'unknown'),
      status: String(reply.statusCode)
    }
    requests.inc(labels)
    latency.observe(labels, reply.elapsedTime / 1000)
  })
  app.get('/metrics', {
    config: { public: true },
    schema: { tags: ['system'], operationId: 'getMetrics', summary: 'Prometheus metrics (text exposition format)' }
  }, async (_request, reply) => {
    reply.type(registry.contentType)
    return await registry.metrics()
  })
  return registry
}
