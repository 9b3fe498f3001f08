/** Wrong values a resource has already been reported for (per view and field, since its last write). */
export interface Reported {
  reported?: Set<string>
}

/**
 * Whether this wrong value of `what` (a view and field: "read|url", "data/policy/x") is new for the resource, and
 * remember it: a breach is reported on the first answer that shows it, not again on every answer showing the same
 * (docs/model.md, "A breach is reported once"). The resource's expectation stays what was written.
 */
export function firstShown(r: Reported, what: string, value: unknown): boolean {
  const key = `${what}|${JSON.stringify(value)}`
  r.reported ??= new Set()
  if (r.reported.has(key)) return false
  r.reported.add(key)
  return true
}
