/**
 * A report version (a check's or a scan's start time, stored as ISO 8601 UTC with milliseconds)
 * in the spec's shape `YYYY-MM-DD-HH24:MI:SS.nnnZ`: `2026-11-26-08:42:22.123Z`. The health check
 * and dangling DNS reports show it so; paths take it in that shape or with the ISO `T`.
 */
export function versionOf (iso: string): string {
  return `${iso.slice(0, 10)}-${iso.slice(11, 23)}Z`
}
