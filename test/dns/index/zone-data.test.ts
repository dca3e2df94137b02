import assert from 'node:assert/strict'
import { once } from 'node:events'
import { describe, it } from 'node:test'
import { Worker } from 'node:worker_threads'
import { ZoneData, type JournalStep, type ServedRrset, type ZoneNode } from '../../../src/dns/index/zone-data.ts'
import { parseName, wireKey, type WireName } from '../../../src/zone/name.ts'
import type { ZoneRecord } from '../../../src/zone/record.ts'
import { prng } from '../../helpers/generated.ts'

type Order = ServedRrset['order']

const ORIGIN = parseName('example.org.')
const LABELS = ['a', 'www', '*', 'mail', 'b-c']
const TYPES = [1, 2, 15, 16, 28]
const TTLS = [60, 300, 3600]
const ORDERS: Order[] = [undefined, undefined, 'FIXED', 'RANDOM', 'ROUND_ROBIN']

/** The reference: nodes in a Map by key, existence found by scanning every owner (no counts). */
class Reference {
  readonly nodes = new Map<string, { owner: WireName, rrsets: Map<number, { ttl: number, rdata: Uint8Array[], order?: Order }> }>()

  add (owner: WireName, type: number, ttl: number, rdata: readonly Uint8Array[], order: Order): void {
    const key = wireKey(owner)
    let node = this.nodes.get(key)
    if (node === undefined) this.nodes.set(key, node = { owner, rrsets: new Map() })
    const set = node.rrsets.get(type)
    if (set === undefined) node.rrsets.set(type, { ttl, rdata: [...rdata], ...(order === undefined ? {} : { order }) })
    else {
      set.rdata.push(...rdata)
      set.ttl = Math.min(set.ttl, ttl)
    }
  }

  remove (r: ZoneRecord): boolean {
    const key = wireKey(r.owner)
    const set = this.nodes.get(key)?.rrsets.get(r.type)
    const at = set?.rdata.findIndex(d => Buffer.compare(d, r.rdata) === 0) ?? -1
    if (at < 0) return false
    set!.rdata.splice(at, 1)
    if (set!.rdata.length === 0) this.nodes.get(key)!.rrsets.delete(r.type)
    if (this.nodes.get(key)!.rrsets.size === 0) this.nodes.delete(key)
    return true
  }

  apply (step: JournalStep, order: (owner: WireName, type: number) => Order): void {
    for (const r of step.removed) this.remove(r)
    for (const r of step.added) {
      const set = this.nodes.get(wireKey(r.owner))?.rrsets.get(r.type)
      if (set !== undefined) set.ttl = r.ttl
      if (set?.rdata.some(d => Buffer.compare(d, r.rdata) === 0) === true) continue
      this.add(r.owner, r.type, r.ttl, [r.rdata], order(r.owner, r.type))
    }
    for (const r of step.added) {
      const set = this.nodes.get(wireKey(r.owner))?.rrsets.get(r.type)
      if (set === undefined) continue
      const o = order(r.owner, r.type)
      if (o === undefined) delete set.order
      else set.order = o
    }
  }

  /** A name exists when it owns records or is an ancestor (below the apex) of a name that does. */
  exists (key: string): boolean {
    if (this.nodes.has(key)) return true
    if (key.length <= ORIGIN.length) return false
    for (const k of this.nodes.keys()) {
      let at = 0
      while (k.length - at > key.length) at += k.charCodeAt(at) + 1
      if (at > 0 && k.length - at === key.length && k.slice(at) === key) return true
    }
    return false
  }
}

/** The pool of names: every name up to three labels under the origin, in random case when used. */
function namePool (): string[] {
  const out: string[] = ['']
  for (const a of LABELS) {
    out.push(a)
    for (const b of LABELS.slice(0, 3)) {
      out.push(`${a}.${b}`)
      for (const c of ['x', 'www']) out.push(`${c}.${a}.${b}`)
    }
  }
  return out
}
const POOL = namePool()

function spell (rand: () => number, relative: string): WireName {
  const text = relative === '' ? 'example.org.' : `${relative}.example.org.`
  return parseName([...text].map(ch => rand() < 0.3 ? ch.toUpperCase() : ch).join(''))
}

function record (rand: () => number): ZoneRecord {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
  const type = pick(TYPES)
  return { owner: spell(rand, pick(POOL)), type, ttl: pick(TTLS), rdata: new Uint8Array([type, Math.floor(rand() * 3)]) }
}

/** What a node looks like, for comparison (without round-robin positions). */
function shape (node: { owner: WireName, rrsets: Map<number, { ttl: number, rdata: Uint8Array[], order?: Order }> } | undefined): unknown {
  if (node === undefined) return undefined
  return { owner: [...node.owner], rrsets: [...node.rrsets].sort((a, b) => a[0] - b[0]).map(([t, s]) => [t, s.ttl, s.order ?? null, s.rdata.map(d => [...d])]) }
}

function check (zone: ZoneData, ref: Reference, where: string): void {
  for (const relative of POOL) {
    for (const name of [relative === '' ? 'example.org.' : `${relative}.example.org.`, `nx.${relative === '' ? '' : relative + '.'}example.org.`]) {
      const key = wireKey(parseName(name))
      assert.deepEqual(shape(zone.nodeByKey(key)), shape(ref.nodes.get(key)), `${where}: node ${name}`)
      assert.equal(zone.existsByKey(key), ref.exists(key), `${where}: exists ${name}`)
    }
  }
  const listed = [...zone.eachNode()].map(n => JSON.stringify(shape(n))).sort()
  assert.deepEqual(listed, [...ref.nodes.values()].map(n => JSON.stringify(shape(n))).sort(), `${where}: nodes listed`)
  assert.equal(zone.nodeCount, ref.nodes.size, `${where}: node count`)
}

type Op =
  | { kind: 'add', r: ZoneRecord, order: Order }
  | { kind: 'addRrset', owner: WireName, type: number, ttl: number, rdata: Uint8Array[], order: Order }
  | { kind: 'remove', r: ZoneRecord }
  | { kind: 'apply', step: JournalStep, orders: Map<string, Order> }

function randomOp (rand: () => number, ref: Reference, serial: number): Op {
  const x = rand()
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
  if (x < 0.3) return { kind: 'add', r: record(rand), order: pick(ORDERS) }
  if (x < 0.45) {
    const r = record(rand)
    return { kind: 'addRrset', owner: r.owner, type: r.type, ttl: r.ttl, rdata: [r.rdata, new Uint8Array([r.type, 9])], order: pick(ORDERS) }
  }
  // Removals mostly of records that are there (in another spelling of the owner).
  const existing = [...ref.nodes.values()].flatMap(n => [...n.rrsets].flatMap(([type, s]) => s.rdata.map(rdata => ({ owner: n.owner, type, ttl: s.ttl, rdata }))))
  const respell = (r: ZoneRecord): ZoneRecord => {
    const owner = Uint8Array.from(r.owner)
    for (let at = 0; owner[at] !== 0; at += owner[at]! + 1) {
      for (let k = at + 1; k <= at + owner[at]!; k++) if (owner[k]! >= 0x61 && owner[k]! <= 0x7a && rand() < 0.5) owner[k]! -= 32
    }
    return { ...r, owner }
  }
  const some = (): ZoneRecord => existing.length > 0 && rand() < 0.8 ? respell(pick(existing)) : record(rand)
  if (x < 0.65) return { kind: 'remove', r: some() }
  const removed: ZoneRecord[] = []
  const added: ZoneRecord[] = []
  const n = 1 + Math.floor(rand() * 4)
  for (let i = 0; i < n; i++) {
    if (rand() < 0.5) removed.push(some())
    // A TTL change carries the rrset's records again, with the new TTL.
    const r = rand() < 0.3 ? { ...some(), ttl: pick(TTLS) } : record(rand)
    added.push(r)
  }
  const orders = new Map<string, Order>()
  for (const r of added) orders.set(`${wireKey(r.owner)}/${r.type}`, pick(ORDERS))
  return { kind: 'apply', step: { serialFrom: serial, serialTo: serial + 1, removed, added }, orders }
}

function run (zone: ZoneData, ref: Reference | undefined, op: Op, version: number): void {
  switch (op.kind) {
    case 'add':
      zone.add(op.r, op.order)
      ref?.add(op.r.owner, op.r.type, op.r.ttl, [op.r.rdata], op.order)
      return
    case 'addRrset':
      zone.addRrset(op.owner, op.type, op.ttl, op.rdata, op.order)
      ref?.add(op.owner, op.type, op.ttl, op.rdata, op.order)
      return
    case 'remove': {
      const was = zone.remove(op.r)
      if (ref !== undefined) assert.equal(was, ref.remove(op.r))
      return
    }
    case 'apply': {
      const order = (owner: WireName, type: number): Order => op.orders.get(`${wireKey(owner)}/${type}`)
      zone.apply(op.step, version, order)
      ref?.apply(op.step, order)
    }
  }
}

describe('ZoneData (packed image and overlay) against a Map-based reference', () => {
  for (const overlayMin of [2, 8, 1024]) {
    it(`matches after every step, loading in any order then changing (overlay bound ${overlayMin})`, () => {
      for (let seed = 1; seed <= 12; seed++) {
        const rand = prng(seed * 7919 + overlayMin)
        const zone = new ZoneData(ORIGIN, 1, 1, overlayMin)
        const ref = new Reference()
        // Loading: writes straight into the image while it is built (records in any order).
        const loads = Math.floor(rand() * 40)
        for (let i = 0; i < loads; i++) {
          const op = randomOp(rand, ref, 0)
          if (op.kind === 'add' || op.kind === 'addRrset') run(zone, ref, op, 1)
        }
        check(zone, ref, `seed ${seed} loaded`)
        let copy: ZoneData | undefined
        for (let i = 0; i < 150; i++) {
          const op = randomOp(rand, ref, i + 1)
          run(zone, ref, op, i + 2)
          if (copy !== undefined) run(copy, undefined, op, i + 2)
          check(zone, ref, `seed ${seed} step ${i} (${op.kind})`)
          if (copy !== undefined) check(copy, ref, `seed ${seed} step ${i} (${op.kind}), the copy`)
          // Another thread's copy: the image shared, the overlay as plain data.
          if (i === 40 || i === 100) copy = ZoneData.fromSnapshot(structuredClone(zone.snapshot()))
        }
        if (overlayMin === 2) assert.ok(zone.imageGeneration > 0, `seed ${seed}: the overlay was folded`)
      }
    })
  }

  it('loads in canonical order without an overlay, and shares the image with a snapshot', () => {
    const zone = new ZoneData(ORIGIN, 1, 1)
    zone.addRrset(ORIGIN, 6, 3600, [new Uint8Array(22)])
    for (let i = 0; i < 2000; i++) zone.addRrset(parseName(`h${i}.G${i % 7}.example.org.`), 1, 300, [new Uint8Array([192, 0, 2, i & 255])])
    const snap = zone.snapshot()
    assert.equal(snap.overlay.length, 0)
    assert.ok(snap.image.nodes instanceof SharedArrayBuffer && snap.image.rrsets instanceof SharedArrayBuffer && snap.image.table instanceof SharedArrayBuffer)
    const copy = ZoneData.fromSnapshot(structuredClone(snap))
    // The copy reads the same memory (a byte the original's image changes is seen there).
    const bytes = new Uint8Array(snap.image.rrsets)
    const theirs = new Uint8Array(copy.snapshot().image.rrsets)
    const last = bytes.length - 1
    const was = bytes[last]!
    bytes[last] = was ^ 0xff
    const seen = theirs[last]
    bytes[last] = was
    assert.equal(seen, was ^ 0xff)
    assert.equal(copy.nodeCount, 2001)
    assert.equal(copy.existsByKey(wireKey(parseName('g3.example.org.'))), true)
    assert.equal(copy.nodeByKey(wireKey(parseName('g3.example.org.'))), undefined)
    assert.deepEqual([...copy.node(parseName('H12.g5.EXAMPLE.org.'))!.owner], [...parseName('h12.G5.example.org.')])
  })

  it('keeps the round-robin position of an rrset across reads and unrelated changes', () => {
    const zone = new ZoneData(ORIGIN, 1, 1, 1)
    const owner = parseName('pool.example.org.')
    zone.addRrset(owner, 1, 60, [new Uint8Array([1]), new Uint8Array([2]), new Uint8Array([3])], 'ROUND_ROBIN')
    const set = (): ServedRrset => (zone.node(owner) as ZoneNode).rrsets.get(1)!
    set().next = 2
    for (let i = 0; i < 10; i++) zone.add({ owner: parseName(`n${i}.example.org.`), type: 1, ttl: 60, rdata: new Uint8Array([i]) })
    assert.ok(zone.imageGeneration > 0, 'the overlay was folded into a new image')
    assert.equal(set().next, 2)
  })

  it('serves from a snapshot in another thread, the image shared, and follows the same steps', async () => {
    const zone = new ZoneData(ORIGIN, 1, 1, 2)
    zone.addRrset(ORIGIN, 6, 3600, [new Uint8Array(22)])
    for (let i = 0; i < 50; i++) zone.addRrset(parseName(`h${i}.sub.example.org.`), 1, 300, [new Uint8Array([192, 0, 2, i])])
    zone.remove({ owner: parseName('h7.sub.example.org.'), type: 1, ttl: 300, rdata: new Uint8Array([192, 0, 2, 7]) })
    const worker = new Worker(new URL('../../helpers/zone-data-worker.ts', import.meta.url))
    try {
      worker.postMessage({ snapshot: zone.snapshot() })
      const steps: JournalStep[] = [
        { serialFrom: 1, serialTo: 2, removed: [{ owner: parseName('h8.sub.example.org.'), type: 1, ttl: 300, rdata: new Uint8Array([192, 0, 2, 8]) }], added: [{ owner: parseName('new.deep.sub.example.org.'), type: 16, ttl: 60, rdata: new Uint8Array([1, 120]) }] },
        { serialFrom: 2, serialTo: 3, removed: [], added: [{ owner: parseName('H9.sub.example.org.'), type: 1, ttl: 30, rdata: new Uint8Array([192, 0, 2, 9]) }] },
        { serialFrom: 3, serialTo: 4, removed: [{ owner: parseName('new.deep.sub.example.org.'), type: 16, ttl: 60, rdata: new Uint8Array([1, 120]) }], added: [] }
      ]
      steps.forEach((step, i) => {
        zone.apply(step, i + 2)
        worker.postMessage({ step, version: i + 2 })
      })
      const names = ['example.org.', 'sub.example.org.', 'h7.sub.example.org.', 'h8.sub.example.org.', 'h9.sub.example.org.', 'h10.sub.example.org.', 'deep.sub.example.org.', 'new.deep.sub.example.org.']
      worker.postMessage({ read: names })
      const [theirs] = await once(worker, 'message') as [unknown]
      const mine = names.map(name => {
        const node = zone.node(parseName(name))
        return { exists: zone.existsByKey(wireKey(parseName(name))), rrsets: node === undefined ? null : [...node.rrsets].map(([type, s]) => [type, s.ttl, s.rdata.map(d => [...d])]) }
      })
      assert.deepEqual(theirs, mine)
      assert.deepEqual(mine.map(m => m.exists), [true, true, false, false, true, true, false, false])
    } finally {
      await worker.terminate()
    }
  })
})
