import type { ZonalError } from './catalog.ts'

/** One element of the UltraDNS error list. */
export interface ErrorItem {
  errorCode: number
  errorMessage: string
}

/** Token-endpoint style single-object error: the OAuth2 fields beside the UltraDNS ones. */
export interface ErrorObject extends ErrorItem {
  error?: string
  error_description?: string
}

/**
 * Render an error in its wire shape: `[{errorCode, errorMessage}]`, or a single object for the
 * entries the real API answers that way (token errors, "report not ready") and wherever `shape`
 * asks for one (every error of the token endpoint).
 */
export function renderError (err: ZonalError, shape: 'list' | 'object' = err.def.shape ?? 'list'): ErrorItem[] | ErrorObject {
  const item: ErrorItem = { errorCode: err.def.errorCode, errorMessage: err.message }
  if (err.details !== undefined && shape !== 'object') return err.details.map(m => ({ errorCode: err.def.errorCode, errorMessage: m }))
  if (shape !== 'object') return [item]
  const oauth = /^(invalid_\w+):/.exec(err.message)
  if (oauth === null) return item
  return { ...item, error: oauth[1], error_description: `${item.errorCode}: ${item.errorMessage}` }
}
