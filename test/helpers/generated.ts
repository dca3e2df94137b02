/** Generated test inputs shared by several tests. */

/** A small seeded PRNG (mulberry32), so a failing seed can be replayed. */
export function prng (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The text of a zone of `records` records: SOA, two NS, then A records h0, h1, … */
export function bigZoneText (name: string, records: number): string {
  const lines = [`$TTL 3600\n@ IN SOA ns1.example.net. hostmaster.${name} 1 7200 3600 1209600 300\n@ IN NS ns1.example.net.\n@ IN NS ns2.example.net.`]
  for (let i = 0; i < records - 3; i++) lines.push(`h${i} IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
  return lines.join('\n') + '\n'
}
