function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Deep merge of profile overrides into a profile: objects merge, anything else (arrays included) replaces. */
export function mergeProfile<T extends Record<string, unknown>>(base: T, overrides: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(overrides)) {
    const cur = out[k]
    out[k] = isPlainObject(cur) && isPlainObject(v) ? mergeProfile(cur, v) : v
  }
  return out as T
}
