import { runCli } from './cli/program.ts'

await runCli(process.argv)
