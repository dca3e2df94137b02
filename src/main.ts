import { enableCompileCache } from 'node:module'

// Node keeps the compiled form of the sources (type-stripped and compiled by V8) in its compile
// cache (NODE_COMPILE_CACHE, else the system's temporary directory; NODE_DISABLE_COMPILE_CACHE=1
// turns it off): a start after the first skips most of the compiling. Enabled before the
// program's modules are imported, so they are cached too.
enableCompileCache()
const { runCli } = await import('./cli/program.ts')
await runCli(process.argv)
