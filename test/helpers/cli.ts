import { fileURLToPath } from 'node:url'
import { runProcess } from './process.ts'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BIN = fileURLToPath(new URL('../../bin/zonal.js', import.meta.url))

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Run `zonal <args>` as a real process on `databaseUrl`, optionally feeding standard input and with more environment. */
export async function zonal (databaseUrl: string, args: string[], stdin?: string, env: Record<string, string> = {}): Promise<CliResult> {
  return await runProcess(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, ZONAL_DATABASE_URL: databaseUrl, ZONAL_LOG_LEVEL: 'silent', ...env },
    ...(stdin === undefined ? {} : { input: stdin })
  })
}
