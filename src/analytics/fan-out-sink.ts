import type { QueryBatch } from './query-batch.ts'
import type { QuerySink } from './query-sink.ts'

/**
 * Several sinks as one: each gets every batch, in order. When any returns a promise, the batch
 * is lent until all have settled; the first failure is reported after every sink had its turn.
 */
export class FanOutSink implements QuerySink {
  private readonly sinks: readonly QuerySink[]

  constructor (sinks: readonly QuerySink[]) {
    this.sinks = sinks
  }

  write (batch: QueryBatch): void | Promise<void> {
    const pending: Array<Promise<void>> = []
    let failure: { err: unknown } | undefined
    for (const sink of this.sinks) {
      try {
        const r = sink.write(batch)
        if (r instanceof Promise) pending.push(r)
      } catch (err) {
        failure ??= { err }
      }
    }
    if (pending.length === 0) {
      if (failure !== undefined) throw failure.err
      return
    }
    return Promise.allSettled(pending).then(results => {
      if (failure !== undefined) throw failure.err
      for (const r of results) if (r.status === 'rejected') throw r.reason
    })
  }
}
