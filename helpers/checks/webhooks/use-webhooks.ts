import { afterAll } from 'vitest'
import { useTarget, type SuiteContext } from '../context'
import type { HttpResult } from '../../client/http/types'
import { withoutStringSecrets } from './secret'
import { webhookSettings, type WebhookSettings } from './settings'
import { SubscriptionTracker } from './tracker'

export interface WebhookSuite {
  t: SuiteContext
  settings: WebhookSettings
  subs: SubscriptionTracker
}

/** The target, the profile's webhook settings and a tracker whose subscriptions are deleted after the file. */
export function useWebhooks(scope: string): WebhookSuite {
  const t = useTarget()
  const settings = webhookSettings(t.config)
  const subs = new SubscriptionTracker(t, settings, scope)
  afterAll(() => subs.cleanup())
  return { t, settings, subs }
}

/** The same response with string secrets set aside, for the faithful contract (the deviation has its own check). */
export function contractView(res: HttpResult): HttpResult {
  return { ...res, body: withoutStringSecrets(res.body) }
}

/** The subscriptions of a list response (empty when the body is not an array). */
export function listed(res: HttpResult): { id?: unknown; url?: unknown; event?: unknown }[] {
  return Array.isArray(res.body)
    ? (res.body as { id?: unknown }[]).filter((s) => s !== null && typeof s === 'object')
    : []
}
