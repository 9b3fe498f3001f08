/**
 * The JSON paths of an answer and the perturbation of one of them (field-perturbation mutation, docs/mutation.md
 * "Field sensitivity"). Pure functions, no state: the field probe (field-probe.ts) and the harness
 * (scripts/mutation/fields/) share them.
 *
 * A path is a JSON pointer (RFC 6901) in which every array index is `*`: `/data/invoices/*\/amount` names the amount of
 * every invoice. The leaves of a value are its scalars (strings, numbers, booleans, null) and its empty arrays and
 * objects; a non-empty container is reached through its leaves.
 */

/** How a value is perturbed: by its type and size (and, for an id, by the name of its field). */
export type PerturbationKind = 'date' | 'date-time' | 'id' | 'integer' | 'decimal' | 'boolean' | 'string' | 'drop'

export const PERTURBATION_KINDS: readonly PerturbationKind[] = [
  'date',
  'date-time',
  'id',
  'integer',
  'decimal',
  'boolean',
  'string',
  'drop',
]

/** What each kind does, for the reports. */
export const PERTURBATION_MEANING: Record<PerturbationKind, string> = {
  date: 'a date moved one day later',
  'date-time': 'a date-time moved one hour later (same format and offset)',
  id:
    'an id changed to another id: one the same field gave in an earlier answer, or for the first answer one of the ' +
    'same shape (an integer plus one, a string with its last letter or digit changed)',
  integer: 'an integer plus one',
  decimal: 'a decimal number plus one cent (0.01)',
  boolean: 'a boolean flipped',
  string: 'a string with its last letter or digit changed (same length, same class of character)',
  drop: 'the field dropped (a null, an empty array or object)',
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** One segment of a pointer, escaped (RFC 6901: ~ as ~0, / as ~1). */
export function escapeSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** The segments of a pointer, unescaped ('' is the root: no segment). */
export function pathSegments(path: string): string[] {
  if (path === '') return []
  if (!path.startsWith('/')) throw new Error(`field path '${path}': a JSON pointer starts with /`)
  return path
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
}

/** Calls visit(path, value) for every leaf of value (arrays' items as `*`), depth first, in key order. */
export function visitLeaves(value: unknown, visit: (path: string, leaf: unknown) => void, prefix = ''): void {
  if (Array.isArray(value)) {
    if (value.length === 0) return visit(prefix, value)
    for (const item of value) visitLeaves(item, visit, `${prefix}/*`)
    return
  }
  if (isObject(value)) {
    const keys = Object.keys(value)
    if (keys.length === 0) return visit(prefix, value)
    for (const k of keys) visitLeaves(value[k], visit, `${prefix}/${escapeSegment(k)}`)
    return
  }
  visit(prefix, value)
}

/** The distinct leaf paths of a value, sorted. */
export function leafPaths(value: unknown): string[] {
  const out = new Set<string>()
  visitLeaves(value, (p) => out.add(p))
  return [...out].sort()
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i

/** The field name a path ends with (`*` for an array item: then the array's own name decides). */
function fieldName(path: string): string {
  const segs = pathSegments(path).filter((s) => s !== '*')
  return segs[segs.length - 1] ?? ''
}

/** A field that holds an id by its name: id, policyId, subscription_id, quoteIds (an item of it), ... */
export function isIdField(path: string): boolean {
  const name = fieldName(path)
  const items = path.endsWith('/*')
  return /^id$|[a-z0-9]Id$|_id$|[a-z0-9]ID$/.test(name) || (items && /[a-z0-9]Ids$|_ids$/.test(name))
}

/** The kind of perturbation a value at a path gets. */
export function perturbationKind(path: string, value: unknown): PerturbationKind {
  if (value === null || value === undefined || Array.isArray(value) || isObject(value)) return 'drop'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'number')
    return isIdField(path) && Number.isInteger(value) ? 'id' : Number.isInteger(value) ? 'integer' : 'decimal'
  if (typeof value === 'string') {
    if (DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return 'date'
    if (DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))) return 'date-time'
    if (isIdField(path)) return 'id'
    return 'string'
  }
  return 'drop'
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** A date one day later (YYYY-MM-DD). */
export function shiftDate(value: string): string {
  const m = DATE.exec(value)
  if (!m) throw new Error(`not a date: ${value}`)
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1))
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
}

/**
 * A date-time one hour later, written as it was: the same precision, the same offset (its wall clock moves an hour).
 */
export function shiftDateTime(value: string): string {
  const m = DATE_TIME.exec(value)
  if (!m) throw new Error(`not a date-time: ${value}`)
  const [, y, mo, d, h, mi, s, frac, zone] = m
  // the wall clock as written, moved by an hour; the offset is kept as written
  const t = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h) + 1, Number(mi), Number(s ?? 0)))
  const sep = value[10]!
  const date = `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`
  const time = `${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}${s !== undefined ? `:${pad(t.getUTCSeconds())}` : ''}${frac ?? ''}`
  return `${date}${sep}${time}${zone ?? ''}`
}

/**
 * Changes the last letter or digit of a string to the next of its class (a..z, A..Z, 0..9, wrapping); appends "x" when
 * it has none.
 */
export function alterString(value: string): string {
  const chars = [...value]
  for (let i = chars.length - 1; i >= 0; i -= 1) {
    const c = chars[i]!
    let next: string | undefined
    if (c >= '0' && c <= '9') next = c === '9' ? '0' : String.fromCharCode(c.charCodeAt(0) + 1)
    else if (c >= 'a' && c <= 'z') next = c === 'z' ? 'a' : String.fromCharCode(c.charCodeAt(0) + 1)
    else if (c >= 'A' && c <= 'Z') next = c === 'Z' ? 'A' : String.fromCharCode(c.charCodeAt(0) + 1)
    if (next !== undefined) {
      chars[i] = next
      return chars.join('')
    }
  }
  return `${value}x`
}

/** Decimals written in a number (0.125 -> 3). */
function decimals(n: number): number {
  const s = String(n)
  if (/e-/i.test(s)) return Number(/e-(\d+)/i.exec(s)![1]) + (s.split('e')[0]!.split('.')[1]?.length ?? 0)
  return s.split('.')[1]?.length ?? 0
}

/** A decimal plus one cent, rounded to its own precision (at least cents), so no float noise is added. */
export function addCent(n: number): number {
  const d = Math.max(2, decimals(n))
  return Number((n + 0.01).toFixed(d))
}

/** An id of the same shape: an integer plus one, a numeric string plus one (same width), any other string altered. */
export function otherId(value: string | number): string | number {
  if (typeof value === 'number') return value + 1
  if (/^\d+$/.test(value)) {
    const next = (BigInt(value) + 1n).toString()
    return next.length <= value.length ? next.padStart(value.length, '0') : alterString(value)
  }
  return alterString(value)
}

/**
 * Ids a field showed so far, for its next perturbation: an id becomes one the same place showed the client before
 * (another resource's: a stale or mixed-up id), and the first one, when there is none yet, the next id. A new id that
 * nothing refers to again (an event id, say) is judged only by being new; an unused next id would be an answer as
 * right as the service's (an equivalent mutant), an id given before is not.
 */
export class IdMemory {
  /** The ids the client was shown at this place so far (the perturbed ones: what it saw). */
  private readonly shown: (string | number)[] = []

  /** Another id for `value`: one shown before, of the same type, or otherId(value). */
  other(value: string | number): string | number {
    const id = this.shown.find((v) => v !== value && typeof v === typeof value) ?? otherId(value)
    if (!this.shown.includes(id)) this.shown.push(id)
    return id
  }
}

/** The perturbed value (undefined: the field is dropped); an id from `ids` when given (IdMemory). */
export function perturbValue(path: string, value: unknown, ids?: IdMemory): { kind: PerturbationKind; value: unknown } {
  const kind = perturbationKind(path, value)
  switch (kind) {
    case 'date':
      return { kind, value: shiftDate(value as string) }
    case 'date-time':
      return { kind, value: shiftDateTime(value as string) }
    case 'id':
      return { kind, value: ids ? ids.other(value as string | number) : otherId(value as string | number) }
    case 'integer':
      return { kind, value: (value as number) + 1 }
    case 'decimal':
      return { kind, value: addCent(value as number) }
    case 'boolean':
      return { kind, value: !(value as boolean) }
    case 'string':
      return { kind, value: alterString(value as string) }
    case 'drop':
      return { kind, value: undefined }
  }
}

export interface Applied {
  /** The perturbed copy (the input is never changed). */
  value: unknown
  /** How many values were perturbed (every array item on the way counts). */
  count: number
  /** The first value perturbed, before and after (after undefined: dropped). */
  first?: { kind: PerturbationKind; before: unknown; after: unknown }
}

/**
 * Perturbs every value at path (every item where the path says `*`): each by its kind; a dropped field is removed
 * (an array item dropped is removed from its array). Leaves the input unchanged; count 0 when the path is not there.
 */
export function perturbAt(root: unknown, path: string, ids?: IdMemory): Applied {
  const segs = pathSegments(path)
  const out: Applied = { value: root, count: 0 }
  const walk = (v: unknown, i: number, at: string): { value: unknown; drop?: true } => {
    if (i === segs.length) {
      const p = perturbValue(at, v, ids)
      out.count += 1
      out.first ??= { kind: p.kind, before: v, after: p.value }
      return p.kind === 'drop' ? { value: undefined, drop: true } : { value: p.value }
    }
    const seg = segs[i]!
    if (seg === '*') {
      if (!Array.isArray(v)) return { value: v }
      const items: unknown[] = []
      for (const item of v) {
        const r = walk(item, i + 1, `${at}/*`)
        if (!r.drop) items.push(r.value)
      }
      return { value: items }
    }
    if (!isObject(v) || !Object.hasOwn(v, seg)) return { value: v }
    const r = walk(v[seg], i + 1, `${at}/${escapeSegment(seg)}`)
    const copy: Record<string, unknown> = { ...v }
    if (r.drop) delete copy[seg]
    else copy[seg] = r.value
    return { value: copy }
  }
  const r = walk(root, 0, '')
  out.value = r.drop ? undefined : r.value
  return out
}
