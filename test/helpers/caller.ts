import type { FastifyInstance, InjectOptions } from 'fastify'

/** Requests as one user of the app: the bearer token set on each. */
export function caller (app: FastifyInstance, token: string) {
  const send = async (method: InjectOptions['method'], url: string, payload?: unknown) =>
    await app.inject({ method, url, payload: payload as InjectOptions['payload'], headers: { authorization: `Bearer ${token}` } })
  return {
    get: async (url: string) => await send('GET', url),
    post: async (url: string, body?: unknown) => await send('POST', url, body),
    delete: async (url: string) => await send('DELETE', url)
  }
}
