import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { parseDatabaseUrl, type DatabaseLocation } from '../../src/store/engine.ts'

type PostgresLocation = Extract<DatabaseLocation, { engine: 'postgres' }>

/** Shared pieces of the in-process store benchmarks (zone list, audit log). */

export function median (values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/** A connected client on a PostgreSQL location, in its schema when it has one. */
export async function pgClient (location: PostgresLocation): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: location.connectionString, options: location.schema === undefined ? undefined : `-c search_path=${location.schema}` })
  await client.connect()
  return client
}

/** PostgreSQL: gather planner statistics, as autovacuum does shortly after a bulk load. */
export async function analyze (url: string): Promise<void> {
  const location = parseDatabaseUrl(url)
  if (location.engine !== 'postgres') return
  const client = await pgClient(location)
  try {
    await client.query('analyze')
  } finally {
    await client.end()
  }
}

/** Log in through the token endpoint; returns the access token. */
export async function loginToken (app: FastifyInstance, username: string, password: string): Promise<string> {
  const login = await app.inject({
    method: 'POST',
    url: '/authorization/token',
    payload: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' }
  })
  return (login.json() as { accessToken: string }).accessToken
}
