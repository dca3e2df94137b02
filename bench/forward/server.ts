// One server of the forward benchmark, in its own process: `node bench/forward/server.ts zonal|fastify <hosts>`.
// Both answer every request for h<i>.forward.bench with a 301 to https://target<i>.example.net/base
// followed by the request's path and query (Zonal: a forward with relative mode PARAMETER_AND_PATH
// in a ForwardTable of <hosts> forwards; Fastify: a catch-all route reading the target from a Map
// by host and calling reply.redirect). Prints the port once listening; exits on SIGTERM.
import Fastify from 'fastify'
import type { WebForward } from '../../src/forwards/model.ts'
import { ForwardTable } from '../../src/forwards/table.ts'
import { startForwardServer } from '../../src/serving/forward-server.ts'

const kind = process.argv[2]
const hosts = Number(process.argv[3] ?? 10_000)
const host = (i: number): string => `h${i}.forward.bench`
const target = (i: number): string => `https://target${i}.example.net/base`

let close: () => Promise<void>
if (kind === 'zonal') {
  const table = new ForwardTable()
  const forwards: WebForward[] = Array.from({ length: hosts }, (_, i) => ({
    id: String(i), zone: 'forward.bench.', host: host(i), path: '', anchor: '', redirectTo: target(i), mode: 301, relative: 'parameterAndPath', alternatives: []
  }))
  table.setZone('forward.bench.', forwards)
  const server = await startForwardServer({ table, host: '127.0.0.1', port: 0 })
  process.stdout.write(`${server.httpPort}\n`)
  close = server.close
} else if (kind === 'fastify') {
  const targets = new Map<string, string>()
  for (let i = 0; i < hosts; i++) targets.set(host(i), target(i))
  const app = Fastify({ logger: false })
  app.all('/*', (req, reply) => {
    const t = targets.get(req.hostname)
    if (t === undefined) return reply.code(404).send()
    return reply.redirect(t + req.url, 301)
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  process.stdout.write(`${(app.server.address() as import('node:net').AddressInfo).port}\n`)
  close = async () => { await app.close() }
} else {
  throw new Error('usage: server.ts zonal|fastify <hosts>')
}
process.on('SIGTERM', () => { close().then(() => process.exit(0), () => process.exit(1)) })
