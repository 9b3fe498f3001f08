/** Sets (or, with undefined, removes) the value at an RFC 6901 pointer, creating objects on the way. Mutates doc. */
export function setPointer(doc: Record<string, unknown>, pointer: string, value: unknown): void {
  if (!pointer.startsWith('/')) throw new Error(`JSON pointer must start with '/': ${pointer}`)
  const keys = pointer
    .slice(1)
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
  let cur: Record<string, unknown> = doc
  for (const key of keys.slice(0, -1)) {
    const next = cur[key]
    if (next === null || typeof next !== 'object') cur[key] = {}
    cur = cur[key] as Record<string, unknown>
  }
  const last = keys[keys.length - 1]!
  if (value === undefined) delete cur[last]
  else cur[last] = value
}
