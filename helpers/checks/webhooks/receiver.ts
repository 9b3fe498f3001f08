import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runRedactor } from '../../client/evidence/redact'
import type { SignatureSettings } from './settings'
import { verifySignature } from './signature'

/**
 * What the receiver made of a notification at receipt: `signed` by the subscription's secret, `unsigned` (no valid
 * signature with that secret: never counted as the target's notification), or `pending` while the secret is not
 * known yet (it is verified the moment it is).
 */
export type ReceiptVerdict = 'signed' | 'unsigned' | 'pending'

/** One request the receiver got: raw body kept byte for byte (the signature covers it). */
export interface ReceivedNotification {
  /** The label of the subscription whose secret path it came to. */
  label: string
  method: string
  headers: IncomingHttpHeaders
  rawBody: Buffer
  /** Unix seconds when it arrived. */
  receivedAt: number
  verdict: ReceiptVerdict
  /** Why it is unsigned. */
  reason?: string
}

export interface ReceiverOptions {
  listenHost: string
  listenPort: number
  /** How the target reaches the receiver; without it the receiver listens on loopback only. */
  publicUrl?: string
  /** How notifications are signed (verified at receipt). */
  signature?: SignatureSettings
  /** A notification body longer than this is refused (413) and not kept. */
  maxBodyBytes?: number
  /** Notifications kept per subscription; later ones are answered but only counted. */
  maxPerSubscription?: number
}

export const RECEIVER_LIMITS = Object.freeze({ maxBodyBytes: 1_048_576, maxPerSubscription: 50 })

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])

interface Endpoint {
  label: string
  key?: string
  kept: ReceivedNotification[]
  dropped: number
}

/**
 * A local HTTP receiver for webhook notifications (node:http). Each subscription gets its own unguessable path (128
 * random bits, registered with the run's redactor so that it appears in no report): a local process that does not
 * know it cannot post to a subscription, and what reaches an unknown path is only counted. Every notification is
 * verified against its subscription's secret at receipt; bodies and counts are capped per subscription. Answers 204
 * at once, so a conforming target has no reason to resend. Listens on 127.0.0.1 unless a public URL is configured.
 * One per suite file; closed in afterAll.
 */
export class WebhookReceiver {
  private readonly byToken = new Map<string, Endpoint>()
  private readonly byLabel = new Map<string, { token: string; endpoint: Endpoint }>()
  private strayCount = 0
  private oversizedCount = 0

  private constructor(
    private readonly listener: Listener,
    readonly baseUrl: string,
    private readonly o: Required<Pick<ReceiverOptions, 'maxBodyBytes' | 'maxPerSubscription'>> & ReceiverOptions,
  ) {}

  /**
   * Listens on host:port (0 = free port); publicUrl is how the target reaches it, when not this address. A fixed port
   * (the profile's listenPort, a container run's) is one listener shared by every receiver of the process that asks for
   * it (the delivery suite's and the fan-out check's, side by side in a lane): each receiver answers its own paths.
   */
  static async start(options: ReceiverOptions): Promise<WebhookReceiver> {
    if (!options.publicUrl && !LOOPBACK.has(options.listenHost)) {
      throw new Error(
        `the webhook receiver listens on ${options.listenHost} only with a public URL ` +
          `(extensions.webhooks.delivery.receiver.publicUrl); without one it stays on 127.0.0.1`,
      )
    }
    const o = { ...RECEIVER_LIMITS, ...options }
    const listener = await listenerFor(o.listenHost, o.listenPort)
    const { port } = listener.server.address() as AddressInfo
    const host =
      o.listenHost === '0.0.0.0' || o.listenHost === '::'
        ? '127.0.0.1'
        : o.listenHost.includes(':')
          ? `[${o.listenHost}]`
          : o.listenHost
    const r = new WebhookReceiver(listener, (o.publicUrl ?? `http://${host}:${port}`).replace(/\/+$/, ''), o)
    listener.receivers.add(r)
    return r
  }

  /** Whether a request path is one this receiver gave out. */
  owns(path: string): boolean {
    return this.byToken.has(tokenOf(path))
  }

  /** Answers a request of the listener: a path of its own, or (when no receiver owns it) a stray one. */
  receive(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
    const token = tokenOf(req.url ?? '/')
    const endpoint = this.byToken.get(token)
    if (!endpoint) {
      // a path nobody was given: not the target's (or not any subscription's); counted, never kept
      this.strayCount += 1
      req.resume()
      res.statusCode = 404
      res.end()
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let refused = false
    req.on('data', (c: Buffer) => {
      if (refused) return
      size += c.length
      if (size > this.o.maxBodyBytes) {
        refused = true
        this.oversizedCount += 1
        res.statusCode = 413
        res.setHeader('connection', 'close')
        res.end()
        req.destroy()
        return
      }
      chunks.push(c)
    })
    req.on('end', () => {
      if (refused) return
      if (endpoint.kept.length >= this.o.maxPerSubscription) endpoint.dropped += 1
      else {
        const n: ReceivedNotification = {
          label: endpoint.label,
          method: req.method ?? '',
          headers: req.headers,
          rawBody: Buffer.concat(chunks),
          receivedAt: Date.now() / 1000,
          verdict: 'pending',
        }
        if (endpoint.key !== undefined) this.verify(n, endpoint.key)
        endpoint.kept.push(n)
      }
      res.statusCode = 204
      res.end()
    })
    req.on('error', () => undefined)
  }

  private verify(n: ReceivedNotification, key: string): void {
    if (!this.o.signature) return
    const v = verifySignature(this.o.signature, key, n.rawBody, n.headers)
    n.verdict = v.ok ? 'signed' : 'unsigned'
    if (!v.ok) n.reason = v.detail
  }

  /** The URL to subscribe for a label: one unguessable path per subscription, masked in every report. */
  url(label: string): string {
    let e = this.byLabel.get(label)
    if (!e) {
      const token = randomBytes(16).toString('base64url')
      runRedactor().addSecret(token)
      e = { token, endpoint: { label, kept: [], dropped: 0 } }
      this.byLabel.set(label, e)
      this.byToken.set(token, e.endpoint)
    }
    return `${this.baseUrl}/${e.token}`
  }

  /** The secret key of the subscription at a label's URL: what has come and what comes is verified with it. */
  trust(label: string, key: string): void {
    this.url(label)
    const e = this.byLabel.get(label)!.endpoint
    e.key = key
    for (const n of e.kept) this.verify(n, key)
  }

  /** Everything that arrived at a label's secret path (each with its verdict). */
  for(label: string): ReceivedNotification[] {
    return [...(this.byLabel.get(label)?.endpoint.kept ?? [])]
  }

  /** The target's notifications on a label: those signed by the subscription's secret. */
  signed(label: string): ReceivedNotification[] {
    return this.for(label).filter((n) => n.verdict === 'signed')
  }

  /** Requests past the count cap of a label (answered, not kept). */
  dropped(label: string): number {
    return this.byLabel.get(label)?.endpoint.dropped ?? 0
  }

  /** Requests to a path that belongs to no subscription, and bodies refused as too large. */
  get rejected(): { stray: number; oversized: number } {
    return { stray: this.strayCount, oversized: this.oversizedCount }
  }

  /** Stops answering; the listener closes with its last receiver. */
  close(): Promise<void> {
    const l = this.listener
    l.receivers.delete(this)
    if (l.receivers.size > 0) return Promise.resolve()
    if (l.key) shared.delete(l.key)
    return new Promise((resolve) => {
      l.server.closeAllConnections()
      l.server.close(() => resolve())
    })
  }
}

/** A path's token: the request path without its query and leading slashes. */
function tokenOf(url: string): string {
  return url.split('?')[0]!.replace(/^\/+/, '')
}

/** One HTTP server and the receivers it answers for; `key` (host:port) when it is shared on a fixed port. */
interface Listener {
  server: Server
  receivers: Set<WebhookReceiver>
  key?: string
}

/** The listeners on fixed ports of this process, by host:port. */
const shared = new Map<string, Promise<Listener>>()

/** A listener on host:port: a new one on port 0; on a fixed port, the one already there, else a new shared one. */
function listenerFor(host: string, port: number): Promise<Listener> {
  const key = port === 0 ? undefined : `${host}:${port}`
  const existing = key ? shared.get(key) : undefined
  if (existing) return existing
  const made = (async (): Promise<Listener> => {
    const l: Listener = { server: createServer(), receivers: new Set(), ...(key ? { key } : {}) }
    l.server.on('request', (req, res) => {
      const path = req.url ?? '/'
      const owner = [...l.receivers].find((r) => r.owns(path)) ?? [...l.receivers][0]
      if (owner) owner.receive(req, res)
      else {
        req.resume()
        res.statusCode = 404
        res.end()
      }
    })
    await new Promise<void>((resolve, reject) => {
      l.server.once('error', reject)
      l.server.listen(port, host, () => resolve())
    })
    return l
  })()
  if (key) {
    shared.set(key, made)
    made.catch(() => shared.delete(key))
  }
  return made
}
