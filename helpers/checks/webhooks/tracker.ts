import type { SuiteContext } from '../context'
import type { HttpResult } from '../../client/http/types'
import { secretKey } from './secret'
import type { WebhookSettings } from './settings'

export interface CreatedSubscription {
  res: HttpResult
  /** The subscription id when the target answered 2xx with one. */
  id?: string
  url: string
}

/**
 * Creates the suite's subscriptions (each URL carries the run id) and deletes them afterwards,
 * even when a check failed: cleanup() deletes every tracked id, and any subscription in the list
 * whose URL carries this run's id and this file's scope. Secrets are registered with the redactor.
 */
export class SubscriptionTracker {
  private readonly ids = new Set<string>()

  /** scope: one per suite file, so a file's sweep never touches another file's subscriptions. */
  constructor(
    private readonly t: SuiteContext,
    private readonly settings: WebhookSettings,
    private readonly scope: string,
  ) {}

  /** A label carrying the run id and the file's scope: lc-<runId>-<scope>-<label>. */
  label(label: string): string {
    return this.t.tag(`${this.scope}-${label}`)
  }

  /** A never-notified subscriber URL for a label. */
  url(label: string): string {
    return `${this.settings.subscriberUrlBase}/${this.label(label)}`
  }

  /** POST /api/webhook/subscription (sent once, never retried). */
  async create(event: string, url: string): Promise<CreatedSubscription> {
    const res = await this.t.webhooks.call({ op: 'webhooks.subscription.create', json: { event, url } })
    const body = res.body as { id?: unknown; secret?: unknown } | undefined
    const id = res.status >= 200 && res.status < 300 && typeof body?.id === 'string' ? body.id : undefined
    if (id) this.track(id)
    this.t.redactor.addSecret(secretKey(body?.secret, this.settings.signature.secretKeyPointer))
    return { res, url, ...(id ? { id } : {}) }
  }

  track(id: string): void {
    this.ids.add(id)
  }

  forget(id: string): void {
    this.ids.delete(id)
  }

  /** Deletes what this run created, side by side. Never throws: cleanup must not hide the checks' outcome. */
  async cleanup(): Promise<void> {
    const marker = this.t.tag(`${this.scope}-`)
    try {
      const list = await this.t.webhooks.call({ op: 'webhooks.subscriptions.list' })
      if (Array.isArray(list.body)) {
        for (const s of list.body as { id?: unknown; url?: unknown }[]) {
          if (typeof s?.id === 'string' && typeof s.url === 'string' && s.url.includes(marker)) this.ids.add(s.id)
        }
      }
    } catch {
      // the tracked ids are still deleted below
    }
    // side by side: the deletes do not depend on each other, and the target's request limit (http.maxInFlight) bounds
    // them; one at a time, a file's 60 subscriptions took 6 s at 100 ms and were the run's last requests
    await Promise.all(
      [...this.ids].map(async (id) => {
        try {
          await this.t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id } })
        } catch {
          // best effort: a transport fault here is reported by the traffic log, not as a check
        }
        this.ids.delete(id)
      }),
    )
  }
}
