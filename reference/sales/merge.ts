type Json = Record<string, unknown>

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/**
 * Partial update as the anchors describe it: objects merge, `null` removes a field, arrays under
 * `objects.{type}` merge item by item by `id` (items without an id are added), other arrays replace.
 * Returns a new document.
 */
export function mergeQuoteData(current: Json, patch: Json, newId: () => string, path: string[] = []): Json {
  const out: Json = structuredClone(current)
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else if (path.length === 1 && path[0] === 'objects' && Array.isArray(v)) {
      const items = Array.isArray(out[k]) ? (structuredClone(out[k]) as Json[]) : []
      for (const item of v as unknown[]) {
        if (!isObject(item)) continue
        const at = typeof item['id'] === 'string' ? items.findIndex((i) => i['id'] === item['id']) : -1
        if (at >= 0) items[at] = mergeQuoteData(items[at]!, item, newId, [...path, k, 'item'])
        else items.push({ ...item, id: newId() })
      }
      out[k] = items
    } else if (isObject(v) && isObject(out[k])) out[k] = mergeQuoteData(out[k] as Json, v, newId, [...path, k])
    else out[k] = structuredClone(v)
  }
  return out
}

/** Gives every item of objects.{type}[] an id (the server assigns them). */
export function assignObjectIds(data: Json, newId: () => string): void {
  const objects = data['objects']
  if (!isObject(objects)) return
  for (const list of Object.values(objects)) {
    if (!Array.isArray(list)) continue
    for (const item of list) if (isObject(item) && typeof item['id'] !== 'string') item['id'] = newId()
  }
}
