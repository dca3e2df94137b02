import { AsyncLocalStorage } from 'node:async_hooks'
import type { Principal } from '../../auth/principal.ts'

/** What the API knows about requests the service sends itself (the operations of a batch). */
export interface SubRequestContext {
  /**
   * Authenticate the sub-requests as this caller instead of by their token: a batch run later by
   * a task, whose caller's token may have expired meanwhile (and is never stored).
   */
  principal?: Principal
}

const contexts = new AsyncLocalStorage<SubRequestContext>()

/**
 * Run `fn`, whose `app.inject` calls are sub-requests of one outer request: the rate limiter
 * does not count them again, and `context.principal` (when set) authenticates them. Only server
 * code can enter this context; a request from the network never runs in it.
 */
export async function runSubRequests<T> (context: SubRequestContext, fn: () => Promise<T>): Promise<T> {
  return await contexts.run(context, fn)
}

/** The sub-request context of the current request, undefined for a request from the network. */
export function subRequestContext (): SubRequestContext | undefined {
  return contexts.getStore()
}
