/**
 * Fuzz-style checks of every registered rdata type (STYLE.md §7), repeatable through a seeded
 * PRNG: random and mutated wire data never makes wireProblem, formatRdata or validateRdata
 * throw; random tokens never make parseRdata throw anything but RdataError; and text ⇄ wire
 * round-trips wherever the type form is written.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  RdataError,
  formatRdata,
  parseRdata,
  registeredTypes,
  tokenize,
  typeName,
  validateRdata,
  wireProblem,
  type Token
} from '../../../src/zone/rdata/index.ts'
import { hex, origin } from '../../helpers/rdata.ts'
import { prng } from '../../helpers/generated.ts'

const RANDOM_CASES = 2000
const MUTATIONS_PER_SAMPLE = 300

/** Valid presentation rdata per type, the seeds of the mutations. */
const SAMPLES: Record<string, string[]> = {
  A: ['192.0.2.1'],
  NS: ['ns1.example.org.'],
  MF: ['mail.example.org.'],
  CNAME: ['www.example.org.'],
  SOA: ['ns1.example.org. hostmaster.example.org. 1 3600 900 604800 86400'],
  PTR: ['host.example.net.'],
  HINFO: ['"INTEL-386" "Unix"'],
  MX: ['10 mail.example.org.', '0 .'],
  TXT: ['"hello" "world"', '""'],
  RP: ['mbox.example.org. txt.example.org.'],
  AFSDB: ['1 afs.example.org.'],
  AAAA: ['2001:db8::1', '::ffff:192.0.2.1'],
  LOC: ['42 21 54 N 71 06 18 W -24m 30m', '90 S 180 E -100000.00 0.5m 1 0'],
  SRV: ['0 5 5060 sip.example.org.'],
  NAPTR: ['100 10 "S" "SIP+D2U" "!^.*$!sip:info@example.org!" _sip._udp.example.org.'],
  KX: ['10 kx.example.org.'],
  A6: ['0 2001:db8::1', '64 ::1:2:3:4 foo.example.', '127 ::1 foo.', '128 foo.'],
  DNAME: ['target.example.net.'],
  SVCB: [
    '0 foo.example.com.',
    '16 foo.example.org. mandatory=alpn,ipv4hint alpn=h2,h3-19 ipv4hint=192.0.2.1 ech=AEj+DQBE ipv6hint=2001:db8::1 dohpath=/q{?dns} ohttp key65333="x"',
    '1 . alpn="f\\\\\\\\oo\\\\,bar,h2" no-default-alpn port=443'
  ],
  HTTPS: ['1 . alpn=h3 key123="a b"', '0 svc.example.net.'],
  SPF: ['"v=spf1 -all"'],
  URI: ['10 1 "ftp://ftp1.example.org/public"'],
  CAA: ['0 issue "letsencrypt.org"', '128 tbs "Unknown"']
}

function randomBytes (rand: () => number, n: number): Uint8Array {
  const b = new Uint8Array(n)
  for (let i = 0; i < n; i++) b[i] = Math.floor(rand() * 256)
  return b
}

/** An uncompressed wire name of up to three labels of random octets. */
function randomName (rand: () => number): number[] {
  const out: number[] = []
  for (let k = Math.floor(rand() * 4); k > 0; k--) {
    const len = 1 + Math.floor(rand() * 8)
    out.push(len, ...randomBytes(rand, len))
  }
  out.push(0)
  return out
}

/** Wire-like pieces: numbers, names, character-strings, addresses, SvcParams. */
function structuredRdata (rand: () => number): Uint8Array {
  const out: number[] = []
  for (let k = 1 + Math.floor(rand() * 6); k > 0; k--) {
    switch (Math.floor(rand() * 6)) {
      case 0: out.push(...randomBytes(rand, 1 + Math.floor(rand() * 4))); break
      case 1: out.push(...randomName(rand)); break
      case 2: { const len = Math.floor(rand() * 12); out.push(len, ...randomBytes(rand, len)); break }
      case 3: out.push(...randomBytes(rand, 16)); break
      case 4: { // a SvcParam with a small key
        const value = randomBytes(rand, Math.floor(rand() * 6))
        out.push(0, Math.floor(rand() * 10), 0, value.length, ...value)
        break
      }
      default: out.push(0, ...randomBytes(rand, 15)) // LOC version 0
    }
  }
  return Uint8Array.from(out)
}

/** Plain random octets (mostly short, sometimes long), small-biased octets, or wire-like pieces. */
function randomRdata (rand: () => number): Uint8Array {
  const kind = rand()
  if (kind < 0.4) return structuredRdata(rand)
  const len = rand() < 0.8 ? Math.floor(rand() * 40) : Math.floor(rand() * 600)
  const b = randomBytes(rand, len)
  if (kind < 0.7) for (let i = 0; i < len; i++) if (rand() < 0.5) b[i] = b[i]! % 8
  return b
}

function mutate (rand: () => number, seed: Uint8Array): Uint8Array {
  const b = Uint8Array.from(seed)
  switch (Math.floor(rand() * 5)) {
    case 0: { // flip bits of one to three octets
      for (let k = 1 + Math.floor(rand() * 3); k > 0 && b.length > 0; k--) b[Math.floor(rand() * b.length)]! ^= 1 << Math.floor(rand() * 8)
      return b
    }
    case 1: // truncate
      return b.slice(0, Math.floor(rand() * b.length))
    case 2: // extend
      return Uint8Array.from([...b, ...randomBytes(rand, 1 + Math.floor(rand() * 8))])
    case 3: { // replace one octet by a random or boundary value
      if (b.length > 0) b[Math.floor(rand() * b.length)] = [0, 1, 0x3f, 0x40, 0x7f, 0x80, 0xc0, 0xff][Math.floor(rand() * 8)]!
      return b
    }
    default: { // insert octets in the middle
      const at = Math.floor(rand() * (b.length + 1))
      return Uint8Array.from([...b.subarray(0, at), ...randomBytes(rand, 1 + Math.floor(rand() * 4)), ...b.subarray(at)])
    }
  }
}

function failure (type: number, rdata: Uint8Array, what: string): string {
  return `${typeName(type)} \\# ${rdata.length} ${hex(rdata)}: ${what}`
}

/**
 * The wire-side properties for one input. Returns whether the type form was written (to count
 * how much of the round trip the inputs reach).
 */
function checkWire (type: number, rdata: Uint8Array): boolean {
  let problem: string | undefined
  let text: string
  let reasons: string[]
  try {
    problem = wireProblem(type, rdata)
    text = formatRdata(type, rdata)
    reasons = validateRdata(type, rdata)
  } catch (err) {
    assert.fail(failure(type, rdata, `threw ${String(err)}`))
  }
  assert.equal(typeof text, 'string')
  assert.ok(Array.isArray(reasons) && reasons.every(r => typeof r === 'string'), failure(type, rdata, 'reasons are not strings'))
  if (problem !== undefined) {
    assert.ok(text.startsWith('\\# '), failure(type, rdata, `malformed (${problem}) but written as "${text}"`))
    assert.deepEqual(reasons, [problem])
    return false
  }
  // Whatever form was written, reading it back gives the same octets.
  let back: Uint8Array
  try {
    back = parseRdata(type, tokenize(text), { origin })
  } catch (err) {
    assert.fail(failure(type, rdata, `written as "${text}", which does not parse: ${String(err)}`))
  }
  assert.equal(hex(back), hex(rdata), failure(type, rdata, `written as "${text}", read back as ${hex(back)}`))
  return !text.startsWith('\\# ')
}

const FRAGMENTS = [
  '\\#', '0', '1', '10', '128', '255', '256', '65535', '65536', '4294967296', '-1', '.', '@', 'a', 'example.org.', 'a..b',
  '192.0.2.1', '2001:db8::1', '::ffff:1.2.3.4', 'N', 'S', 'E', 'W', '1m', '0.5m', '59.999', 'issue', 'alpn=', 'alpn=h2,h3',
  'mandatory=alpn', 'port=53', 'key65535', 'key0', 'ech=', 'no-default-alpn', 'dohpath=/q{?dns}', 'ohttp', '1h', '\\000',
  '\\"', '\\', 'AAAA', '0a000001', '4', '=', ',', 'é', '\\256', '\\12'
]

function randomTokens (rand: () => number): Token[] {
  const n = Math.floor(rand() * 9)
  const out: Token[] = []
  for (let i = 0; i < n; i++) {
    let text: string
    if (rand() < 0.6) {
      text = FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)]!
    } else {
      const alphabet = '0123456789abcdefxyzNSEWm.:\\"=,;()@$#-+/{}? é'
      text = ''
      for (let k = Math.floor(rand() * 12); k > 0; k--) text += alphabet[Math.floor(rand() * alphabet.length)]
    }
    out.push({ text, quoted: rand() < 0.2 })
  }
  return out
}

/** The text-side properties for one input: only RdataError; parsed data has its layout and round-trips. */
function checkText (type: number, tokens: readonly Token[]): boolean {
  let rdata: Uint8Array
  try {
    rdata = parseRdata(type, tokens, { origin })
  } catch (err) {
    assert.ok(err instanceof RdataError, `${typeName(type)} ${JSON.stringify(tokens)}: threw ${String(err)}`)
    return false
  }
  assert.equal(wireProblem(type, rdata), undefined, `${typeName(type)} ${JSON.stringify(tokens)}: parsed to malformed ${hex(rdata)}`)
  checkWire(type, rdata)
  return true
}

describe('rdata fuzz', () => {
  const types = registeredTypes()

  it('has a mutation seed for every type of parts A and B', () => {
    for (const mnemonic of Object.keys(SAMPLES)) assert.ok(types.some(t => t.mnemonic === mnemonic), mnemonic)
  })

  for (const t of types) {
    it(`${t.mnemonic}: random and mutated wire data`, { timeout: 60_000 }, () => {
      const rand = prng(0x5eed0000 + t.type)
      let typed = 0
      for (let i = 0; i < RANDOM_CASES; i++) if (checkWire(t.type, randomRdata(rand))) typed++
      const seeds = (SAMPLES[t.mnemonic] ?? []).map(text => parseRdata(t.type, tokenize(text), { origin }))
      for (const seed of seeds) {
        assert.ok(checkWire(t.type, seed), `${t.mnemonic} sample is written in the generic form`)
        let m = seed
        for (let i = 0; i < MUTATIONS_PER_SAMPLE; i++) {
          // Mutate the seed or keep mutating the last mutant, to wander further from valid data.
          m = mutate(rand, rand() < 0.5 ? seed : m)
          if (checkWire(t.type, m)) typed++
        }
      }
      // Every type with a presentation form reaches it with some input.
      if (seeds.length > 0) assert.ok(typed > 0, `${t.mnemonic}: no input was written in the type form`)
    })

    it(`${t.mnemonic}: random tokens`, { timeout: 60_000 }, () => {
      const rand = prng(0x7e47 + t.type)
      for (let i = 0; i < RANDOM_CASES; i++) checkText(t.type, randomTokens(rand))
      // Random text through the tokenizer as well (unterminated quotes are an RdataError too).
      const alphabet = '0123456789abcdefN E.:\\"=,;()@ \t'
      for (let i = 0; i < 500; i++) {
        let text = ''
        for (let k = Math.floor(rand() * 30); k > 0; k--) text += alphabet[Math.floor(rand() * alphabet.length)]
        let tokens: Token[]
        try {
          tokens = tokenize(text)
        } catch (err) {
          assert.ok(err instanceof RdataError, `tokenize ${JSON.stringify(text)}: threw ${String(err)}`)
          continue
        }
        checkText(t.type, tokens)
      }
    })
  }
})
