import assert from 'node:assert/strict'
import type { client } from './zones.ts'

export type Caller = ReturnType<typeof client>
export type ReportRow = Record<string, unknown>

/** The real API's "not ready" answer of `GET /requests/{id}` (202 here). */
export const NOT_READY = { errorCode: 410004, errorMessage: 'Report is not ready. Please try again later.' }

/**
 * One asynchronous report as a caller uses it: `request` POSTs (201, the id matching `idPattern`),
 * `result` polls `GET /requests/{id}` while it answers 202 (with the 410004 object) and returns
 * the first other answer, `rows` does both and expects 200, `error` POSTs and returns the first
 * error's status, code and message.
 */
export function reportCalls (path: string, idPattern = /^[A-Z_]+-[0-9a-f]{16}$/) {
  const request = async (who: Caller, body: unknown, query = ''): Promise<string> => {
    const res = await who.post(`${path}${query}`, body)
    assert.equal(res.statusCode, 201, res.body)
    const { requestId } = res.json() as { requestId: string }
    assert.match(requestId, idPattern)
    return requestId
  }
  const result = async (who: Caller, id: string, headers: Record<string, string> = {}) => {
    for (;;) {
      const res = await who.send('GET', `/requests/${id}`, undefined, headers)
      if (res.statusCode !== 202) return res
      assert.deepEqual(res.json(), NOT_READY)
      await new Promise(resolve => setTimeout(resolve, 20))
    }
  }
  const rows = async (who: Caller, body: unknown, query = ''): Promise<ReportRow[]> => {
    const res = await result(who, await request(who, body, query))
    assert.equal(res.statusCode, 200, res.body)
    return res.json() as ReportRow[]
  }
  const error = async (who: Caller, body: unknown, query = ''): Promise<[number, number, string]> => {
    const res = await who.post(`${path}${query}`, body)
    const [e] = res.json() as Array<{ errorCode: number, errorMessage: string }>
    return [res.statusCode, e!.errorCode, e!.errorMessage]
  }
  return { request, result, rows, error }
}
