#!/usr/bin/env node
// The `zonal` command: runs the TypeScript sources directly (Node strips the types; no build
// step). `npx zonal` and npm scripts find the project's pinned Node first on PATH.
await import('../src/main.ts')
