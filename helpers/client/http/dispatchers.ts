import { Pool } from 'undici'
import { MAX_HEADER_BYTES, type HttpLimits } from './limits'

export interface DispatcherOptions extends Partial<HttpLimits> {
  connectTimeoutMs: number
  headersTimeoutMs: number
  bodyTimeoutMs: number
  /** The target's request limit (profile http.maxInFlight): a pool keeps up to this many connections, at least 16. */
  maxInFlight?: number
}

/** How long closing waits for the pools to drain before their connections are dropped. */
const CLOSE_GRACE_MS = 500

/** One keep-alive undici Pool per origin, owned by the caller and closed with it. */
export class Dispatchers {
  private readonly pools = new Map<string, Pool>()

  constructor(private readonly options: DispatcherOptions) {}

  for(url: string): Pool {
    const origin = new URL(url).origin
    let pool = this.pools.get(origin)
    if (!pool) {
      pool = new Pool(origin, {
        connections: Math.max(16, this.options.maxInFlight ?? 0),
        pipelining: 1,
        keepAliveTimeout: 10_000,
        connect: { timeout: this.options.connectTimeoutMs },
        headersTimeout: this.options.headersTimeoutMs,
        bodyTimeout: this.options.bodyTimeoutMs,
        // what standard clients read, not Node's 16 KiB: a large unknown header is read and judged, with a deviation
        maxHeaderSize: MAX_HEADER_BYTES,
      })
      this.pools.set(origin, pool)
    }
    return pool
  }

  get timeouts(): DispatcherOptions {
    return this.options
  }

  /** Closes every pool; a request still hanging after a short grace is dropped, never waited for. */
  async close(): Promise<void> {
    const pools = [...this.pools.values()]
    this.pools.clear()
    await Promise.all(
      pools.map(async (p) => {
        let timer: NodeJS.Timeout | undefined
        const grace = new Promise<'late'>((r) => {
          timer = setTimeout(() => r('late'), CLOSE_GRACE_MS)
        })
        const closed = await Promise.race([
          p.close().then(
            () => 'closed' as const,
            () => 'late' as const,
          ),
          grace,
        ])
        clearTimeout(timer)
        if (closed === 'late') await p.destroy().catch(() => undefined)
      }),
    )
  }
}

/**
 * The dispatchers of a target, shared by the suite files of a worker that talk to it, as the request limit is
 * (limiter.ts sharedLimiter): their requests reuse the same keep-alive connections instead of each file opening its
 * own. A file's suite context takes them and gives them back when it closes; the last one to give them back closes
 * them, so nothing stays open after the files that used it (a script's context, an exploration). Opening a connection
 * per file and pool was 187 connections in a full run against 38 shared, and 0.3 CPU s of it (docs/performance.md).
 */
const shared = new Map<string, { dispatchers: Dispatchers; users: number }>()

export function takeSharedDispatchers(
  target: string,
  options: DispatcherOptions,
): { dispatchers: Dispatchers; giveBack(): Promise<void> } {
  const key = `${target}#${JSON.stringify(options)}`
  let entry = shared.get(key)
  if (!entry) {
    entry = { dispatchers: new Dispatchers(options), users: 0 }
    shared.set(key, entry)
  }
  entry.users += 1
  const taken = entry
  let given = false
  return {
    dispatchers: taken.dispatchers,
    giveBack: async () => {
      if (given) return
      given = true
      taken.users -= 1
      if (taken.users > 0) return
      if (shared.get(key) === taken) shared.delete(key)
      await taken.dispatchers.close()
    },
  }
}
