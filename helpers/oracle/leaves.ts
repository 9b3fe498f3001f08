import { escapePointerToken } from '../client/data/json-pointer'
/** JSON documents as their leaves: JSON pointer -> primitive value (objects and arrays walked, empty ones kept). */
export type Leaves = Map<string, unknown>

export function leavesOf(doc: unknown, prefix = '', out: Leaves = new Map()): Leaves {
  if (doc !== null && typeof doc === 'object') {
    const entries = Array.isArray(doc) ? doc.map((v, i) => [String(i), v] as const) : Object.entries(doc)
    if (entries.length === 0) out.set(prefix, Array.isArray(doc) ? [] : {})
    for (const [k, v] of entries) leavesOf(v, `${prefix}/${escapePointerToken(k)}`, out)
  } else out.set(prefix, doc)
  return out
}

const under = (pointer: string, prefix: string) => pointer === prefix || pointer.startsWith(`${prefix}/`)

/**
 * The leaves expected after a partial update (the anchors' merge: objects merge, null removes, arrays under
 * /objects/{type} merge by item id, other arrays replace). Leaves the update makes unknowable (items of merged arrays)
 * are dropped.
 */
export function applyPatch(current: Leaves, patch: unknown, prefix = '', depth = 0): Leaves {
  const out = new Map(current)
  patchInto(out, patch, prefix, depth)
  return out
}

function drop(out: Leaves, prefix: string): void {
  for (const k of [...out.keys()]) if (under(k, prefix)) out.delete(k)
}

function patchInto(out: Leaves, patch: unknown, prefix: string, depth: number): void {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return
  for (const [k, v] of Object.entries(patch)) {
    const p = `${prefix}/${escapePointerToken(k)}`
    if (v === null) drop(out, p)
    else if (Array.isArray(v)) {
      drop(out, p)
      // items of /objects/{type} merge by id with server-assigned ids: what the array holds afterwards is not known
      if (!(depth === 1 && prefix === '/objects')) leavesOf(v, p, out)
    } else if (typeof v === 'object') {
      for (const key of [...out.keys()]) if (key === p) out.delete(key) // a primitive replaced by an object
      patchInto(out, v, p, depth + 1)
    } else {
      drop(out, p)
      out.set(p, v)
    }
  }
}
