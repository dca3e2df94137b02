import { recordChange, type Actor } from '../audit/recorder.ts'
import type { Principal } from '../auth/principal.ts'
import type { Permission } from '../auth/permissions.ts'
import { ZonalError } from '../errors/catalog.ts'
import { HEADER_NAME_MAX_LENGTH, isHeaderName } from '../forwards/urls.ts'
import type { AccountMembership, Store } from '../store/store.ts'

/** Custom header names one account may hold. */
export const CUSTOM_HEADERS_MAX = 100

/** The caller's membership of `accountName` with `permission`: 70002 when the caller is not a member, 403 without the permission. */
function accountFor (principal: Principal, accountName: string, permission: Permission): AccountMembership {
  const membership = principal.membership(accountName)
  if (membership === undefined) throw new ZonalError('ACCOUNT_NOT_FOUND')
  if (!principal.can(membership.accountId, permission)) throw new ZonalError('PERMISSION_DENIED', `${permission} the custom headers of the account ${membership.accountName}`)
  return membership
}

/**
 * `GET /accounts/{accountName}/customheaders`: the header names the account's advanced web
 * forwards may match (besides the standard ones, `forwards/urls.ts` STANDARD_HEADERS).
 *
 * @throws ZonalError ACCOUNT_NOT_FOUND (70002), PERMISSION_DENIED
 */
export async function listCustomHeaders (store: Store, principal: Principal, accountName: string): Promise<string[]> {
  return await store.webForwards.headers(accountFor(principal, accountName, 'read').accountId)
}

/**
 * `POST /accounts/{accountName}/customheaders` with `{names: [...]}`: add header names (HTTP
 * field names, compared without case), audited as CUSTOM_HEADER additions.
 *
 * @throws ZonalError ACCOUNT_NOT_FOUND, PERMISSION_DENIED, FIELD_REQUIRED (`names`),
 *   CUSTOM_HEADER_INVALID (not a list of header names, a name twice, over
 *   {@link CUSTOM_HEADERS_MAX}), CUSTOM_HEADER_EXISTS.
 */
export async function addCustomHeaders (store: Store, principal: Principal, actor: Actor, accountName: string, body: unknown): Promise<void> {
  const account = accountFor(principal, accountName, 'update')
  const names = (typeof body === 'object' && body !== null && !Array.isArray(body)) ? (body as { names?: unknown }).names : undefined
  if (names === undefined || names === null) throw new ZonalError('FIELD_REQUIRED', 'names')
  if (!Array.isArray(names) || names.length === 0) throw new ZonalError('CUSTOM_HEADER_INVALID', 'names must be a non-empty list of header names')
  if (names.length > CUSTOM_HEADERS_MAX) throw new ZonalError('CUSTOM_HEADER_INVALID', `names holds ${names.length} names; an account holds at most ${CUSTOM_HEADERS_MAX}`)
  const seen = new Set<string>()
  for (const [i, name] of names.entries()) {
    if (typeof name !== 'string' || !isHeaderName(name)) {
      throw new ZonalError('CUSTOM_HEADER_INVALID', `names[${i}] ${JSON.stringify(name)} is not an HTTP header name (RFC 9110 §5.1: letters, digits and !#$%&'*+-.^_\`|~, at most ${HEADER_NAME_MAX_LENGTH} characters)`)
    }
    if (seen.has(name.toLowerCase())) throw new ZonalError('CUSTOM_HEADER_INVALID', `names lists ${name} twice`)
    seen.add(name.toLowerCase())
  }
  await store.transaction(async (tx) => {
    const existing = await tx.webForwards.headers(account.accountId)
    const have = new Set(existing.map(h => h.toLowerCase()))
    const taken = (names as string[]).find(n => have.has(n.toLowerCase()))
    if (taken !== undefined) throw new ZonalError('CUSTOM_HEADER_EXISTS', taken, account.accountName)
    if (existing.length + names.length > CUSTOM_HEADERS_MAX) throw new ZonalError('CUSTOM_HEADER_INVALID', `the account would hold ${existing.length + names.length} custom headers; at most ${CUSTOM_HEADERS_MAX}`)
    await tx.webForwards.addHeaders(account.accountId, names as string[], new Date().toISOString())
    for (const name of names as string[]) {
      await recordChange(tx, actor, { accountId: account.accountId, accountName: account.accountName, objectType: 'CUSTOM_HEADER', changeType: 'ADD', object: name, changes: [{ name: 'name', to: name }] })
    }
  })
}

/**
 * `DELETE /accounts/{accountName}/customheaders/{headerName}` (any case). Forwards whose rules
 * name the header keep them (the forwarding server matches any header); a forward written again
 * must name headers the account still has.
 *
 * @throws ZonalError ACCOUNT_NOT_FOUND, PERMISSION_DENIED, CUSTOM_HEADER_NOT_FOUND (70001)
 */
export async function deleteCustomHeader (store: Store, principal: Principal, actor: Actor, accountName: string, headerName: string): Promise<void> {
  const account = accountFor(principal, accountName, 'update')
  await store.transaction(async (tx) => {
    const existing = (await tx.webForwards.headers(account.accountId)).find(h => h.toLowerCase() === headerName.toLowerCase())
    if (existing === undefined || !await tx.webForwards.deleteHeader(account.accountId, headerName)) throw new ZonalError('CUSTOM_HEADER_NOT_FOUND')
    await recordChange(tx, actor, { accountId: account.accountId, accountName: account.accountName, objectType: 'CUSTOM_HEADER', changeType: 'DELETE', object: existing, changes: [{ name: 'name', from: existing }] })
  })
}
