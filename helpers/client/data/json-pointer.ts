/** RFC 6901 JSON pointer lookup. Returns undefined when any step is missing. */
export function getPointer(doc: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/')
    return pointer === '' ? doc : (doc as Record<string, unknown> | undefined)?.['']
  if (!pointer.startsWith('/')) throw new Error(`JSON pointer must start with '/': ${pointer}`)
  let cur: unknown = doc
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<string, unknown>)[key]
  }
  return cur
}

/** The value at each pointer, keyed by the pointer (undefined where a pointer finds nothing). */
export function valuesAt(doc: unknown, pointers: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(pointers.map((p) => [p, getPointer(doc, p)]))
}

/** A key as a JSON pointer token (RFC 6901: `~` as `~0`, `/` as `~1`); a key with neither is kept as it is. */
export function escapePointerToken(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key
}
