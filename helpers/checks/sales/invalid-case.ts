import type { PayloadOverrides } from './payload-overrides'

export interface InvalidCase {
  pointer: string
  value: unknown
  /** The field name the 422 must mention ("policy.dateInception"). */
  field: string
}

/**
 * The schema violation of the negative create check: the product fixture's `invalid`, else a value of the
 * wrong type for the first required property of the first required object block (e.g. /policy/dateInception = 12345).
 */
export function invalidCase(overrides: PayloadOverrides, schema: Record<string, unknown>): InvalidCase {
  if (overrides.invalid) return overrides.invalid
  const props = (schema['properties'] ?? {}) as Record<
    string,
    { required?: string[]; properties?: Record<string, { type?: unknown }> }
  >
  for (const block of (schema['required'] as string[] | undefined) ?? []) {
    const sub = props[block]
    const field = sub?.required?.[0]
    if (!field) continue
    const type = sub.properties?.[field]?.type
    return {
      pointer: `/${block}/${field}`,
      value: type === 'number' || type === 'integer' ? 'not-a-number' : 12345,
      field: `${block}.${field}`,
    }
  }
  throw new Error('the schema has no required object block with a required field to break')
}
