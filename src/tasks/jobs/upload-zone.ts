import { Principal } from '../../auth/principal.ts'
import { SecretBox } from '../../auth/secrets.ts'
import { ZonalError } from '../../errors/catalog.ts'
import { createZone } from '../../zones/create.ts'
import type { ZoneLimits } from '../../zones/limits.ts'
import type { TaskHandler } from '../runner.ts'

/** The task kind of a zone upload too large to parse within the request. */
export const UPLOAD_ZONE = 'upload-zone'

/** Input of an upload task: who asked, the Zone Create DTO and the BIND text. */
export interface UploadZonePayload {
  userId: string
  ipAddress: string | null
  body: unknown
  file: string
}

export interface UploadSettings {
  nameservers: readonly string[]
  secretKey?: string
  /** Zone size limits (the defaults when not given). */
  limits?: ZoneLimits
  /** Where web-forwarded hosts point (`ZONAL_FORWARD_ADDRESSES`), for the records a restore writes again. */
  forwardAddresses?: readonly string[]
}

/**
 * Create a zone from an uploaded BIND file in the background, with the same rules as the
 * synchronous create (`createZone`): the whole zone is written in one transaction, so a failed
 * upload leaves no partial zone, and the task's ERROR message lists the problems.
 */
export function uploadZoneJob (settings: UploadSettings): TaskHandler {
  const secrets = new SecretBox(settings.secretKey)
  return async (ctx) => {
    const p = ctx.payload as Partial<UploadZonePayload> | undefined
    if (p?.userId === undefined || typeof p.file !== 'string') throw new ZonalError('INVALID_INPUT', 'upload task without its data')
    const user = await ctx.store.users.findById(p.userId)
    if (user === undefined || user.status !== 'ACTIVE') throw new ZonalError('PERMISSION_DENIED', 'create zones: the user who uploaded is no longer active')
    const principal = new Principal(user.id, user.username, await ctx.store.users.memberships(user.id))
    await ctx.reportProgress(`Parsing and checking ${p.file.length} characters of zone file`, 0.1)
    try {
      const zone = await createZone(
        { store: ctx.store, nameservers: settings.nameservers, secrets, clock: () => new Date(), ...(settings.limits === undefined ? {} : { limits: settings.limits }) },
        { principal, actor: { user: user.username, ipAddress: p.ipAddress ?? null } },
        p.body,
        p.file
      )
      return { message: `Zone ${zone.name} created with ${zone.record_count} records.` }
    } catch (err) {
      // Every problem of the file, not only the first, in the task message.
      if (err instanceof ZonalError && err.details !== undefined) err.message = err.details.join('; ')
      throw err
    }
  }
}
