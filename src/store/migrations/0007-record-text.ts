import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'
import { rdataToRecordText } from '../../zone/record-text.ts'

/** How many characters of the first rdata value the VALUE order compares (as 0004). */
const VALUE_KEY_LENGTH = 64
const BATCH = 500
/** TXT and SPF (RFC 1035 §3.3.14, RFC 7208 §3.1). */
const TEXT_TYPES = [16, 99]

/** The records of `rdata_wire`: each a 16-bit length and its octets (the format of 0001). */
function unpack (packed: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = []
  for (let p = 0; p + 2 <= packed.length; p += 2 + ((packed[p]! << 8) | packed[p + 1]!)) {
    out.push(packed.subarray(p + 2, p + 2 + ((packed[p]! << 8) | packed[p + 1]!)))
  }
  return out
}

/**
 * TXT and SPF record text is the text itself (`zone/record-text.ts`), no longer presentation
 * format: `rdata_text` (what the API shows and `q=value:` searches) and `value_key` of every TXT
 * and SPF rrset are derived again from `rdata_wire`, the data DNS serves. Text an earlier write
 * already cut at a `;` or split at spaces is in the wire data that way and stays so (a client's
 * next write repairs it).
 */
export async function up (db: Kysely<any>, _engine: EngineName): Promise<void> {
  let after = 0
  while (true) {
    const rows = await db.selectFrom('rrsets').select(['id', 'rrtype', 'rdata_text', 'rdata_wire'])
      .where('rrtype', 'in', TEXT_TYPES).where('id', '>', after).orderBy('id').limit(BATCH).execute() as { id: number, rrtype: number, rdata_text: string, rdata_wire: Uint8Array }[]
    for (const r of rows) {
      const texts = unpack(new Uint8Array(r.rdata_wire)).map(rdata => rdataToRecordText(Number(r.rrtype), rdata))
      const text = JSON.stringify(texts)
      if (text === r.rdata_text) continue
      await db.updateTable('rrsets').set({ rdata_text: text, value_key: (texts[0] ?? '').slice(0, VALUE_KEY_LENGTH) }).where('id', '=', r.id).execute()
    }
    if (rows.length < BATCH) return
    after = Number(rows[rows.length - 1]!.id)
  }
}
