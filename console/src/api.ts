import { session } from './session.ts'

/** One error of an API answer: the service's `{errorCode, errorMessage}`. */
export interface ApiErrorItem {
  errorCode?: number
  errorMessage: string
}

/** An API call that did not succeed: its status and the service's errors, in words. */
export class ApiError extends Error {
  readonly status: number
  readonly items: ApiErrorItem[]

  constructor (status: number, items: ApiErrorItem[]) {
    super(items.map(i => i.errorMessage).join(' ') || `The service answered ${status}.`)
    this.status = status
    this.items = items
  }
}

/** The error list of an error answer, whichever shape the service used (a list, or one object). */
export async function errorItems (res: Response): Promise<ApiErrorItem[]> {
  const text = await res.text()
  try {
    const body: unknown = JSON.parse(text)
    const list = Array.isArray(body) ? body : [body]
    const items = list.flatMap((e: unknown) => {
      if (typeof e !== 'object' || e === null) return []
      const o = e as Record<string, unknown>
      const message = typeof o.errorMessage === 'string' ? o.errorMessage : typeof o.error_description === 'string' ? o.error_description : undefined
      return message === undefined ? [] : [{ errorMessage: message, ...(typeof o.errorCode === 'number' ? { errorCode: o.errorCode } : {}) }]
    })
    if (items.length > 0) return items
  } catch {}
  return [{ errorMessage: statusWords(res.status) }]
}

function statusWords (status: number): string {
  if (status === 403) return 'You do not have permission to do this.'
  if (status === 404) return 'Not found.'
  if (status === 429) return 'Too many requests; wait a moment and try again.'
  if (status >= 500) return `The service failed to answer (status ${status}). Try again; if it persists, look at the service's log.`
  return `The service answered with status ${status}.`
}

export interface CallOptions {
  /** A JSON body, or a FormData (multipart). */
  body?: unknown
  /** Extra request headers. */
  headers?: Record<string, string>
}

/**
 * A call to the service's public API with the session's bearer token. A 401 refreshes the
 * token once and tries again; a second 401 ends the session (back to sign-in, the page kept).
 * @throws ApiError for any answer that is not 2xx
 */
export async function call (method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const send = async (): Promise<Response> => {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
    const token = session.accessToken()
    if (token !== undefined) headers.authorization = `Bearer ${token}`
    let body: FormData | string | undefined
    if (options.body instanceof FormData) body = options.body
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(options.body)
    }
    return await fetch(path, { method, headers, body, credentials: 'omit', cache: 'no-store' })
  }
  let res: Response
  try {
    res = await send()
    if (res.status === 401 && await session.refresh()) res = await send()
  } catch {
    throw new ApiError(0, [{ errorMessage: 'The service cannot be reached. Check that it is running and try again.' }])
  }
  if (res.status === 401) {
    session.expire()
    throw new ApiError(401, [{ errorMessage: 'Your session has ended. Sign in again.' }])
  }
  if (!res.ok) throw new ApiError(res.status, await errorItems(res))
  return res
}

/** {@link call} and the answer's JSON. */
export async function json<T> (method: string, path: string, options: CallOptions = {}): Promise<T> {
  const res = await call(method, path, options)
  if (res.status === 204) return undefined as T
  return await res.json() as T
}

/** A zone name as a path segment (a `/` inside it is `%2F`). */
export function zonePath (zone: string): string {
  return encodeURIComponent(zone)
}
