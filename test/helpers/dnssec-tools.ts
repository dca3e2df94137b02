/**
 * BIND and Knot DNSSEC tools for the signer's interop tests: key files in BIND's format, zone
 * files written by the project's writer, and the tools' verdicts. A missing tool fails the test
 * (CI installs bind9 and knot); these tests are never skipped.
 */
import { spawnSync } from 'node:child_process'
import { createPrivateKey, type KeyObject } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { nameToString, type WireName } from '../../src/zone/name.ts'
import { dnskeyRdata, type ZoneKey } from '../../src/zone/dnssec/keys.ts'
import { formatRdata } from '../../src/zone/rdata/index.ts'
import type { ZoneRecord } from '../../src/zone/record.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { writeZone } from '../../src/zonefile/writer.ts'

export interface ToolResult { status: number | null, stdout: string, stderr: string }

/**
 * Run a tool (no shell) and return its exit status and output.
 * @throws Error when the tool is not installed
 */
export function runTool (cmd: string, args: readonly string[], cwd?: string): ToolResult {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  if (r.error !== undefined) throw new Error(`${cmd} is required for this test and could not run (${r.error.message}); install bind9-utils / bind9-dnsutils and knot-dnsutils`)
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** A temporary directory, removed by the returned function. */
export function tempDir (prefix: string): { dir: string, remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** The `.key` file BIND writes for a key: one DNSKEY line at the zone's apex. */
export function bindKeyFileText (origin: WireName, key: Pick<ZoneKey, 'flags' | 'algorithm' | 'publicKey'>): string {
  return `${nameToString(origin)} IN DNSKEY ${formatRdata(RRType.DNSKEY, dnskeyRdata(key))}\n`
}

/** BIND's key file name `K<zone>+<alg>+<tag>` (without `.key`). */
export function bindKeyFileBase (origin: WireName, key: Pick<ZoneKey, 'algorithm' | 'keyTag'>): string {
  return `K${nameToString(origin)}+${String(key.algorithm).padStart(3, '0')}+${String(key.keyTag).padStart(5, '0')}`
}

/** Write a zone with the project's writer into `dir` and return the file's path. */
export function writeZoneFile (dir: string, origin: WireName, records: readonly ZoneRecord[], file = 'zone.db'): string {
  const path = join(dir, file)
  writeFileSync(path, writeZone(records, { origin, createdAt: new Date(0) }))
  return path
}

/** `dnssec-verify -o origin file` (BIND): exit 0 when every signature and the chain are right. */
export function dnssecVerify (origin: WireName, path: string): ToolResult {
  return runTool('dnssec-verify', ['-o', nameToString(origin), path])
}

/** `kzonecheck --dnssec on -o origin file` (Knot): exit 0 when the zone and its DNSSEC pass. */
export function kzonecheck (origin: WireName, path: string): ToolResult {
  return runTool('kzonecheck', ['--dnssec', 'on', '-o', nameToString(origin), path])
}

/** RFC 6605 §6.1: the P-256 private key of the example (a raw scalar, as BIND's PrivateKey). */
export function rfc6605Key (): KeyObject {
  const d = Buffer.from('GU6SnQ/Ou+xC5RumuIUIuJZteXT2z0O/ok1s38Et6mQ=', 'base64')
  // SEC 1 ECPrivateKey without the public point: version 1, the scalar, the P-256 OID.
  const der = Buffer.concat([Buffer.from('30310201010420', 'hex'), d, Buffer.from('a00a06082a8648ce3d030107', 'hex')])
  return createPrivateKey({ key: der, format: 'der', type: 'sec1' })
}

/** RFC 8080 §6.1: the Ed25519 private key of the example (a 32-octet seed) as PKCS#8. */
export function rfc8080Pkcs8 (): Uint8Array {
  const seed = Buffer.from('ODIyNjAzODQ2MjgwODAxMjI2NDUxOTAyMDQxNDIyNjI=', 'base64')
  return new Uint8Array(Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]))
}
