import type { ReferenceContext } from '../context'
import type { StoredSubscription } from './store'

/**
 * A subscription as the reference sends it. The spec declares secret "as object": by default
 * the reference sends {"algorithm": "sha256", "key": "<hex>"}; with options.webhooks.secretFormat
 * 'string' it sends the key alone (the documented deviation webhook-secret-type).
 */
export function toWire(s: StoredSubscription, ctx: ReferenceContext): Record<string, unknown> {
  const d = ctx.defects
  const secret = ctx.options.webhooks?.secretFormat === 'string' ? s.key : { algorithm: 'sha256', key: s.key }
  const out: Record<string, unknown> = {
    id: s.id,
    event: s.event,
    url: s.url,
    secret,
    createdAt: d.has('webhooks-created-at-not-date-time') ? s.createdAt.getTime() : s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  }
  if (d.has('webhooks-updated-at-missing')) delete out.updatedAt
  if (d.has('webhooks-secret-missing')) delete out.secret
  return out
}
