import type { ZoneTable } from '../schema.ts'
import type { AuditDetail, ZoneSettingsColumn } from '../store.ts'
import type { PoolProfile } from '../../zone/pools/profile.ts'
import { EMPTY_SETTINGS, type AddressRange, type NotifyTarget, type PrimaryServer, type RegistrarInfo, type TransferState, type ZoneSettings, type ZoneTsigKey } from '../../zone/settings.ts'

/**
 * The one place stored JSON is written and read (migrations aside): zone settings, pool profiles,
 * rdata text lists and audit details. Each JSON column holds the service's own type as it is (migration 0008
 * converted the UltraDNS-spelled JSON of earlier versions); flags are integers 0 and 1.
 */

type SettingsColumns = Pick<ZoneTable, ZoneSettingsColumn>

function json<T> (text: string | null, fallback: T): T {
  return text === null ? fallback : JSON.parse(text) as T
}

/**
 * `zones.name_reversed`: a zone name with its characters in reverse order (by code point, as
 * PostgreSQL's `reverse`), so the zones below a name are one index range (`example.org.` →
 * `.gro.elpmaxe`; every zone below it starts with `.gro.elpmaxe.`).
 */
export function reversedName (name: string): string {
  return [...name].reverse().join('')
}

const flag = (v: number): boolean => Number(v) === 1
const bit = (v: boolean): number => v ? 1 : 0
const orNull = (v: object | null): string | null => v === null ? null : JSON.stringify(v)

/** The settings of a zone row. */
export function decodeSettings (row: SettingsColumns): ZoneSettings {
  return {
    restrictList: json<AddressRange[]>(row.restrict_ip_list, []),
    tsig: json<ZoneTsigKey | null>(row.tsig, null),
    notify: json<NotifyTarget[]>(row.notify_addresses, []),
    primaries: json<PrimaryServer[]>(row.primary_name_servers, []),
    transfer: json<TransferState | null>(row.transfer_status, null),
    registrar: json<RegistrarInfo | null>(row.registrar_info, null),
    notificationEmail: row.notification_email,
    inherit: row.inherit,
    mailMonitor: flag(row.mail_monitor),
    certEnabled: flag(row.cert_enabled),
    valimailMonitor: flag(row.valimail_monitor)
  }
}

/** The columns of the settings given (the others are left out, so an update keeps them). */
export function encodeSettings (settings: Partial<ZoneSettings>): Partial<SettingsColumns> {
  const out: Partial<SettingsColumns> = {}
  const s = settings
  if (s.restrictList !== undefined) out.restrict_ip_list = JSON.stringify(s.restrictList)
  if (s.tsig !== undefined) out.tsig = orNull(s.tsig)
  if (s.notify !== undefined) out.notify_addresses = JSON.stringify(s.notify)
  if (s.primaries !== undefined) out.primary_name_servers = JSON.stringify(s.primaries)
  if (s.transfer !== undefined) out.transfer_status = orNull(s.transfer)
  if (s.registrar !== undefined) out.registrar_info = orNull(s.registrar)
  if (s.notificationEmail !== undefined) out.notification_email = s.notificationEmail
  if (s.inherit !== undefined) out.inherit = s.inherit
  if (s.mailMonitor !== undefined) out.mail_monitor = bit(s.mailMonitor)
  if (s.certEnabled !== undefined) out.cert_enabled = bit(s.certEnabled)
  if (s.valimailMonitor !== undefined) out.valimail_monitor = bit(s.valimailMonitor)
  return out
}

/** Every settings column of a new zone. */
export function newSettingsColumns (settings: Partial<ZoneSettings> = {}): SettingsColumns {
  return encodeSettings({ ...EMPTY_SETTINGS, ...settings }) as SettingsColumns
}

/**
 * A zone row with its settings decoded; other columns (such as a joined `account_name`) are
 * kept as they are.
 */
export function decodeZone<R extends SettingsColumns> (row: R): Omit<R, ZoneSettingsColumn> & { settings: ZoneSettings } {
  const {
    restrict_ip_list: _r, tsig: _t, notify_addresses: _n, primary_name_servers: _p, transfer_status: _s, registrar_info: _i,
    notification_email: _e, inherit: _h, mail_monitor: _m, cert_enabled: _c, valimail_monitor: _v, ...rest
  } = row
  return { ...rest, settings: decodeSettings(row) }
}

export function encodeProfile (profile: PoolProfile | null): string | null {
  return profile === null ? null : JSON.stringify(profile)
}

export function decodeProfile (text: string | null): PoolProfile | null {
  return text === null ? null : JSON.parse(text) as PoolProfile
}

/** An audit record's detail, with both lists always present. */
export function encodeAuditDetail (detail: AuditDetail | undefined): string {
  return JSON.stringify({ changes: detail?.changes ?? [], others: detail?.others ?? [] })
}

export function decodeAuditDetail (text: string): AuditDetail {
  return JSON.parse(text) as AuditDetail
}

/** The presentation rdata of an rrset (a JSON list of strings). */
export function encodeTextList (texts: readonly string[]): string {
  return JSON.stringify(texts)
}

export function decodeTextList (text: string): string[] {
  return JSON.parse(text) as string[]
}
