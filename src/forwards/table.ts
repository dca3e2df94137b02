import type { WebForward } from './model.ts'

/**
 * The forwards the forwarding server answers from, by host. Kept current by `serving/` one zone
 * at a time; read on every request, so a lookup is a map read and a walk over the host's paths.
 */
export class ForwardTable {
  /** host → its forwards, most specific (longest path) first, anchorless before anchored. */
  private readonly byHost = new Map<string, WebForward[]>()
  /** zone → the hosts it holds forwards for. */
  private readonly hostsOfZone = new Map<string, Set<string>>()

  /** Replaces every forward of one zone; an empty list removes the zone's forwards. */
  setZone (zone: string, forwards: readonly WebForward[]): void {
    for (const host of this.hostsOfZone.get(zone) ?? []) {
      const kept = (this.byHost.get(host) ?? []).filter(f => f.zone !== zone)
      if (kept.length === 0) this.byHost.delete(host)
      else this.byHost.set(host, kept)
    }
    this.hostsOfZone.delete(zone)
    if (forwards.length === 0) return
    const hosts = new Set<string>()
    for (const forward of forwards) {
      hosts.add(forward.host)
      const list = this.byHost.get(forward.host) ?? []
      list.push(forward)
      this.byHost.set(forward.host, list)
    }
    for (const host of hosts) this.byHost.get(host)?.sort(bySpecificity)
    this.hostsOfZone.set(zone, hosts)
  }

  /**
   * The most specific forward for a request: `host` as the Host header gave it (any case, a
   * port or a trailing dot ignored), `path` the request's path without its query. A forward's
   * path matches itself and the paths below it (`/a` matches `/a` and `/a/b`, not `/ab`); a
   * forward with no path matches every path of its host.
   */
  lookup (host: string, path: string): WebForward | undefined {
    const list = this.byHost.get(normalHost(host))
    if (list === undefined) return undefined
    for (const forward of list) {
      if (covers(forward.path, path)) return forward
    }
    return undefined
  }

  /** How many forwards the table holds. */
  get size (): number {
    let n = 0
    for (const list of this.byHost.values()) n += list.length
    return n
  }
}

function bySpecificity (a: WebForward, b: WebForward): number {
  if (a.path.length !== b.path.length) return b.path.length - a.path.length
  if (a.path !== b.path) return a.path < b.path ? -1 : 1
  if ((a.anchor === '') !== (b.anchor === '')) return a.anchor === '' ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

function covers (forwardPath: string, path: string): boolean {
  if (forwardPath === '' || forwardPath === '/') return true
  const base = forwardPath.endsWith('/') ? forwardPath.slice(0, -1) : forwardPath
  return path === base || path.startsWith(base + '/') || path === forwardPath
}

/** A Host header's name: lower-case, without a port or a trailing dot (`[v6]:port` kept whole). */
export function normalHost (host: string): string {
  let h = host.trim().toLowerCase()
  if (h.startsWith('[')) return h
  const colon = h.lastIndexOf(':')
  if (colon >= 0) h = h.slice(0, colon)
  return h.endsWith('.') ? h.slice(0, -1) : h
}
