import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request the receiver got: raw body kept byte for byte (the signature covers it). */
export interface ReceivedNotification {
  path: string
  method: string
  headers: IncomingHttpHeaders
  rawBody: Buffer
  /** Unix seconds when it arrived. */
  receivedAt: number
}

const MAX_BODY = 1_048_576

/**
 * A local HTTP receiver for webhook notifications (node:http). Answers every request 204 at once,
 * so a conforming target has no reason to resend. One per suite file; closed in afterAll.
 */
export class WebhookReceiver {
  private readonly received: ReceivedNotification[] = []

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  /** Listens on host:port (0 = free port); publicUrl is how the target reaches it, when not this address. */
  static async start(o: { listenHost: string; listenPort: number; publicUrl?: string }): Promise<WebhookReceiver> {
    const box: { r?: WebhookReceiver } = {}
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      let size = 0
      req.on('data', (c: Buffer) => {
        size += c.length
        if (size <= MAX_BODY) chunks.push(c)
      })
      req.on('end', () => {
        box.r?.received.push({
          path: (req.url ?? '/').split('?')[0] ?? '/',
          method: req.method ?? '',
          headers: req.headers,
          rawBody: Buffer.concat(chunks),
          receivedAt: Date.now() / 1000,
        })
        res.statusCode = 204
        res.end()
      })
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(o.listenPort, o.listenHost, () => resolve())
    })
    const { port } = server.address() as AddressInfo
    const host = o.listenHost === '0.0.0.0' || o.listenHost === '::' ? '127.0.0.1' : o.listenHost.includes(':') ? `[${o.listenHost}]` : o.listenHost
    box.r = new WebhookReceiver(server, (o.publicUrl ?? `http://${host}:${port}`).replace(/\/+$/, ''))
    return box.r
  }

  /** The URL to subscribe for a label (one path per subscription). */
  url(label: string): string {
    return `${this.baseUrl}/${encodeURIComponent(label)}`
  }

  /** Notifications received on a label's path so far. */
  for(label: string): ReceivedNotification[] {
    const path = `/${encodeURIComponent(label)}`
    return this.received.filter((n) => n.path === path)
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections()
      this.server.close(() => resolve())
    })
  }
}
