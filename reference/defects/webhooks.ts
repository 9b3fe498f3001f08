import type { DefectInfo } from './types'

/** Webhook subscriptions (webhook-subscriptions.md). */
export const WEBHOOKS_DEFECTS = {} as const satisfies Record<string, DefectInfo>
