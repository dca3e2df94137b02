import { createWriteStream } from 'node:fs'
import { once } from 'node:events'

/**
 * Write a realistic zone of `count` records: A, AAAA, CNAME, MX, TXT, SRV and delegations (NS
 * with glue), deterministic (seeded), owners spread over a few levels.
 */
export async function generateZone (path: string, count: number, origin = 'bench.test.'): Promise<void> {
  let seed = 42
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed % n
  }
  const out = createWriteStream(path)
  const write = async (s: string): Promise<void> => {
    if (!out.write(s)) await once(out, 'drain')
  }
  await write(`$ORIGIN ${origin}\n$TTL 3600\n@ IN SOA ns1 hostmaster 2024010101 3600 900 604800 300\n@ IN NS ns1\n@ IN NS ns2\nns1 IN A 192.0.2.1\nns2 IN A 192.0.2.2\n`)
  let n = 5
  let i = 0
  let buf = ''
  while (n < count) {
    const host = `h${i}.g${i % 1000}`
    const k = rand(100)
    if (k < 40) {
      buf += `${host} IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}\n`
      n++
    } else if (k < 55) {
      buf += `${host} 300 IN AAAA 2001:db8:${(i >> 16).toString(16)}::${(i & 0xffff).toString(16)}\n`
      n++
    } else if (k < 70) {
      buf += `${host} IN CNAME h${rand(Math.max(1, i))}.g${rand(1000)}.${origin}\n`
      n++
    } else if (k < 78) {
      buf += `${host} IN MX ${rand(50)} mx${rand(10)}.example.net.\n`
      n++
    } else if (k < 88) {
      buf += `${host} IN TXT "v=spf1 ip4:10.${i & 255}.0.0/16 include:_spf.example.net -all" "id=${i}"\n`
      n++
    } else if (k < 95) {
      buf += `_sip._tcp.${host} IN SRV 10 ${rand(100)} 5060 sip${rand(20)}.example.net.\n`
      n++
    } else {
      // A delegation with in-zone name servers and their glue: four records.
      buf += `d${i} IN NS ns1.d${i}\nd${i} IN NS ns2.d${i}\nns1.d${i} IN A 198.51.100.${i & 255}\nns2.d${i} IN AAAA 2001:db8:ffff::${(i & 0xffff).toString(16)}\n`
      n += 4
    }
    i++
    if (buf.length > 1 << 16) {
      await write(buf)
      buf = ''
    }
  }
  await write(buf)
  out.end()
  await once(out, 'finish')
}
