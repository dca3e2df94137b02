/**
 * What one probe checks, validated and with defaults filled (`../probe-definition.ts` makes them
 * from the API's probe details and the SF and SLB pools' monitors). Every check runs against one
 * pool record's address; times are milliseconds.
 */

/** One HTTP request of an HTTP probe. */
export interface HttpTransaction {
  method: 'GET' | 'POST'
  /** The URL asked for: its host goes in the Host header (and TLS SNI); the connection goes to the record's address. */
  url: string
  transmittedData: string
  followRedirects: boolean
  /** Status codes that pass: `2XX`, `3XX`, `2XX|3XX`, or codes such as `201|302`. */
  expectedResponse: string
  /** Text the body must hold (else tried as a regular expression); '' for none. */
  searchString: string
  /** Fail when connecting takes longer. */
  connectMs: number
  /** Fail when the whole request takes longer. */
  runMs: number
}

export type ProbeCheck =
  | { kind: 'HTTP', transactions: HttpTransaction[], headers: Record<string, string[]>, totalMs: number }
  | { kind: 'TCP', port: number, controlIP: string | null, connectMs: number }
  | { kind: 'DNS', port: number, tcpOnly: boolean, qtype: number, qname: string, failResponse: string, runMs: number }
  | { kind: 'SMTP', port: number, connectMs: number, runMs: number }
  | { kind: 'FTP', port: number, username: string, password: string, path: string, connectMs: number, runMs: number }

/** What one run found. */
export interface CheckOutcome {
  ok: boolean
  /** Why it failed, or what passed (one line). */
  message: string
  durationMs: number
}

/** What a run is given besides the check. */
export interface CheckContext {
  /** The pool record probed: an IPv4 or IPv6 address. */
  address: string
  /** Aborts the run (the service stopping). */
  signal?: AbortSignal
}

/** The longest any one check may take, whatever its limits say. */
export const MAX_CHECK_MS = 60_000

/** A run's time limit: {@link signal} aborts when it passes; {@link dispose} when the run ends. */
export interface Deadline {
  readonly signal: AbortSignal
  /** Clear the timer and stop following the outer signals. */
  dispose: () => void
}

/**
 * A signal that aborts after `ms` (a `TimeoutError`, at most {@link MAX_CHECK_MS}) or when one of
 * `outer` aborts. One timer and one listener per outer signal, both removed by `dispose`:
 * `AbortSignal.timeout` with `AbortSignal.any` cost about 80 µs of CPU a probe run (BENCHMARKS.md,
 * traffic), and every composite signal stays tied to the long-lived service signal until collected.
 */
export function deadline (ms: number, ...outer: Array<AbortSignal | undefined>): Deadline {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), Math.max(1, Math.min(ms, MAX_CHECK_MS)))
  const following: Array<[AbortSignal, () => void]> = []
  const dispose = (): void => {
    clearTimeout(timer)
    for (const [signal, onAbort] of following.splice(0)) signal.removeEventListener('abort', onAbort)
  }
  for (const signal of outer) {
    if (signal === undefined) continue
    if (signal.aborted) {
      controller.abort(signal.reason)
      dispose()
      break
    }
    const onAbort = (): void => controller.abort(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    following.push([signal, onAbort])
  }
  return { signal: controller.signal, dispose }
}

/** A short, one-line description of an error. */
export function errorText (err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timed out'
    const code = (err as { code?: unknown }).code
    return typeof code === 'string' ? `${code}: ${err.message}`.slice(0, 200) : err.message.slice(0, 200)
  }
  return String(err).slice(0, 200)
}
