import { X509Certificate, createPrivateKey } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { createSecureContext, type SecureContext } from 'node:tls'

/**
 * The forwarding server's TLS certificates, read from one folder, each served for the names it
 * holds (its subject alternative names, else its common name), wildcards included. Two layouts
 * are read, side by side:
 *
 * - `<folder>/<any name>.crt` with `<folder>/<any name>.key` (PEM; the .crt may hold the chain);
 * - `<folder>/<any name>/fullchain.pem` with `privkey.pem` beside it (certbot's `live/` folder,
 *   so `ZONAL_FORWARD_CERT_DIR=/etc/letsencrypt/live` serves every certificate certbot keeps).
 *
 * The file names do not matter: the names come from the certificates.
 */

export interface CertificateLog {
  warn (obj: object, msg: string): void
}

export interface LoadedCertificates {
  /** Lower-case name (`www.example.com`, `*.example.com`) → the context to answer it with. */
  contexts: Map<string, SecureContext>
  /** The pairs read (certificate file paths). */
  files: string[]
}

interface Pair { cert: string, key: string }

function pairsIn (dir: string): Pair[] {
  const pairs: Pair[] = []
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    let isDir: boolean
    try {
      isDir = statSync(path).isDirectory()
    } catch {
      continue
    }
    if (isDir) {
      const cert = join(path, 'fullchain.pem')
      const key = join(path, 'privkey.pem')
      if (existsSync(cert) && existsSync(key)) pairs.push({ cert, key })
    } else if (name.endsWith('.crt')) {
      const key = join(dir, `${name.slice(0, -4)}.key`)
      if (existsSync(key)) pairs.push({ cert: path, key })
    }
  }
  return pairs
}

/** The DNS names a certificate is for: its subject alternative names, else its CN. */
export function certificateNames (cert: X509Certificate): string[] {
  const names: string[] = []
  for (const part of (cert.subjectAltName ?? '').split(', ')) {
    if (part.startsWith('DNS:')) names.push(part.slice(4).toLowerCase())
  }
  if (names.length === 0) {
    const cn = /^CN=(.+)$/m.exec(cert.subject)?.[1]
    if (cn !== undefined) names.push(cn.toLowerCase())
  }
  return names
}

/**
 * Reads every certificate and key pair of `dir` (see the layouts above). A pair that cannot be
 * read, whose key is not the certificate's, or that has expired is left out and logged. When
 * two certificates hold one name, the one valid the longest wins.
 */
export function loadCertificates (dir: string, log?: CertificateLog): LoadedCertificates {
  const contexts = new Map<string, SecureContext>()
  const until = new Map<string, number>()
  const files: string[] = []
  for (const pair of pairsIn(dir)) {
    try {
      const certPem = readFileSync(pair.cert)
      const keyPem = readFileSync(pair.key)
      const cert = new X509Certificate(certPem)
      if (!cert.checkPrivateKey(createPrivateKey(keyPem))) {
        log?.warn({ cert: pair.cert, key: pair.key }, 'web forwards: the key is not the certificate\'s; left out')
        continue
      }
      const validTo = Date.parse(cert.validTo)
      if (validTo < Date.now()) {
        log?.warn({ cert: pair.cert, validTo: cert.validTo }, 'web forwards: the certificate has expired; left out')
        continue
      }
      const context = createSecureContext({ cert: certPem, key: keyPem })
      for (const name of certificateNames(cert)) {
        if ((until.get(name) ?? -Infinity) >= validTo) continue
        contexts.set(name, context)
        until.set(name, validTo)
      }
      files.push(pair.cert)
    } catch (err) {
      log?.warn({ err, cert: pair.cert }, 'web forwards: the certificate could not be read; left out')
    }
  }
  return { contexts, files }
}

/**
 * The context for a TLS server name: the certificate for the name itself, else one for
 * `*.<parent>` (a wildcard covers one label, RFC 6125 §6.4.3).
 */
export function contextFor (contexts: ReadonlyMap<string, SecureContext>, serverName: string): SecureContext | undefined {
  const name = serverName.toLowerCase()
  const exact = contexts.get(name)
  if (exact !== undefined) return exact
  const dot = name.indexOf('.')
  return dot > 0 ? contexts.get(`*${name.slice(dot)}`) : undefined
}
