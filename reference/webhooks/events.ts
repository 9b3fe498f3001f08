import type { DefectSet } from '../defects/catalogue'

/** The three event types of webhook-subscriptions.md §2 and §6. */
export const EVENT_TYPES = ['extracted', 'export', 'validation-success'] as const
export type EventType = (typeof EVENT_TYPES)[number]

export function isEventType(v: unknown): v is EventType {
  return typeof v === 'string' && (EVENT_TYPES as readonly string[]).includes(v)
}

export interface EventInfo {
  eventType: string
  description: string
  examplePayload: unknown
}

const CATALOGUE: Record<EventType, { description: string; examplePayload: Record<string, unknown> }> = {
  extracted: {
    description: 'A document was processed and its data extracted.',
    examplePayload: {
      documentId: 'doc-123',
      fields: { policyNo: 'P-0001', premium: 500 },
      extractedAt: '2026-01-01T12:00:00.000Z',
    },
  },
  export: {
    description: 'Extracted data was exported to a downstream system.',
    examplePayload: {
      documentId: 'doc-123',
      exportId: 'exp-456',
      format: 'json',
      exportedAt: '2026-01-01T12:05:00.000Z',
    },
  },
  'validation-success': {
    description: 'Extracted data passed validation.',
    examplePayload: { documentId: 'doc-123', rules: 12, validatedAt: '2026-01-01T12:01:00.000Z' },
  },
}

/** GET /api/webhook/events, with the catalogue defects applied. */
export function eventInfos(defects: DefectSet): EventInfo[] {
  return EVENT_TYPES.filter((t) => !(t === 'validation-success' && defects.has('webhooks-events-missing-type'))).map(
    (t) => ({
      eventType: t,
      description: defects.has('webhooks-event-description-empty') ? '' : CATALOGUE[t].description,
      examplePayload: defects.has('webhooks-example-payload-not-object')
        ? JSON.stringify(CATALOGUE[t].examplePayload)
        : CATALOGUE[t].examplePayload,
    }),
  )
}

export function examplePayload(t: EventType): Record<string, unknown> {
  return structuredClone(CATALOGUE[t].examplePayload)
}
