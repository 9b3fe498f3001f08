import type { TargetConfig } from '../../../common/config/types'

export type HmacAlgorithm = 'sha1' | 'sha256' | 'sha384' | 'sha512'

/** How notifications are signed (webhook-subscriptions.md §6 leaves it open; the profile says). */
export interface SignatureSettings {
  header: string
  prefix: string
  algorithm: HmacAlgorithm
  encoding: 'hex' | 'base64'
  /** Template of the signed bytes: {body} = raw body, {timestamp} = timestamp header value. */
  signedContent: string
  /** null when the target sends no timestamp. */
  timestampHeader: string | null
  toleranceSeconds: number
  secretKeyPointer: string
}

export interface TriggerSettings {
  method: 'POST' | 'PUT'
  path: string
  body?: Record<string, unknown>
}

export interface DeliverySettings {
  trigger?: TriggerSettings
  /**
   * Where the local receiver listens, and its caps (helpers/checks/webhooks/receiver.ts RECEIVER_LIMITS by default).
   */
  receiver: {
    listenHost: string
    listenPort: number
    publicUrl?: string
    maxBodyBytes?: number
    maxPerSubscription?: number
  }
  deadlineMs: number
  /**
   * The settle window: notifications that must not come (late duplicates, to an old url or event type, after a
   * delete) are watched for until settleMs after the last expected notification arrived (or the last event, when
   * one is still missing). Default 3000 ms, so a duplicate delivered 2 s after the first is seen.
   */
  settleMs: number
}

/** The resolved extensions.webhooks block of the profile, defaults filled in. */
export interface WebhookSettings {
  subscriberUrlBase: string
  invalidUpdateStatuses: number[]
  eventPointer: string
  /** Where a notification carries its event's data (judged against the event type's examplePayload). */
  dataPointer: string
  /** Keys in that data that the example does not have: allowed (a deviation) or a failure. */
  extraDataKeys: 'allow' | 'fail'
  signature: SignatureSettings
  delivery: DeliverySettings
}

export const DEFAULT_SIGNATURE: SignatureSettings = {
  header: 'X-Webhook-Signature',
  prefix: 'sha256=',
  algorithm: 'sha256',
  encoding: 'hex',
  signedContent: '{timestamp}.{body}',
  timestampHeader: 'X-Webhook-Timestamp',
  toleranceSeconds: 300,
  secretKeyPointer: '/key',
}

type Raw = Partial<Omit<WebhookSettings, 'signature' | 'delivery'>> & {
  signature?: Partial<SignatureSettings>
  /** quietMs: the deprecated name of settleMs. */
  delivery?: Partial<Omit<DeliverySettings, 'receiver'>> & {
    receiver?: Partial<DeliverySettings['receiver']>
    quietMs?: number
  }
}

/** The default settle window: a duplicate delivered 2 s after the first still falls inside it, with a margin. */
export const DEFAULT_SETTLE_MS = 3000

/** Reads extensions.webhooks (already validated against the profile schema) with its defaults. */
export function webhookSettings(config: Pick<TargetConfig, 'extensions'>): WebhookSettings {
  const raw = (config.extensions.webhooks ?? {}) as Raw
  const d = raw.delivery ?? {}
  return {
    subscriberUrlBase: (raw.subscriberUrlBase ?? 'https://webhook-receiver.invalid/ledger-conformance').replace(
      /\/+$/,
      '',
    ),
    invalidUpdateStatuses: raw.invalidUpdateStatuses ?? [400, 422],
    eventPointer: raw.eventPointer ?? '/event',
    dataPointer: raw.dataPointer ?? '/data',
    extraDataKeys: raw.extraDataKeys ?? 'allow',
    signature: { ...DEFAULT_SIGNATURE, ...(raw.signature ?? {}) },
    delivery: {
      ...(d.trigger ? { trigger: d.trigger } : {}),
      receiver: { listenHost: '127.0.0.1', listenPort: 0, ...(d.receiver ?? {}) },
      deadlineMs: d.deadlineMs ?? 10_000,
      settleMs: d.settleMs ?? d.quietMs ?? DEFAULT_SETTLE_MS,
    },
  }
}
