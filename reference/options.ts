import type { ChaosOptions } from './chaos/spec'
import { DefectSet } from './defects/catalogue'
import type { IdStyle } from './ids'

export interface ReferenceOptions {
  host: string
  /** 0 picks a free port. */
  port: number
  /** How long a change of quote data keeps the quote locked. */
  lockMs: number
  /** How long an issue request stays pending. */
  issueMs: number
  /** How long a referral keeps the quote locked. */
  referralMs: number
  /** Longest time a ?longPolling=true call is held before answering 423. */
  longPollMaxMs: number
  tokenTtlSeconds: number
  /** The JSON Schema draft the product schemas declare ($schema). Default draft-07; the schemas-2020-12 variation. */
  schemaDraft?: 'draft-07' | '2020-12'
  /** How long past exp the services still accept a token (clock tolerance; the expiry-leeway variation). Default 0. */
  expiryLeewaySeconds?: number
  defects: DefectSet
  /** Log requests to stdout (the standalone CLI turns it on). */
  logRequests: boolean
  /** How request statuses are spelled on the wire (a target may spell them differently). */
  statusSpelling: { pending: string; success: string; failure: string }
  /**
   * How ids are written (reference/ids.ts): JSON integers as the public documents type them (default), numeric strings,
   * or UUIDs.
   */
  idStyle: IdStyle
  /** Text of quote data stored normalised to this Unicode form (the unicode-nfc variation). Default: as sent. */
  unicodeNormalisation?: 'NFC'
  /** Order of a policy's invoices list (the invoices-newest-first variation). Default: as created (oldest first). */
  invoiceOrder?: 'newest-first'
  /**
   * Who writes the generated documents (the pdf-other-producer variation): another PDF layout. Default: the
   * reference's.
   */
  documentProducer?: 'other'
  /** Fault injection (reference/chaos): latency, transient 503s, resets, slow and garbage bodies. Off when absent. */
  chaos?: ChaosOptions
  /** Benign variations switched on (reference/variations): wire rewrites a conforming service may show. */
  variations: string[]
  /**
   * Webhooks area: secret sent as a plain string (the webhook-secret-type deviation), subscriptions pre-seeded per
   * caller.
   */
  webhooks?: {
    secretFormat?: 'object' | 'string'
    preexistingSubscriptions?: number
    /** Every notification is sent once, this long after the event (the late-single-notifications variation). */
    notificationDelayMs?: number
    /**
     * Notification data carries keys its example does not have, at every level (the notification-extra-keys variation).
     */
    notificationExtraKeys?: boolean
    /** Order of the subscription list (the subscriptions-newest-first variation). Default: as created. */
    listOrder?: 'newest-first'
  }
  /**
   * The field-perturbation harness's probe (scripts/mutation/fields/): sees every JSON answer of a catalogue operation
   * and every notification, and may change it. In-process only (an object, not a setting); absent in every other run.
   */
  fieldProbe?: FieldProbe
}

export const DEFAULT_OPTIONS: Omit<ReferenceOptions, 'defects'> = {
  host: '127.0.0.1',
  port: 0,
  lockMs: 150,
  issueMs: 300,
  referralMs: 300,
  longPollMaxMs: 2000,
  tokenTtlSeconds: 3600,
  logRequests: false,
  statusSpelling: { pending: 'pending', success: 'success', failure: 'failure' },
  idStyle: 'integer',
  variations: [],
}

export function referenceOptions(
  partial: Partial<Omit<ReferenceOptions, 'defects'>> & { defects?: Iterable<string> } = {},
): ReferenceOptions {
  const { defects, ...rest } = partial
  return { ...DEFAULT_OPTIONS, ...rest, defects: new DefectSet(defects ?? []) }
}

/** Where a body goes: an answer (operation of common/operations.json, its status) or a notification. */
export interface FieldSite {
  operation: string
  /** The answer's HTTP status; `sent` for a notification. */
  status: number | 'sent'
  /** `GET /api/v1/ledger/...` for an answer (the request), `POST <receiver url>` for a notification. */
  exchange: string
}

/**
 * Sees every JSON body before it is sent and returns the body to send: the same value (unchanged) or another one.
 * Runs in the reference's process (the harness's), so it may keep what it saw.
 */
export interface FieldProbe {
  body(site: FieldSite, body: unknown): unknown
}
