// Child process of the latency benchmark: API clients running a mixed load on Zonal's REST API.
//
//   api-load.ts <base URL> <token> <clients> <seconds> <read zone> <read names> <write zones…>
//
// Each of <clients> concurrent clients repeats, one request at a time, a cycle of: a zone list
// page (GET /v3/zones?limit=100), a read of one A rrset of <read zone> (h0..h<read names-1>), and
// a write (PUT of the client's own A rrset in one of the write zones, a new address each time),
// for <seconds>. Prints one JSON line: requests done, per second, failures (not 2xx), and the
// request latency p50/p99 in ms.
const [base, token, clientsArg, secondsArg, readZone, namesArg, ...writeZones] = process.argv.slice(2)
const clients = Number(clientsArg)
const seconds = Number(secondsArg)
const names = Number(namesArg)
if (base === undefined || token === undefined || !(clients > 0) || !(seconds > 0) || readZone === undefined || !(names > 0) || writeZones.length === 0) {
  process.stderr.write('usage: api-load.ts <base URL> <token> <clients> <seconds> <read zone> <read names> <write zones…>\n')
  process.exit(2)
}
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
const times: number[] = []
const failures = new Map<string, number>()
let done = 0
const end = performance.now() + seconds * 1000

async function request (kind: string, path: string, init: RequestInit = {}): Promise<void> {
  const t0 = performance.now()
  try {
    const res = await fetch(base + path, { ...init, headers })
    await res.arrayBuffer()
    if (!res.ok) failures.set(`${kind} ${res.status}`, (failures.get(`${kind} ${res.status}`) ?? 0) + 1)
  } catch (err) {
    failures.set(`${kind} ${(err as Error).message}`, (failures.get(`${kind} ${(err as Error).message}`) ?? 0) + 1)
  }
  times.push(performance.now() - t0)
  done++
}

async function client (c: number): Promise<void> {
  const zone = writeZones[c % writeZones.length]!
  for (let i = 0; performance.now() < end; i++) {
    switch (i % 3) {
      case 0: await request('list', '/v3/zones?limit=100'); break
      case 1: await request('read', `/zones/${readZone}/rrsets/A/h${(c * 131 + i) % names}`); break
      default: await request('write', `/zones/${zone}/rrsets/A/c${c}`, { method: 'PUT', body: JSON.stringify({ ttl: 300, rdata: [`10.1.${c & 255}.${i & 255}`] }) })
    }
  }
}

const t0 = performance.now()
await Promise.all(Array.from({ length: clients }, async (_, c) => { await client(c) }))
const elapsed = (performance.now() - t0) / 1000
const sorted = times.sort((a, b) => a - b)
const pct = (p: number): number => sorted.length === 0 ? NaN : Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! * 10) / 10
process.stdout.write(JSON.stringify({ requests: done, perSecond: Math.round(done / elapsed), failures: Object.fromEntries(failures), p50: pct(0.5), p99: pct(0.99) }) + '\n')
