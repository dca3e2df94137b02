/**
 * Groups and what they may do: the one permission table of the service.
 *
 * The spec names the permissions (read, write, create, delete, export, unalias, update on zones;
 * suspend only for Owner, Administrators and DNSAdministrators). The read-only group may read and
 * export (an export is a read of the zone data) and nothing else.
 */
export const GROUPS = ['Owner', 'Administrators', 'DNSAdministrators', 'ReadOnly'] as const
export type Group = typeof GROUPS[number]

export const PERMISSIONS = ['read', 'write', 'create', 'delete', 'export', 'unalias', 'update', 'suspend'] as const
export type Permission = typeof PERMISSIONS[number]

const ALL: readonly Permission[] = PERMISSIONS

export const PERMISSION_TABLE: Readonly<Record<Group, readonly Permission[]>> = {
  Owner: ALL,
  Administrators: ALL,
  DNSAdministrators: ALL,
  ReadOnly: ['read', 'export']
}

/** Whether members of `group` have `permission`. Unknown groups have none. */
export function groupAllows (group: string, permission: Permission): boolean {
  return (PERMISSION_TABLE as Record<string, readonly Permission[] | undefined>)[group]?.includes(permission) ?? false
}

/** The canonical spelling of a group name given in any case (and `read-only` for ReadOnly), or undefined. */
export function normalizeGroup (name: string): Group | undefined {
  const key = name.toLowerCase().replace(/[\s_-]/g, '')
  return GROUPS.find(g => g.toLowerCase() === key)
}
