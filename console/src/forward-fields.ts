/** An input of the web forward form: the requested address, the target, the type, the relative type, or the form as a whole. */
export type ForwardField = 'request-to' | 'target' | 'type' | 'relative' | 'form'

/**
 * The input an API error of a web forward's POST or PATCH is about, read from the field its
 * message names (`defaultRedirectTo`, `defaultForwardType`, `relativeForwardType`, `requestTo`)
 * or, for the host's conflicts (a forward for it already, records no forward wrote), the
 * requested address; `form` when it names none.
 */
export function forwardFieldOf (message: string): ForwardField {
  if (/\bdefaultRedirectTo\b/.test(message)) return 'target'
  if (/\bdefaultForwardType\b|redirect type/i.test(message)) return 'type'
  if (/\brelativeForwardType\b/.test(message)) return 'relative'
  if (/\brequestTo\b|\bthe host \S+ already has\b|\ba web forward for \S+ already exists\b/.test(message)) return 'request-to'
  return 'form'
}
