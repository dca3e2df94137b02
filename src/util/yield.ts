/**
 * Resolves after the event loop's pending I/O callbacks and timers have run: long work that
 * awaits only synchronous steps (better-sqlite3 statements resolve at once) calls it between
 * pieces, so HTTP, DNS and timers are answered meanwhile.
 */
export async function yieldToLoop (): Promise<void> {
  await new Promise<void>(resolve => setImmediate(resolve))
}
