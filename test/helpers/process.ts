import { spawn } from 'node:child_process'

export interface ProcessResult {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Run a command to its end without blocking the event loop (a service under test may answer in
 * this process), feeding `input` on standard input when given.
 */
export async function runProcess (command: string, args: readonly string[], opts: { cwd?: string, env?: NodeJS.ProcessEnv, input?: string } = {}): Promise<ProcessResult> {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  child.stdin.end(opts.input ?? '')
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  return { code, stdout, stderr }
}
