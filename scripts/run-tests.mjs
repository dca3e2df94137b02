// Runs every test file under test/ with node's test runner (the TypeScript runs as is: Node
// strips the types). Extra arguments are passed to node (e.g. --test-name-pattern).
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function find (dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...find(path))
    else if (name.endsWith('.test.ts')) out.push(path)
  }
  return out
}

const files = find('test').sort()
// Piped (CI, logs): TAP, whose closing `# tests`, `# pass`, `# fail` lines CI reads; a terminal
// keeps node's own default reporter.
const reporter = process.stdout.isTTY || process.argv.slice(2).some(a => a.startsWith('--test-reporter')) ? [] : ['--test-reporter=tap']
const args = ['--test', ...reporter, ...process.argv.slice(2), ...files]
const result = spawnSync(process.execPath, args, { stdio: 'inherit' })
process.exit(result.status ?? 1)
