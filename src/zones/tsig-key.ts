import type { SecretBox } from '../auth/secrets.ts'
import type { TsigKey } from '../dns/wire/tsig.ts'
import { parseName } from '../zone/name.ts'
import type { TsigKeySpec } from '../zone/settings.ts'

/**
 * The TSIG key the DNS code signs and verifies with (`dns/wire/tsig.ts`), from a stored key: the
 * one place a sealed TSIG secret is opened for DNS (transfers out, transfers in, createType
 * TRANSFER).
 *
 * @throws Error when the secret is sealed and cannot be opened (`ZONAL_SECRET_KEY` unset or changed).
 */
export function tsigKeyOf (spec: TsigKeySpec, secrets: SecretBox): TsigKey {
  return { name: parseName(spec.name), algorithm: spec.algorithm, secret: new Uint8Array(Buffer.from(secrets.open(spec.secret), 'base64')) }
}
