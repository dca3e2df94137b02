/** A source of the current time, injectable so tests can move it. */
export type Clock = () => Date

export const systemClock: Clock = () => new Date()

/** ISO 8601 UTC with milliseconds: the one time format the store keeps. */
export function iso (date: Date): string {
  return date.toISOString()
}

export function addSeconds (date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000)
}
