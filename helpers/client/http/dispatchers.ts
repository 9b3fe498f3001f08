import { Pool } from 'undici'
import { MAX_HEADER_BYTES, type HttpLimits } from './limits'

export interface DispatcherOptions extends Partial<HttpLimits> {
  connectTimeoutMs: number
  headersTimeoutMs: number
  bodyTimeoutMs: number
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
        connections: 16,
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
