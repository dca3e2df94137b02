// Child process of the DNSSEC benchmark: read a zone file, sign it with `signZone` (new keys of
// the given algorithm, NSEC or NSEC3), write the signed zone; report the phases and peak memory.
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { parseName } from '../../src/zone/name.ts'
import { generateKey, type AlgorithmName } from '../../src/zone/dnssec/keys.ts'
import { signZone } from '../../src/zone/dnssec/zone-signer.ts'
import { parseZoneFile } from '../../src/zonefile/parser.ts'
import { writeZoneChunks } from '../../src/zonefile/writer.ts'

const [file, originText, algorithm, denialKind, outFile] = process.argv.slice(2) as [string, string, AlgorithmName, 'NSEC' | 'NSEC3', string]
const origin = parseName(originText)
const t0 = performance.now()
const parsed = await parseZoneFile(file, { origin, file, includes: 'refuse' })
if (parsed.problems.some(p => p.severity === 'error')) throw new Error(`zone problems: ${JSON.stringify(parsed.problems.slice(0, 3))}`)
const keys = { ksk: [generateKey('KSK', algorithm)], zsk: [generateKey('ZSK', algorithm)] }
const rssBeforeSign = process.memoryUsage().rss
const t1 = performance.now()
const denial = denialKind === 'NSEC' ? { kind: 'NSEC' as const } : { kind: 'NSEC3' as const, iterations: 0, salt: new Uint8Array(0), optOut: false }
const signed = signZone(origin, parsed.records, keys, { denial, dnskeyTtl: 3600, validitySeconds: 14 * 86400, jitterSeconds: 86400, inceptionOffsetSeconds: 3600 }, Math.floor(Date.now() / 1000))
const t2 = performance.now()
const rssAfterSign = process.memoryUsage().rss
const out = createWriteStream(outFile)
for (const chunk of writeZoneChunks([...parsed.records, ...signed], { origin, createdAt: new Date() })) {
  if (!out.write(chunk)) await once(out, 'drain')
}
out.end()
await once(out, 'finish')
const t3 = performance.now()
process.stdout.write(JSON.stringify({
  records: parsed.records.length,
  dnssecRecords: signed.length,
  signatures: signed.filter(r => r.type === 46).length,
  parseMs: Math.round(t1 - t0),
  signMs: Math.round(t2 - t1),
  writeMs: Math.round(t3 - t2),
  signRssGrowthMb: Math.round((rssAfterSign - rssBeforeSign) / 2 ** 20),
  maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024)
}) + '\n')
