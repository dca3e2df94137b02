/**
 * Paces queries per server: at most `perSecond` queries a second to any one address, whatever
 * the number of checks running at once. Each `wait(address)` takes the address's next free slot
 * and resolves when it comes.
 */
export class Pacer {
  private readonly gapMs: number
  private readonly next = new Map<string, number>()
  private readonly now: () => number

  constructor (perSecond: number, now: () => number = () => performance.now()) {
    this.gapMs = 1000 / perSecond
    this.now = now
  }

  /** How long the caller must wait before sending to `address` (its slot is taken). */
  take (address: string): number {
    const now = this.now()
    if (this.next.size > 10_000) for (const [a, t] of this.next) if (t <= now) this.next.delete(a)
    const slot = Math.max(now, this.next.get(address) ?? 0)
    this.next.set(address, slot + this.gapMs)
    return slot - now
  }

  async wait (address: string): Promise<void> {
    const ms = this.take(address)
    if (ms > 0) await new Promise(resolve => setTimeout(resolve, ms))
  }
}
