import { useState } from 'preact/hooks'
import { ApiError, call } from '../api.ts'
import { Link } from '../link.tsx'
import { downloadResult, waitForTask } from '../tasks.ts'

/**
 * Export the zone to a BIND file: POST /zones/export starts a task; its progress is shown
 * until it completes, then the file can be downloaded (GET /tasks/{taskId}/result).
 */
export function ExportZone (props: { zone: string }) {
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'running', message: string } | { kind: 'done', taskId: string } | { kind: 'failed', message: string }>({ kind: 'idle' })

  async function start (): Promise<void> {
    setState({ kind: 'running', message: 'Starting the export…' })
    try {
      const res = await call('POST', '/zones/export', { body: { zoneNames: [props.zone] } })
      const taskId = res.headers.get('x-task-id')
      if (taskId === null) throw new ApiError(res.status, [{ errorMessage: 'The service started no task for the export.' }])
      const task = await waitForTask(taskId, t => setState({ kind: 'running', message: t.message }))
      if (task.code === 'COMPLETE') setState({ kind: 'done', taskId })
      else setState({ kind: 'failed', message: task.message })
    } catch (err) {
      setState({ kind: 'failed', message: err instanceof Error ? err.message : String(err) })
    }
  }

  async function download (taskId: string): Promise<void> {
    try {
      await downloadResult(taskId)
    } catch (err) {
      setState({ kind: 'failed', message: `The file could not be downloaded: ${err instanceof Error ? err.message : String(err)}` })
    }
  }

  return (
    <div class='export'>
      <button type='button' class='ghost' disabled={state.kind === 'running'} onClick={() => { start().catch(() => {}) }}>Export as BIND file</button>
      {state.kind === 'running' && <span role='status' class='muted'> Export: {state.message}</span>}
      {state.kind === 'done' && (
        <span role='status'>
          {' '}Export ready. <button type='button' onClick={() => { download(state.taskId).catch(() => {}) }}>Download</button>
          {' '}(also under <Link to='/tasks'>Tasks</Link>)
        </span>
      )}
      {state.kind === 'failed' && <p class='error' role='alert'>The export failed: {state.message}</p>}
    </div>
  )
}
