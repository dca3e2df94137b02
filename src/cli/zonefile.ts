import { createReadStream, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { SingleBar } from 'cli-progress'
import { normalizeZone } from '../zone/checks/index.ts'
import { NameError, parseName, type WireName } from '../zone/name.ts'
import type { ZoneProblem, ZoneRecord } from '../zone/record.ts'
import { leadingOrigin } from '../zonefile/origin.ts'
import { parseZoneStream } from '../zonefile/parser.ts'
import { writeZoneChunks } from '../zonefile/writer.ts'
import { AdminInputError } from '../auth/user-admin.ts'

/**
 * The zone's name: `--origin` (the trailing dot optional), else the absolute `$ORIGIN` before
 * the file's first record.
 *
 * @throws AdminInputError when neither gives a valid name
 */
async function zoneOrigin (file: string, originText: string | undefined): Promise<WireName> {
  let text = originText
  let from = '--origin'
  if (text === undefined) {
    const input = createReadStream(file, { encoding: 'utf8' })
    const lines = createInterface({ input, crlfDelay: Infinity })
    try {
      text = await leadingOrigin(lines)
    } finally {
      lines.close()
      input.destroy()
    }
    if (text === undefined) throw new AdminInputError(`${file} has no $ORIGIN before its first record: give the zone name with --origin`)
    if (!/(^|[^\\])(\\\\)*\.$/.test(text)) throw new AdminInputError(`${file}: the $ORIGIN before the first record ("${text}") must be absolute (end with a dot), or give the zone name with --origin`)
    from = '$ORIGIN'
  }
  try {
    return parseName(text.endsWith('.') ? text : text + '.')
  } catch (err) {
    if (err instanceof NameError) throw new AdminInputError(`invalid ${from} "${text}": ${err.message}`)
    throw err
  }
}

/** Read and check a zone file from the CLI: `$INCLUDE` allowed within the file's folder, progress on a terminal. */
async function readZone (file: string, originText: string | undefined): Promise<{ origin: WireName, records: ZoneRecord[], problems: ZoneProblem[] }> {
  let size: number
  try {
    size = statSync(file).size
  } catch {
    throw new AdminInputError(`cannot read ${file}`)
  }
  const origin = await zoneOrigin(file, originText)
  const bar = process.stderr.isTTY === true && size > 1 << 20
    ? new SingleBar({ format: 'parsing [{bar}] {percentage}% | {records} records', stream: process.stderr, hideCursor: true })
    : undefined
  const records: ZoneRecord[] = []
  const problems: ZoneProblem[] = []
  const input = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 16 })
  let read = 0
  bar?.start(size, 0, { records: 0 })
  input.on('data', (chunk) => {
    read += Buffer.byteLength(chunk as string)
    bar?.update(read, { records: records.length })
  })
  try {
    await parseZoneStream(input, { origin, file, includes: { root: dirname(resolve(file)) } }, r => records.push(r), p => problems.push(p))
  } finally {
    bar?.stop()
  }
  const checked = normalizeZone(records, origin)
  return { origin, records: checked.records, problems: [...problems, ...checked.problems] }
}

function printProblems (file: string, problems: readonly ZoneProblem[]): void {
  for (const p of problems) {
    process.stderr.write(`${p.file ?? file}:${p.line ?? '-'}: ${p.severity} ${p.code}: ${p.message}\n`)
  }
}

/** `zonal zonefile check FILE [--origin NAME]`: every problem; exit 1 when any is an error. */
export async function checkCommand (file: string, originText: string | undefined): Promise<void> {
  const { records, problems } = await readZone(file, originText)
  printProblems(file, problems)
  const errors = problems.filter(p => p.severity === 'error').length
  process.stdout.write(`${file}: ${records.length} records, ${errors} error(s), ${problems.length - errors} warning(s)\n`)
  if (errors > 0) process.exitCode = 1
}

/** `zonal zonefile format FILE [--origin NAME]`: canonical BIND text on stdout; exit 1 on errors. */
export async function formatCommand (file: string, originText: string | undefined): Promise<void> {
  const { origin, records, problems } = await readZone(file, originText)
  printProblems(file, problems)
  if (problems.some(p => p.severity === 'error')) {
    process.exitCode = 1
    return
  }
  for (const chunk of writeZoneChunks(records, { origin, createdAt: new Date(), sorted: true })) {
    if (!process.stdout.write(chunk)) await new Promise<void>(resolve => process.stdout.once('drain', resolve))
  }
}
