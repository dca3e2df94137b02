// Runs every test file under test/ with node's test runner (the TypeScript runs as is: Node
// strips the types), or only the `.test.ts` files named among the arguments. Other arguments are
// passed to node (e.g. --test-name-pattern).
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { availableParallelism } from 'node:os'
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

const named = process.argv.slice(2).filter(a => a.endsWith('.test.ts'))
const options = process.argv.slice(2).filter(a => !a.endsWith('.test.ts'))
const files = named.length > 0 ? named : find('test').sort()
// Piped (CI, logs): TAP, whose closing `# tests`, `# pass`, `# fail` lines CI reads; a terminal
// keeps node's own default reporter.
const reporter = process.stdout.isTTY || options.some(a => a.startsWith('--test-reporter')) ? [] : ['--test-reporter=tap']
// Files run side by side, one per core (node's own default leaves one core idle: a single file
// at a time on two cores). Most files wait on sockets, servers and browsers more than they
// compute; each test waits for what it asserts, so a busy neighbour only slows it.
const concurrency = options.some(a => a.startsWith('--test-concurrency')) ? [] : [`--test-concurrency=${Math.max(2, availableParallelism())}`]
const args = ['--test', ...reporter, ...concurrency, ...options, ...files]
const result = spawnSync(process.execPath, args, { stdio: 'inherit' })
process.exit(result.status ?? 1)
