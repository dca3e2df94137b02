import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BIN = fileURLToPath(new URL('../../bin/zonal.js', import.meta.url))

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Run `zonal <args>` as a real process on `databaseUrl`, optionally feeding standard input and with more environment. */
export async function zonal (databaseUrl: string, args: string[], stdin?: string, env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, ZONAL_DATABASE_URL: databaseUrl, ZONAL_LOG_LEVEL: 'silent', ...env },
    stdio: ['pipe', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  child.stdin.end(stdin ?? '')
  const code = await new Promise<number | null>(resolve => child.on('close', resolve))
  return { code, stdout, stderr }
}
