import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance, InjectOptions } from 'fastify'

/** Requests as one user of the app (bearer token set). */
export function client (app: FastifyInstance, token: string) {
  const send = async (method: InjectOptions['method'], url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    await app.inject({ method, url, payload: payload as InjectOptions['payload'], headers: { authorization: `Bearer ${token}`, ...headers } })
  return {
    send,
    get: async (url: string) => await send('GET', url),
    post: async (url: string, body?: unknown) => await send('POST', url, body),
    put: async (url: string, body?: unknown) => await send('PUT', url, body),
    patch: async (url: string, body?: unknown) => await send('PATCH', url, body),
    jsonPatch: async (url: string, ops: unknown) => await send('PATCH', url, JSON.stringify(ops), { 'content-type': 'application/json-patch+json' }),
    delete: async (url: string, body?: unknown) => await send('DELETE', url, body),
    /** POST /zones with a NEW primary. */
    newPrimary: async (name: string, account: string, extra: Record<string, unknown> = {}) =>
      await send('POST', '/zones', { properties: { name, accountName: account, type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW', ...extra } }),
    /** POST /zones as multipart: a `zone` JSON part and a `file` part. */
    upload: async (zone: unknown, file: string | undefined) => {
      const b = 'zonalBoundary42'
      let body = `--${b}\r\nContent-Disposition: form-data; name="zone"; filename=""\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(zone)}\r\n`
      if (file !== undefined) body += `--${b}\r\nContent-Disposition: form-data; name="file"; filename="file"\r\nContent-Type: application/octet-stream\r\n\r\n${file}\r\n`
      body += `--${b}--\r\n`
      return await send('POST', '/zones', body, { 'content-type': `multipart/form-data; boundary=${b}` })
    }
  }
}

/** The first error code of an error body. */
export function errorCode (body: string): number | undefined {
  const parsed = JSON.parse(body) as { errorCode: number }[] | { errorCode: number }
  return Array.isArray(parsed) ? parsed[0]?.errorCode : parsed.errorCode
}

/** A Task DTO as `GET /tasks/{id}` gives it. */
export type TaskDto = Record<string, unknown> & { code: string, message: string }

/** Poll `GET /v1/tasks/{id}` as `as` until the task is finished (COMPLETE or ERROR); its Task DTO. */
export async function taskSettled (as: { get: (url: string) => Promise<{ json: () => unknown }> }, id: string, timeoutMs = 30_000): Promise<TaskDto> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const dto = (await as.get(`/v1/tasks/${id}`)).json() as TaskDto
    if (dto.code === 'COMPLETE' || dto.code === 'ERROR') return dto
    assert.ok(Date.now() < end, `task ${id} not finished: ${JSON.stringify(dto)}`)
    await sleep(20)
  }
}
