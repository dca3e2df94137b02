import { enableCompileCache } from 'node:module'

// A DNS worker thread's entry: the compile cache first (see main.ts), then the worker itself.
enableCompileCache()
await import('./dns-worker.ts')
