import { realpathSync, statSync } from 'node:fs'
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'
import type { ZoneFileProblemCode } from './problems.ts'

/** Where an `$INCLUDE` leads: the path as resolved, and its real path (symlinks followed). */
export interface IncludeTarget {
  path: string
  real: string
}

/** Why an `$INCLUDE` cannot be followed. */
export interface IncludeRefusal {
  code: ZoneFileProblemCode
  detail: string
}

/** Whether `p` is strictly below the folder `root` (both absolute). */
function inside (root: string, p: string): boolean {
  const rel = relative(root, p)
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel)
}

/**
 * Resolve the file name of an `$INCLUDE` (RFC 1035 §5.1) and confine it to `root`.
 *
 * A relative name is taken from the including file's folder (from `root` when the text has no
 * file). It must stay inside `root` both as written (no `..` escape, no absolute path elsewhere)
 * and after symbolic links are followed (`realpath`), so a link cannot lead out either. The
 * check as written comes first, so nothing is revealed about files outside `root`.
 *
 * @param name - the file name as written in the directive (escapes already removed)
 * @param fromFile - the including file, or undefined for text that is not a file
 * @param root - the folder includes are confined to
 * @param open - real paths of the files being read (the including chain), for loop detection
 * @returns the target, or a refusal with ZONEFILE_INCLUDE_OUTSIDE_ROOT,
 *   ZONEFILE_INCLUDE_NOT_FOUND or ZONEFILE_INCLUDE_LOOP
 */
export function resolveInclude (name: string, fromFile: string | undefined, root: string, open: readonly string[]): IncludeTarget | IncludeRefusal {
  const rootPath = resolve(root)
  let rootReal: string
  try {
    rootReal = realpathSync(rootPath)
  } catch {
    return { code: 'ZONEFILE_INCLUDE_NOT_FOUND', detail: `the include folder "${root}" does not exist` }
  }
  if (name === '') return { code: 'ZONEFILE_INCLUDE_NOT_FOUND', detail: 'empty file name' }
  const base = fromFile !== undefined ? dirname(resolve(fromFile)) : rootPath
  const path = resolve(base, name)
  if (!inside(rootPath, path) && !inside(rootReal, path)) {
    return { code: 'ZONEFILE_INCLUDE_OUTSIDE_ROOT', detail: `"${name}" is outside the include folder` }
  }
  let real: string
  try {
    real = realpathSync(path)
  } catch {
    return { code: 'ZONEFILE_INCLUDE_NOT_FOUND', detail: `"${name}" does not exist` }
  }
  if (!inside(rootReal, real)) {
    return { code: 'ZONEFILE_INCLUDE_OUTSIDE_ROOT', detail: `"${name}" leads outside the include folder through a symbolic link` }
  }
  if (open.includes(real)) return { code: 'ZONEFILE_INCLUDE_LOOP', detail: `"${name}" is already being read` }
  try {
    if (!statSync(real).isFile()) return { code: 'ZONEFILE_INCLUDE_NOT_FOUND', detail: `"${name}" is not a regular file` }
  } catch {
    return { code: 'ZONEFILE_INCLUDE_NOT_FOUND', detail: `"${name}" cannot be read` }
  }
  return { path, real }
}
