// Child process of the load benchmark: concurrent keep-alive API clients running a mixed load.
//
//   client.ts <JSON settings>
//
// settings: { base, token, clients, warmupSeconds, seconds, readZone, readNames, writeZones, taskId }
//
// Each client repeats, one request at a time, a cycle of six requests (MIX below). Requests
// during the first warmupSeconds are not counted; then for `seconds` each request's latency is
// kept. Prints one JSON line: requests, per second, failures (not 2xx, by kind and status), p50
// and p99 in ms over all requests and per kind.

interface Settings {
  base: string
  token: string
  clients: number
  warmupSeconds: number
  seconds: number
  readZone: string
  readNames: number
  writeZones: string[]
  taskId: string
}

const settings = JSON.parse(process.argv[2] ?? '') as Settings
const { base, token, clients, warmupSeconds, seconds, readZone, readNames, writeZones, taskId } = settings
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }

/** One step of a client's cycle: its kind and the request for client `c` at step `i`. */
interface Step { kind: string, path: (c: number, i: number) => string, init?: (c: number, i: number) => RequestInit }

/** The load mix: one of each per cycle. */
export const MIX: Step[] = [
  { kind: 'list zones', path: () => '/v3/zones?limit=100' },
  { kind: 'get zone', path: () => `/zones/${readZone}` },
  { kind: 'list rrsets', path: (c, i) => `/zones/${readZone}/rrsets?limit=100&offset=${((c + i) % 9) * 100}` },
  { kind: 'get rrset', path: (c, i) => `/zones/${readZone}/rrsets/A/h${(c * 131 + i) % readNames}` },
  {
    kind: 'write rrset',
    path: (c) => `/zones/${writeZones[c % writeZones.length]!}/rrsets/A/c${c}`,
    init: (c, i) => ({ method: 'PUT', body: JSON.stringify({ ttl: 300, rdata: [`10.1.${c & 255}.${i & 255}`] }) })
  },
  { kind: 'get task', path: () => `/tasks/${taskId}` }
]

const times = new Map<string, number[]>(MIX.map(s => [s.kind, []]))
const failures = new Map<string, number>()
const start = performance.now()
const measureFrom = start + warmupSeconds * 1000
const end = measureFrom + seconds * 1000

async function request (step: Step, c: number, i: number): Promise<void> {
  const t0 = performance.now()
  let failure: string | undefined
  try {
    const res = await fetch(base + step.path(c, i), { ...step.init?.(c, i), headers })
    await res.arrayBuffer()
    if (!res.ok) failure = `${step.kind} ${res.status}`
  } catch (err) {
    failure = `${step.kind} ${(err as Error).message}`
  }
  const t1 = performance.now()
  if (t0 < measureFrom || t1 > end) return
  times.get(step.kind)!.push(t1 - t0)
  if (failure !== undefined) failures.set(failure, (failures.get(failure) ?? 0) + 1)
}

async function client (c: number): Promise<void> {
  // Clients start at different steps of the cycle, so the mix is even at every moment.
  for (let i = c; performance.now() < end; i++) await request(MIX[i % MIX.length]!, c, i)
}

function pct (sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! * 100) / 100
}

await Promise.all(Array.from({ length: clients }, async (_, c) => { await client(c) }))
const all = [...times.values()].flat().sort((a, b) => a - b)
const kinds = Object.fromEntries([...times].map(([kind, t]) => {
  const sorted = t.sort((a, b) => a - b)
  return [kind, { requests: sorted.length, p50: pct(sorted, 0.5), p99: pct(sorted, 0.99) }]
}))
process.stdout.write(JSON.stringify({
  requests: all.length,
  perSecond: Math.round(all.length / seconds),
  failures: Object.fromEntries(failures),
  p50: pct(all, 0.5),
  p99: pct(all, 0.99),
  kinds
}) + '\n')
