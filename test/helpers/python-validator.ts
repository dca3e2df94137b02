import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { BIND_REQUIRED } from './named.ts'
import { runProcess } from './process.ts'
import { PYTHON } from './python-clients.ts'

/**
 * An independent DNSSEC validator (dnspython on Debian's Python, `test/serving/fixtures/
 * dnssec_validate.py`) that asks the service over DNS and validates its answers at a time the
 * test gives: what a resolver would conclude at a moment of a test clock, without faking the
 * system's time. Without Python, dnspython or cryptography the tests skip with a visible line,
 * except in CI (`CI=true`) or with `ZONAL_TEST_REQUIRE_BIND=1`, where they fail.
 */
const SCRIPT = fileURLToPath(new URL('../serving/fixtures/dnssec_validate.py', import.meta.url))

/**
 * False when `python3` imports dnspython's DNSSEC module with `cryptography`, else why to skip.
 * @throws Error when they are missing and interop tools are required (CI)
 */
export function pythonValidatorSkip (): string | false {
  const r = spawnSync(PYTHON, ['-c', 'import dns.dnssec, cryptography'], { encoding: 'utf8' })
  if (r.status === 0) return false
  const reason = `${PYTHON} with dnspython and cryptography not available (python3-dnspython, python3-cryptography)`
  if (BIND_REQUIRED) throw new Error(`the DNSSEC validator is required here but ${reason}`)
  console.log(`# DNSSEC validator SKIPPED: ${reason}`)
  return reason
}

export interface ValidationRequest {
  port: number
  zone: string
  /** The trust anchor: DS rdata in presentation form ("tag alg digestType HEX"). */
  ds: string[]
  /** The time of validation, as a `Date`. */
  now: Date
  /** Names and types whose answers must validate (the apex SOA always is). */
  positive?: Array<[string, string]>
  /** Names whose NXDOMAIN proof must validate. */
  nxdomain?: string[]
  /** Answers of an earlier step (a resolver's cache), to validate with today's DNSKEY rrset. */
  cached?: CachedAnswer[]
}

export interface CachedAnswer { rrset: string, rrsig: string }

export interface ValidationResult {
  ok: boolean
  errors: string[]
  /** The key tags of the DNSKEY rrset served. */
  dnskeyTags: number[]
  /** The key tags signing each positive answer, by "name TYPE". */
  signers: Record<string, number[]>
  answers: CachedAnswer[]
}

/** Validate the service's answers as {@link ValidationRequest} says. */
export async function validateServed (req: ValidationRequest): Promise<ValidationResult> {
  const input = JSON.stringify({ ...req, now: Math.floor(req.now.getTime() / 1000) })
  const r = await runProcess(PYTHON, [SCRIPT], { input })
  if (r.code !== 0) throw new Error(`the validator failed (${r.code}): ${r.stderr}`)
  return JSON.parse(r.stdout) as ValidationResult
}
