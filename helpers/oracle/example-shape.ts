import { escapePointerToken as escapeKey } from '../client/data/json-pointer'
/**
 * A value judged against a published example of its structure (issue 42): the webhook events list publishes an
 * `examplePayload` per event type (webhook-subscriptions.md §2, WebhookEventInfo: "Example payload structure for the
 * event type"), the structure every client of that event is built from. The value must have the same keys at every
 * level and the same JSON types; an array is judged by its items (each item against the example's first item); a
 * null in the example says nothing of the type (any value). Keys the example does not have are listed apart: the
 * profile decides whether they are allowed.
 */

export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object'

export interface ShapeDifference {
  /** JSON pointer of the place in the judged value (array items as their index). */
  path: string
  kind: 'missing' | 'type' | 'extra'
  /** For 'type': the example's type and the value's. */
  expected?: JsonType
  actual?: JsonType
}

export function jsonType(v: unknown): JsonType {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  const t = typeof v
  return t === 'boolean' || t === 'number' || t === 'string' ? t : 'object'
}

/** Where `value` departs from the structure of `example`, every level, in document order. */
export function shapeDifferences(example: unknown, value: unknown, path = ''): ShapeDifference[] {
  const want = jsonType(example)
  const got = jsonType(value)
  if (want === 'null') return []
  if (want !== got) return [{ path: path || '/', kind: 'type', expected: want, actual: got }]
  if (want === 'array') {
    const items = example as unknown[]
    if (items.length === 0) return []
    return (value as unknown[]).flatMap((v, i) => shapeDifferences(items[0], v, `${path}/${i}`))
  }
  if (want !== 'object') return []
  const ex = example as Record<string, unknown>
  const val = value as Record<string, unknown>
  const out: ShapeDifference[] = []
  for (const k of Object.keys(ex)) {
    const p = `${path}/${escapeKey(k)}`
    if (!Object.hasOwn(val, k)) out.push({ path: p, kind: 'missing' })
    else out.push(...shapeDifferences(ex[k], val[k], p))
  }
  for (const k of Object.keys(val))
    if (!Object.hasOwn(ex, k)) out.push({ path: `${path}/${escapeKey(k)}`, kind: 'extra' })
  return out
}

/** One line per difference: "/fields missing", "/rules: string instead of number", "/traceId not in the example". */
export function describeShapeDifference(d: ShapeDifference): string {
  if (d.kind === 'missing') return `${d.path} missing`
  if (d.kind === 'extra') return `${d.path} not in the example`
  return `${d.path}: ${d.actual} instead of ${d.expected}`
}
