import { Pool } from 'undici'

export interface DispatcherOptions {
  connectTimeoutMs: number
  headersTimeoutMs: number
  bodyTimeoutMs: number
}

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
      })
      this.pools.set(origin, pool)
    }
    return pool
  }

  get timeouts(): DispatcherOptions {
    return this.options
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()]
    this.pools.clear()
    await Promise.all(pools.map((p) => p.close().catch(() => p.destroy())))
  }
}
