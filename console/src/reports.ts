import { ApiError, call, json } from './api.ts'

/** A UTC day `yyyy-MM-dd`, `days` after today (negative: before). */
export function utcDay (days = 0): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
}

/** Days from `from` to `to` (inclusive of both ends, so a single day is 1). */
export function spanDays (from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1
}

/** Every day from `from` to `to`, in order. */
export function daysOf (from: string, to: string): string[] {
  const out: string[] = []
  for (let t = Date.parse(from); t <= Date.parse(to); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10))
  return out
}

const POLL_MS = 500

/**
 * Request an asynchronous report (POST, 201 `{requestId}`) and wait for its rows (GET
 * /requests/{id}: 202 while it is computed); `progress` hears each wait, in words.
 * @throws ApiError for a refused request (the service's words: date rules, account, zone)
 */
export async function runReport<T> (path: string, body: unknown, progress: (message: string) => void): Promise<T[]> {
  const { requestId } = await json<{ requestId: string }>('POST', `${path}?limit=10000`, { body })
  const started = Date.now()
  for (;;) {
    const res = await call('GET', `/requests/${encodeURIComponent(requestId)}`)
    if (res.status === 200) return await res.json() as T[]
    if (res.status !== 202) throw new ApiError(res.status, [{ errorMessage: `The report answered with status ${res.status}.` }])
    progress(`The report ${requestId} is being computed (${Math.round((Date.now() - started) / 1000)} s)…`)
    await new Promise(resolve => setTimeout(resolve, POLL_MS))
  }
}
