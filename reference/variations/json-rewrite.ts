/** Pure rewrites of a parsed JSON value that keep its meaning for a client that follows the specs. */

const EXTRA_FIELDS = { x_vendor_trace: 'ignore-me', _revision: 7 } as const

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/**
 * Adds two unknown fields to the response's record: the top-level object, or each object of a
 * top-level array (a list of records). Nested objects are left alone: many are maps keyed by data
 * (errors by field, links by relation, schema properties), where an extra key changes the value.
 */
export function withExtraFields(value: unknown): unknown {
  const add = (o: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...o }
    for (const [k, v] of Object.entries(EXTRA_FIELDS)) if (!(k in out)) out[k] = v
    return out
  }
  if (Array.isArray(value)) return value.map((v) => (isObject(v) ? add(v) : v))
  return isObject(value) ? add(value) : value
}

/** Reverses the key order of every object, at every depth. */
export function withReversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withReversedKeys)
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(value).reverse()) out[k] = withReversedKeys(value[k])
  return out
}

/** Escapes every non-ASCII character and "/" inside JSON text as \uXXXX (same value). */
export function escapeUnicode(jsonText: string): string {
  return jsonText.replace(/[\u0080-\uffff]|\//g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
