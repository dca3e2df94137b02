import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { extname, join, relative, sep } from 'node:path'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { ZonalError } from '../../../errors/catalog.ts'

/** Where `npm install` and `npm start` build the console (scripts/build-console.mjs). */
export const DEFAULT_CONSOLE_DIR = new URL('../../../../dist/console', import.meta.url).pathname

/**
 * The console page's Content-Security-Policy: its own scripts, styles and API only; no inline
 * script or style, no plugins, no framing, no `<base>`.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'"
].join('; ')

/** Files under assets/ carry a content hash in their names: cached for a year, never revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8'
}

interface ConsoleFile {
  body: Buffer
  type: string
  etag: string
  cache: string
}

/**
 * Every file of the built console by its path under /console/ (dot files left out), read once;
 * empty when there is no build, or when one is being replaced while it is read (a build empties
 * the folder first): the console then answers 503 until the service starts again.
 */
export function loadConsoleFiles (dir: string): Map<string, ConsoleFile> {
  try {
    return readConsoleFiles(dir)
  } catch {
    return new Map()
  }
}

function readConsoleFiles (dir: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>()
  if (!existsSync(join(dir, 'index.html'))) return files
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) {
        const body = readFileSync(path)
        const key = relative(dir, path).split(sep).join('/')
        files.set(key, {
          body,
          type: TYPES[extname(entry.name).toLowerCase()] ?? 'application/octet-stream',
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
          cache: key.startsWith('assets/') ? IMMUTABLE : 'no-cache'
        })
      }
    }
  }
  walk(dir)
  return files
}

/**
 * The web console at /console/ (its built files, read at start) and `/` redirecting to it. The
 * console is a client of the public API like any script: these routes serve files only and
 * need no token. A path under /console/assets/ that is not a file is 404; any other path under
 * /console/ is the console's own page (index.html), whose script shows the page the path names.
 */
export const consoleRoutes: FastifyPluginAsync<{ dir?: string }> = async (app, options) => {
  const dir = options.dir ?? DEFAULT_CONSOLE_DIR
  const files = loadConsoleFiles(dir)
  const index = files.get('index.html')
  if (index === undefined) app.log.warn({ dir }, 'the web console is not built (npm run build:console): /console/ answers 503')

  const send = async (request: FastifyRequest, reply: FastifyReply, file: ConsoleFile): Promise<FastifyReply> => {
    reply
      .header('content-security-policy', CONSOLE_CSP)
      .header('cache-control', file.cache)
      .header('etag', file.etag)
    if (request.headers['if-none-match'] === file.etag) return await reply.code(304).send()
    return await reply.type(file.type).send(file.body)
  }

  // The page and the redirect are in the OpenAPI document (as /docs is); the files are not.
  const config = { public: true }
  app.get('/', {
    config,
    schema: { tags: ['system'], operationId: 'getRoot', summary: 'Redirects (302) to the web console, /console/' }
  }, async (_request, reply) => await reply.redirect('/console/', 302))

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const rest = (request.params as { '*'?: string })['*'] ?? ''
    const file = files.get(rest)
    if (file !== undefined && rest !== 'index.html') return await send(request, reply, file)
    if (rest === 'assets' || rest.startsWith('assets/')) throw new ZonalError('ROUTE_NOT_FOUND')
    if (index === undefined) {
      return await reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8')
        .send('The web console is not built. Run `npm run build:console` (npm install and npm start build it), then restart the service.\n')
    }
    return await send(request, reply, index)
  }
  app.get('/console', {
    config,
    schema: { tags: ['system'], operationId: 'getConsole', summary: 'The web console (HTML; its pages are under /console/)' }
  }, handler)
  app.get('/console/*', { config, schema: { hide: true } }, handler)
}
