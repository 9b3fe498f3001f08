/**
 * Benign variations of the reference service: each is a way a conforming service may differ.
 * Start the reference with one: `npm run reference -- --variation <name>`; npm run mutation runs the
 * suite under each and reports any failed check as a false alarm.
 *
 * To add one: add an entry here (options it sets, wire rewrites, profile overrides). A wire rewrite
 * that does not exist yet goes into reference/variations/wire.ts.
 */
import { NO_CHAOS } from '../chaos/spec'
import type { VariationInfo, VariationOptions } from './types'

export type { VariationInfo, VariationOptions, WireRewrite } from './types'

export const VARIATIONS = {
  'extra-fields': {
    description:
      'Every JSON response record (the top-level object, or each object of a top-level list) carries two fields the ' +
      'specs do not name; JSON Schema documents and schema-bound data (renewal data) excepted.',
    allowedBecause:
      'The specs list required fields, never that other fields are absent; a client must ignore what it does not know.',
    wire: ['extra-fields'],
  },
  'key-order': {
    description: 'Every JSON object is serialised with its keys in reverse order.',
    allowedBecause: 'JSON objects are unordered (RFC 8259 §4).',
    wire: ['key-order'],
  },
  'numeric-ids': {
    description:
      'Quote/policy, document, payment and event ids are numeric JSON strings ("100042") instead of JSON integers; ' +
      'webhook subscription ids are numeric strings too. Request ids stay UUIDs.',
    allowedBecause:
      'The sales spec says only that path parameters are strings (sales §4) and webhooks §2 types id as a string; ' +
      'request ids stay UUIDs as the public document types {requestId}.',
    options: { idStyle: 'numeric' },
    // the profile says the id style (a target's profile decides what the specs leave open): the never-existing ids of
    // the webhook probes are digits, as the target's own document declares them (else its contract checks flag them)
    profile: { extensions: { probes: { ids: { webhooks: 'integer' } } } },
  },
  'uuid-ids': {
    description:
      'Every id is a UUID string (quotes, policies, documents, payments, events, subscriptions) instead of a JSON ' +
      'integer.',
    allowedBecause:
      'The sales spec says only that path parameters are strings (sales §4); the integer type is the public ' +
      "documents' dialect, not a requirement of the spec, which rules.",
    options: { idStyle: 'uuid' },
    profile: { extensions: { probes: { ids: { sales: 'uuid' } } } },
  },
  'slow-locks': {
    description: 'A change of quote data and a referral keep the quote locked for 1.2 s instead of 150-300 ms.',
    allowedBecause:
      'sales §3 rules 3-4: the caller polls the actions endpoint until the lock is released; no duration is given ' +
      '(§8).',
    options: { lockMs: 1200, referralMs: 1200 },
  },
  'slow-issue': {
    description: 'An issue request stays pending for 2.5 s instead of 300 ms.',
    allowedBecause:
      'sales §3: the status is polled until success or failure; no duration is given (§8). Still within the profile ' +
      'deadline (8 s).',
    options: { issueMs: 2500 },
  },
  'extra-headers': {
    description: 'Every response carries extra headers (request id, cache-control, vary, server timing, HSTS).',
    allowedBecause:
      "Headers the specs do not name are the server's business (RFC 9110 §5: unknown fields are ignored).",
    wire: ['extra-headers'],
  },
  'charset-spelling': {
    description: 'JSON responses say Content-Type "application/json;charset=UTF-8" (no space, upper case).',
    allowedBecause: 'Media type parameters are case-insensitive and the space is optional (RFC 9110 §8.3.1).',
    wire: ['charset'],
  },
  'chunked-bodies': {
    description: 'Every body is streamed with Transfer-Encoding: chunked in small chunks, without Content-Length.',
    allowedBecause: "HTTP/1.1 framing is the transport's business (RFC 9112 §7.1).",
    wire: ['chunked'],
  },
  'pretty-json': {
    description: 'JSON bodies are indented, with a trailing newline.',
    allowedBecause: 'Insignificant whitespace is allowed around any JSON token (RFC 8259 §2).',
    wire: ['pretty-json'],
  },
  'unicode-escapes': {
    description: 'Every non-ASCII character and "/" in JSON strings is sent as a \\u escape.',
    allowedBecause: 'A JSON string may escape any character (RFC 8259 §7); the value is the same.',
    wire: ['unicode-escapes'],
  },
  'connection-close': {
    description: 'The server closes the connection after every response (Connection: close).',
    allowedBecause: 'Persistent connections are optional for a server (RFC 9112 §9.6).',
    wire: ['connection-close'],
  },
  'other-clients-subscriptions': {
    description:
      'The subscription list already holds subscriptions made by other clients of the same caller before the run.',
    allowedBecause:
      "webhooks §4: GET /api/webhook/subscriptions returns the array of subscriptions; nothing says only the suite's " +
      'own.',
    options: { webhooks: { preexistingSubscriptions: 3 } },
  },
  'status-spelling': {
    description: 'Request statuses are spelled PENDING / COMPLETED / FAILED on the wire, as documented in the profile.',
    allowedBecause:
      'sales §3: "Exact spelling of the request status values on the wire: not shown"; the profile documents it.',
    options: { statusSpelling: { pending: 'PENDING', success: 'COMPLETED', failure: 'FAILED' } },
    profile: { statuses: { pending: ['PENDING'], success: ['COMPLETED'], failure: ['FAILED'] } },
  },
  'transient-503': {
    description:
      '5% of idempotent requests (GET, PUT, DELETE) answer 503 with Retry-After: 1 before they are handled ' +
      '(reference/chaos).',
    allowedBecause:
      'A 503 with Retry-After is a temporary overload (RFC 9110 §15.6.4); an idempotent request may be sent again ' +
      '(§9.2.2). POSTs are never hit.',
    options: { chaos: { ...NO_CHAOS, seed: 7, unavailable: 0.05, retryAfterSeconds: 1, methods: 'idempotent' } },
  },
  'latency-jitter': {
    description: 'Every request waits 0-120 ms before it is handled, so answers come back out of order.',
    allowedBecause: 'sales §8 and webhooks §8: response times are not shown.',
    options: { chaos: { ...NO_CHAOS, seed: 11, latency: { minMs: 0, maxMs: 120 } } },
  },
  'schemas-2020-12': {
    description:
      'The product schemas declare JSON Schema 2020-12 ($schema https://json-schema.org/draft/2020-12/schema) ' +
      'instead of draft-07.',
    allowedBecause:
      'sales §4: the schemes endpoint returns a JSON Schema; no draft is prescribed. A schema is compiled by the ' +
      'draft it declares.',
    options: { schemaDraft: '2020-12' },
  },
  'expiry-leeway': {
    description: 'Both services accept a token up to 5 s past its exp (a clock tolerance).',
    allowedBecause:
      'RFC 7519 §4.1.4: implementers MAY provide for some small leeway, usually no more than a few minutes, to ' +
      'account for clock skew; sales §5.5 shows no token rule. Reported as the deviation token-expiry-leeway (warn).',
    options: { expiryLeewaySeconds: 5 },
  },
  'late-single-notifications': {
    description: 'Every webhook notification is sent once, 1.5 s after the event (a queued, batched sender).',
    allowedBecause:
      'webhooks §6.4: retry behaviour and delivery timing are not shown; one notification per event, however late, ' +
      'is what §6 asks.',
    options: { webhooks: { notificationDelayMs: 1500 } },
  },
  'unicode-nfc': {
    description:
      'Text of quote data is stored normalised to Unicode NFC (composed characters), as many databases and ' +
      'frameworks do.',
    allowedBecause:
      'NFC is the canonical composed form (Unicode UAX #15): canonically equivalent text; the suite sends its ' +
      'real-world text in NFC (docs/model.md), so the bytes read back are those sent.',
    options: { unicodeNormalisation: 'NFC' },
  },
  'invoices-newest-first': {
    description:
      "A policy's invoices list is answered newest first (the last installment's and adjustments' invoices before " +
      'the first).',
    allowedBecause: 'sales §4 lists the invoices of a policy without an order; a client matches them by invoicenumber.',
    options: { invoiceOrder: 'newest-first' },
  },
  'short-lived-tokens': {
    description: 'Access tokens live 40 s, so a run renews its tokens on the way.',
    allowedBecause: 'sales §5.5: token lifetime and refresh are not shown.',
    options: { tokenTtlSeconds: 40 },
  },
  'pdf-other-producer': {
    description:
      'Generated documents come from another PDF producer: PDF 1.7 with a binary comment, CRLF line ends, an /Info ' +
      'dictionary, a cross-reference stream instead of a table, two pages and the text split over several operators.',
    allowedBecause:
      'sales §4 asks for document content, not a producer: any complete, well-formed PDF that names its quote is one ' +
      '(ISO 32000-1 §7.5.8 allows cross-reference streams).',
    options: { documentProducer: 'other' },
  },
  'notification-extra-keys': {
    description:
      "Every notification's data carries keys its event type's examplePayload does not have, at the top and in " +
      'nested objects.',
    allowedBecause:
      'webhooks §2 publishes the example as the structure of the payload; a client must ignore what it does not ' +
      'know. Reported as the deviation notification-extra-keys (warn) unless the profile says extraDataKeys: fail.',
    options: { webhooks: { notificationExtraKeys: true } },
  },
  'subscriptions-newest-first': {
    description:
      'The subscription list is answered newest first (read whole; pages, an extension of the profile, stay in ' +
      'creation order).',
    allowedBecause: 'webhooks §4: GET /api/webhook/subscriptions returns an array of subscriptions; no order is given.',
    options: { webhooks: { listOrder: 'newest-first' } },
  },
} as const satisfies Record<string, VariationInfo>

export type VariationName = keyof typeof VARIATIONS

export function isVariationName(name: string): name is VariationName {
  return Object.hasOwn(VARIATIONS, name)
}

/** Every variation by name, with the common type (for iteration). */
export function variationEntries(): [VariationName, VariationInfo][] {
  return Object.entries(VARIATIONS) as [VariationName, VariationInfo][]
}

/** Throws naming every unknown variation. */
export function assertVariationNames(names: readonly string[]): asserts names is VariationName[] {
  const unknown = names.filter((n) => !isVariationName(n))
  if (unknown.length > 0)
    throw new Error(`unknown variation(s): ${unknown.join(', ')}; known: ${Object.keys(VARIATIONS).join(', ')}`)
}

/** The reference options that switch on the given variations (later ones win on a conflict). */
export function variationOptions(names: readonly string[]): VariationOptions & { variations: VariationName[] } {
  assertVariationNames(names)
  const out: VariationOptions = {}
  for (const n of names) Object.assign(out, (VARIATIONS[n] as VariationInfo).options ?? {})
  return { ...out, variations: [...names] }
}

/** The wire rewrites switched on by the given variations. */
export function wireRewrites(names: readonly string[]): Set<string> {
  assertVariationNames(names)
  return new Set(names.flatMap((n) => (VARIATIONS[n] as VariationInfo).wire ?? []))
}
