import { createHmac, randomBytes } from 'node:crypto'
import type { ReferenceContext } from '../context'
import type { EventType } from './events'
import type { StoredSubscription } from './store'

/**
 * How the reference signs notifications (documented in docs/webhooks.md, the defaults of the suite's profile):
 * X-Webhook-Timestamp: <unix seconds>, X-Webhook-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">,
 * keyed by the subscription's secret key (UTF-8). X-Webhook-Event and X-Webhook-Id name the event and the delivery.
 */
export const SIGNATURE_HEADER = 'x-webhook-signature'
export const TIMESTAMP_HEADER = 'x-webhook-timestamp'
export const EVENT_HEADER = 'x-webhook-event'
export const DELIVERY_HEADER = 'x-webhook-id'

/** Retry delays after a failed attempt (non-2xx or no answer): bounded, with backoff. */
export const RETRY_DELAYS_MS = [250, 1000, 4000]
const ATTEMPT_TIMEOUT_MS = 5000

export function signReference(key: string, timestamp: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', key).update(`${timestamp}.${rawBody}`).digest('hex')}`
}

/** Sends notifications for one reference instance; pending retries are cancelled when the service closes. */
export class Deliverer {
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly inflight = new Set<AbortController>()
  private closed = false

  constructor(private readonly ctx: ReferenceContext) {
    ctx.onClose.push(() => this.close())
  }

  /** Queues one notification per subscription; returns the delivery ids. */
  notify(subs: StoredSubscription[], event: EventType, data: Record<string, unknown>): string[] {
    const copies = this.ctx.defects.has('webhooks-notification-twice') ? 2 : 1
    const ids: string[] = []
    for (const s of subs) {
      for (let i = 0; i < copies; i += 1) {
        const id = randomBytes(12).toString('hex')
        ids.push(id)
        const body = JSON.stringify({ id, event, subscriptionId: s.id, occurredAt: new Date().toISOString(), data })
        this.attempt(s, event, id, body, 0)
      }
    }
    return ids
  }

  private attempt(s: StoredSubscription, event: EventType, id: string, body: string, n: number): void {
    if (this.closed) return
    const d = this.ctx.defects
    const timestamp = Math.floor(Date.now() / 1000) - (d.has('webhooks-stale-timestamp') ? 3600 : 0)
    const key = d.has('webhooks-signature-wrong-secret') ? `${s.key}-not-the-secret` : s.key
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'ledger-reference-webhooks/1.0',
      [EVENT_HEADER]: event,
      [DELIVERY_HEADER]: id,
      [TIMESTAMP_HEADER]: String(timestamp),
    }
    if (!d.has('webhooks-signature-missing')) headers[SIGNATURE_HEADER] = signReference(key, timestamp, body)
    const abort = new AbortController()
    this.inflight.add(abort)
    const timeout = setTimeout(() => abort.abort(), ATTEMPT_TIMEOUT_MS)
    fetch(s.url, { method: 'POST', headers, body, signal: abort.signal, redirect: 'manual' })
      .then(async (res) => {
        await res.arrayBuffer().catch(() => undefined)
        return res.ok
      })
      .catch(() => false)
      .then((ok) => {
        clearTimeout(timeout)
        this.inflight.delete(abort)
        const delay = RETRY_DELAYS_MS[n]
        if (ok || delay === undefined || this.closed) return
        const timer = setTimeout(() => {
          this.timers.delete(timer)
          this.attempt(s, event, id, body, n + 1)
        }, delay)
        this.timers.add(timer)
      })
  }

  close(): void {
    this.closed = true
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
    for (const a of this.inflight) a.abort()
    this.inflight.clear()
  }
}
