/**
 * Failed logins per client address over a sliding window, kept in memory (each node throttles
 * what it sees; the per-user lock lives in the database and holds across nodes).
 *
 * An attempt takes its place in the window before the password is checked ({@link reserve}),
 * so concurrent attempts from one address cannot all slip under the limit; an attempt that
 * succeeds gives its place back ({@link release}). Only failures stay counted: logging in to
 * one's own account does not wipe the failures before it.
 */
export class AddressThrottle {
  private readonly failures = new Map<string, number[]>()

  private readonly maxFailures: number
  private readonly windowMs: number

  constructor (maxFailures: number, windowMs: number) {
    this.maxFailures = maxFailures
    this.windowMs = windowMs
  }

  /**
   * Take a place for one attempt from `address`: the seconds to wait (> 0) when the address has
   * failed too often, else 0 with the attempt counted as a failure until {@link release}d.
   */
  reserve (address: string, now: number): number {
    if (this.maxFailures <= 0) return 0
    const recent = this.prune(address, now)
    if (recent.length >= this.maxFailures) return Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000))
    recent.push(now)
    this.failures.set(address, recent)
    if (this.failures.size > 100_000) this.sweep(now)
    return 0
  }

  /** Give back the place an attempt took at `at` (it succeeded). */
  release (address: string, at: number): void {
    const list = this.failures.get(address)
    if (list === undefined) return
    const i = list.lastIndexOf(at)
    if (i >= 0) list.splice(i, 1)
    if (list.length === 0) this.failures.delete(address)
  }

  private prune (address: string, now: number): number[] {
    const list = this.failures.get(address)
    if (list === undefined) return []
    const recent = list.filter(t => t > now - this.windowMs)
    if (recent.length === 0) this.failures.delete(address)
    return recent
  }

  private sweep (now: number): void {
    for (const address of [...this.failures.keys()]) this.prune(address, now)
  }
}
