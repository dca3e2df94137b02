import { useEffect, useState } from 'preact/hooks'
import { ApiError, json } from '../api.ts'
import { downloadResult, running, type Task } from '../tasks.ts'

interface TaskList {
  tasks: Task[]
  resultInfo: { totalCount: number, offset: number, returnedCount: number }
}

const PAGE_SIZE = 50
const REFRESH_MS = 1000

const WORDS: Record<Task['code'], string> = { PENDING: 'Waiting', IN_PROCESS: 'Running', COMPLETE: 'Complete', ERROR: 'Failed' }

/** The user's background tasks, newest first, refreshed while any runs (GET /tasks). */
export function TasksPage () {
  const [list, setList] = useState<TaskList | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [offset, setOffset] = useState(0)
  const [tick, setTick] = useState(0)

  useEffect(() => {
    let live = true
    json<TaskList>('GET', `/tasks?sort=DATE&reverse=true&limit=${PAGE_SIZE}&offset=${offset}`).then(l => {
      if (!live) return
      setList(l)
      setError(undefined)
      if (l.tasks.some(running)) setTimeout(() => { if (live) setTick(t => t + 1) }, REFRESH_MS)
    }, (err: unknown) => { if (live) setError(err instanceof ApiError ? err.message : String(err)) })
    return () => { live = false }
  }, [offset, tick])

  const total = list?.resultInfo.totalCount ?? 0
  return (
    <section>
      <h1>Tasks</h1>
      <p class='muted'>Exports, large uploads and other background work of your accounts. The list refreshes while a task runs.</p>
      {error !== undefined && <p class='error' role='alert'>The tasks could not be listed: {error}</p>}
      {list === undefined && error === undefined && <p role='status' class='muted'>Loading tasks…</p>}
      {list !== undefined && list.tasks.length === 0 && <p class='empty'>No tasks yet. Exporting a zone (on its page) or uploading a large zone file starts one.</p>}
      {list !== undefined && list.tasks.length > 0 && (
        <div class='table-wrap'>
          <table class='tasks'>
            <thead><tr><th scope='col'>Status</th><th scope='col'>Message</th><th scope='col'>Task</th><th scope='col'>Result</th></tr></thead>
            <tbody>
              {list.tasks.map(task => (
                <tr key={task.taskId}>
                  <td><span class={`status status-${task.code.toLowerCase()}`}>{WORDS[task.code]}</span></td>
                  <td>{task.message}</td>
                  <td><code>{task.taskId}</code></td>
                  <td>{task.hasData && <button type='button' class='ghost' onClick={() => { downloadResult(task.taskId).catch((err: unknown) => setError(err instanceof Error ? err.message : String(err))) }}>Download</button>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > PAGE_SIZE && (
        <nav class='pager' aria-label='Pages of tasks'>
          <button type='button' disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>Previous</button>
          <span class='muted'>{offset + 1}–{Math.min(offset + PAGE_SIZE, total)} of {total}</span>
          <button type='button' disabled={offset + PAGE_SIZE >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>Next</button>
        </nav>
      )}
    </section>
  )
}
