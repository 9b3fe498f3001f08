/** Deep merge of plain objects (arrays and scalars of `patch` replace); returns a new value. */
export function deepMerge<T>(base: T, patch: unknown): T {
  if (patch === undefined) return structuredClone(base)
  if (!isPlainObject(base) || !isPlainObject(patch)) return structuredClone(patch) as T
  const out: Record<string, unknown> = structuredClone(base) as Record<string, unknown>
  for (const [k, v] of Object.entries(patch)) out[k] = k in out ? deepMerge(out[k], v) : structuredClone(v)
  return out as T
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}
