import { createHmac, randomBytes } from 'node:crypto'
import type { ReferenceContext } from '../context'
import { probedNotification } from '../variations/field-probe'
import type { EventType } from './events'
import type { StoredSubscription } from './store'
import { request } from 'undici'

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
/** How long one attempt may take before it is given up (and retried): the receiver's answer must start by then. */
export const ATTEMPT_TIMEOUT_MS = 5000
/** A timer that fires this much later than due means the process stalled: the attempt's timeout starts again. */
const STALL_MS = 250
/** The webhooks-duplicate-late defect: the same delivery again, this long after the first. */
export const LATE_DUPLICATE_MS = 2000
/** The webhooks-delivered-after-delete-late defect: how late, and for how long after a delete. */
export const STALE_REPLICA_MS = 1500
export const STALE_REPLICA_WINDOW_MS = 60_000

export function signReference(key: string, timestamp: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', key).update(`${timestamp}.${rawBody}`).digest('hex')}`
}

/** Sends notifications for one reference instance; pending retries are cancelled when the service closes. */
export class Deliverer {
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly inflight = new Set<AbortController>()
  private closed = false

  constructor(
    private readonly ctx: ReferenceContext,
    private readonly attemptTimeoutMs = ATTEMPT_TIMEOUT_MS,
  ) {
    ctx.onClose.push(() => this.close())
  }

  /** Queues one notification per subscription (`delayMs` after now); returns the delivery ids. */
  notify(
    subs: StoredSubscription[],
    event: EventType,
    data: Record<string, unknown>,
    delayMs = this.ctx.options.webhooks?.notificationDelayMs ?? 0,
  ): string[] {
    const d = this.ctx.defects
    const copies = d.has('webhooks-notification-twice') ? 2 : 1
    const ids: string[] = []
    for (const s of subs) {
      for (let i = 0; i < copies; i += 1) {
        const id = randomBytes(12).toString('hex')
        ids.push(id)
        // the field probe of the field-perturbation harness sees the body before it is signed (absent: unchanged)
        const body = JSON.stringify(
          probedNotification(this.ctx, s.url, {
            id,
            event,
            subscriptionId: s.id,
            occurredAt: new Date().toISOString(),
            data,
          }),
        )
        for (const url of this.urlsOf(s)) {
          this.later(delayMs, () => this.attempt(s, url, event, id, body, 0))
          // an at-least-once queue that redelivers (same delivery id) once the first attempt was acknowledged
          if (d.has('webhooks-duplicate-late'))
            this.later(delayMs + LATE_DUPLICATE_MS, () => this.attempt(s, url, event, id, body, 0))
        }
      }
    }
    return ids
  }

  /** Where a subscription's notification goes: its url (the defects: the url it was created with, or both). */
  private urlsOf(s: StoredSubscription): string[] {
    const d = this.ctx.defects
    if (d.has('webhooks-notifications-follow-old-url')) return [s.createdWith.url]
    if (d.has('webhooks-notifications-to-old-and-new-url') && s.createdWith.url !== s.url)
      return [s.createdWith.url, s.url]
    return [s.url]
  }

  /** Runs fn after ms (at once for 0); cancelled when the service closes. */
  later(ms: number, fn: () => void): void {
    if (ms <= 0) return fn()
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      fn()
    }, ms)
    this.timers.add(timer)
  }

  private attempt(s: StoredSubscription, url: string, event: EventType, id: string, body: string, n: number): void {
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
    const state: { answered: boolean; done: boolean; timer?: NodeJS.Timeout } = { answered: false, done: false }
    // The timeout counts this process's running time, and is acted on only after the I/O already waiting. When the
    // process stalls (the reference is embedded in a busy harness process), Node runs expired timers BEFORE the poll
    // phase reads the sockets: an answer that came in time would be taken for a timeout, or a request written late
    // would be cut off after the receiver got it, and the notification sent again (a duplicate no conforming service
    // sends). So the check runs in setImmediate (after the poll phase), and a timer that fired late (a stall) gives
    // the receiver a full timeout again instead of giving up.
    const arm = (due: number): NodeJS.Timeout =>
      setTimeout(
        () =>
          setImmediate(() => {
            if (state.answered || state.done || abort.signal.aborted) return
            if (Date.now() - due > STALL_MS) state.timer = arm(Date.now() + this.attemptTimeoutMs)
            else abort.abort()
          }),
        Math.max(0, due - Date.now()),
      )
    state.timer = arm(Date.now() + this.attemptTimeoutMs)
    // undici's request (no redirect followed, like fetch's 'manual'): a delivery costs a fraction of a fetch, whose
    // Request, Response and Headers objects nothing here reads (docs/performance.md)
    request(url, { method: 'POST', headers, body, signal: abort.signal })
      .then(async (res) => {
        state.answered = true
        await res.body.dump().catch(() => undefined)
        return res.statusCode >= 200 && res.statusCode < 300
      })
      .catch(() => false)
      .then((ok) => {
        state.done = true
        clearTimeout(state.timer)
        this.inflight.delete(abort)
        const delay = RETRY_DELAYS_MS[n]
        if (ok || delay === undefined || this.closed) return
        this.later(delay, () => this.attempt(s, url, event, id, body, n + 1))
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
