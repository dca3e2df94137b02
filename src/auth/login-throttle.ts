/**
 * Failed logins per client address over a sliding window, kept in memory (each node throttles
 * what it sees; the per-user lock lives in the database and holds across nodes).
 */
export class AddressThrottle {
  private readonly failures = new Map<string, number[]>()

  private readonly maxFailures: number
  private readonly windowMs: number

  constructor (maxFailures: number, windowMs: number) {
    this.maxFailures = maxFailures
    this.windowMs = windowMs
  }

  /** Seconds the address must wait before trying again, or 0 when it may try now. */
  retryAfter (address: string, now: number): number {
    if (this.maxFailures <= 0) return 0
    const recent = this.prune(address, now)
    if (recent.length < this.maxFailures) return 0
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000))
  }

  recordFailure (address: string, now: number): void {
    const recent = this.prune(address, now)
    recent.push(now)
    this.failures.set(address, recent)
    if (this.failures.size > 100_000) this.sweep(now)
  }

  clear (address: string): void {
    this.failures.delete(address)
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
