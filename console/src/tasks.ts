import { call, json } from './api.ts'

/** The Task DTO (GET /tasks/{taskId}). */
export interface Task {
  taskId: string
  code: 'PENDING' | 'IN_PROCESS' | 'COMPLETE' | 'ERROR'
  message: string
  resultUri?: string
  hasData: boolean
}

const POLL_MS = 500

export const running = (task: Task): boolean => task.code === 'PENDING' || task.code === 'IN_PROCESS'

/** Poll a task until it ends (COMPLETE or ERROR); `progress` gets each message on the way. */
export async function waitForTask (id: string, progress: (task: Task) => void): Promise<Task> {
  for (;;) {
    const task = await json<Task>('GET', `/tasks/${encodeURIComponent(id)}`)
    progress(task)
    if (!running(task)) return task
    await new Promise(resolve => setTimeout(resolve, POLL_MS))
  }
}

/**
 * Download a completed task's result (GET /tasks/{taskId}/result, with the token) as a file
 * the browser saves, named as the service names it.
 */
export async function downloadResult (taskId: string): Promise<void> {
  const res = await call('GET', `/tasks/${encodeURIComponent(taskId)}/result`, { headers: { accept: '*/*' } })
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `${taskId}.zone`
  saveBlob(await res.blob(), name)
}

/** Hand `blob` to the browser as a file download named `name` (through an object URL). */
export function saveBlob (blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
