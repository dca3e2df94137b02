// Child process of the zone-file benchmark: parse + validate + write one zone file, report phases.
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { normalizeZone } from '../../src/zone/checks/index.ts'
import { parseName } from '../../src/zone/name.ts'
import { parseZoneFile } from '../../src/zonefile/parser.ts'
import { writeZoneChunks } from '../../src/zonefile/writer.ts'

const [file, originText, outFile] = process.argv.slice(2) as [string, string, string | undefined]
const origin = parseName(originText)
const t0 = performance.now()
const parsed = await parseZoneFile(file, { origin, file, includes: 'refuse' })
const t1 = performance.now()
const { records, problems } = normalizeZone(parsed.records, origin)
const t2 = performance.now()
// Without an output file, only parse and check (the work named-checkzone and kzonecheck do).
if (outFile !== undefined) {
  const out = createWriteStream(outFile)
  for (const chunk of writeZoneChunks(records, { origin, createdAt: new Date(), sorted: true })) {
    if (!out.write(chunk)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
}
const t3 = performance.now()
process.stdout.write(JSON.stringify({
  records: parsed.records.length,
  parseProblems: parsed.problems.length,
  checkProblems: problems.filter(p => p.severity === 'error').length,
  parseMs: Math.round(t1 - t0),
  checkMs: Math.round(t2 - t1),
  writeMs: Math.round(t3 - t2),
  maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024)
}) + '\n')
