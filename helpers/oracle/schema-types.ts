type Json = Record<string, unknown>
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

function typeOf(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  return typeof v
}

function fits(v: unknown, type: string): boolean {
  if (type === 'integer') return typeof v === 'number' && Number.isInteger(v)
  return typeOf(v) === type
}

/**
 * Values whose JSON type differs from the type the schema declares at their place (properties, items), walked
 * without $ref or combinators (where the schema branches, nothing below is judged). Fields the schema does not name
 * are not judged: a server may add its own (policy id, financials). Returns "pointer: expected type, got value" lines.
 */
export function typeProblems(schema: unknown, data: unknown, pointer = '', out: string[] = []): string[] {
  if (!isObj(schema) || out.length >= 5) return out
  const declared = schema['type']
  const types =
    typeof declared === 'string'
      ? [declared]
      : Array.isArray(declared)
        ? declared.filter((t): t is string => typeof t === 'string')
        : []
  if (types.length > 0 && !types.some((t) => fits(data, t))) {
    out.push(`${pointer || '/'}: ${types.join(' or ')} expected, got ${JSON.stringify(data)}`)
    return out
  }
  if (isObj(data) && isObj(schema['properties'])) {
    for (const [k, v] of Object.entries(data)) {
      const sub = (schema['properties'] as Json)[k]
      if (sub !== undefined) typeProblems(sub, v, `${pointer}/${k}`, out)
    }
  }
  if (Array.isArray(data) && isObj(schema['items']))
    data.forEach((v, i) => typeProblems(schema['items'], v, `${pointer}/${i}`, out))
  return out
}
