/**
 * SOA serial numbers: RFC 1982 serial arithmetic and the date-based `YYYYMMDDnn` convention.
 */
const HALF = 2 ** 31
const MOD = 2 ** 32

/** The first serial of a day: `YYYYMMDD00` (UTC). */
export function dateSerial (now: Date): number {
  return Number(now.toISOString().slice(0, 10).replace(/-/g, '')) * 100
}

/** RFC 1982 §3.1: `a + n` modulo 2^32, for 0 ≤ n ≤ 2^31 − 1. */
export function serialAdd (a: number, n: number): number {
  return (a + n) % MOD
}

/** RFC 1982 §3.2: whether `a` is greater than `b` in serial-number order. */
export function serialGreater (a: number, b: number): boolean {
  return (a < b && b - a > HALF) || (a > b && a - b < HALF)
}

/**
 * The serial after `current` for a change made at `now`: today's `YYYYMMDDnn` when that is
 * ahead of `current` (in RFC 1982 order), else `current + 1` (wrapping at 2^32).
 */
export function nextSerial (current: number, now: Date): number {
  const today = dateSerial(now)
  if (serialGreater(today, current)) return today
  return serialAdd(current, 1)
}
