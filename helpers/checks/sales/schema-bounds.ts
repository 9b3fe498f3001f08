import { escapePointerToken as escape } from '../../client/data/json-pointer'
/**
 * The value bounds a product schema publishes on the fields a quote carries (issue 39): a payload with each carried
 * value at a bound, and payloads with one value just past a bound. Pure functions: the checks that use them
 * (suites/sales/payloads.test.ts, SL-PAY-002..004) send the payloads and judge the answers.
 *
 * Bounds used: minimum/maximum on integers and numbers (inclusive; a number's step is 0.01), minLength/maxLength on
 * strings without a pattern, format, enum or const (a string of another length must stay valid otherwise), and
 * minItems/maxItems on arrays. A field with an enum, const or multipleOf is left alone.
 */

type Json = Record<string, unknown>
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

/** One bound of the schema at one place of the payload. */
export interface BoundAt {
  /** JSON pointer into the payload. */
  pointer: string
  keyword: 'minimum' | 'maximum' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems'
  bound: number
}

/** A value just past one bound: the payload's value at `pointer` replaced by `value`. */
export interface PastBound extends BoundAt {
  value: unknown
  /** A list made shorter (minItems): its items' own edits cannot be sent with it. */
  shrinks: boolean
}

const num = (s: Json, k: string): number | undefined => (typeof s[k] === 'number' ? (s[k] as number) : undefined)
const free = (s: Json) => !('enum' in s) && !('const' in s) && !('multipleOf' in s)
const freeString = (s: Json) => free(s) && !('pattern' in s) && !('format' in s)
const isInt = (s: Json) => s['type'] === 'integer'
const numeric = (s: Json) => s['type'] === 'integer' || s['type'] === 'number'
/** A number's step: 1 for integers, a cent for numbers. */
const step = (s: Json) => (isInt(s) ? 1 : 0.01)
const round = (n: number) => Math.round(n * 100) / 100
/**
 * A string of exactly n characters from s (cut, or padded with its own characters, or 'a'), counted as JSON Schema
 * counts them: code points (an emoji is one).
 */
function ofLength(s: string, n: number): string {
  if (n <= 0) return ''
  const base = s.length > 0 ? [...s] : ['a']
  return Array.from({ length: n }, (_, i) => base[i % base.length]).join('')
}
const usableBound = (s: Json, n: number | undefined): n is number =>
  n !== undefined && Number.isFinite(n) && (!isInt(s) || Number.isInteger(n))

/**
 * Visits every value of the payload with the schema that governs it (object properties the payload carries, every
 * item of an array), parents before children.
 */
function walk(schema: unknown, doc: unknown, at: string, each: (s: Json, v: unknown, at: string) => void): void {
  if (!isObj(schema)) return
  each(schema, doc, at)
  if (Array.isArray(doc)) {
    if (isObj(schema['items'])) doc.forEach((item, i) => walk(schema['items'], item, `${at}/${i}`, each))
    return
  }
  if (!isObj(doc) || !isObj(schema['properties'])) return
  for (const [k, sub] of Object.entries(schema['properties']))
    if (k in doc) walk(sub, doc[k], `${at}/${escape(k)}`, each)
}

/**
 * Sets, in place, every carried value to its bound on one side: 'upper' (maximum, maxLength) or 'lower' (minimum,
 * minLength, and each list cut to its minItems). Returns the bounds it used. Lists are not grown here (SL-PAY-002
 * fills the insured-object lists to their maxItems itself).
 */
export function setAtBounds(schema: unknown, doc: unknown, side: 'upper' | 'lower'): BoundAt[] {
  const used: BoundAt[] = []
  const set = (parent: unknown, key: string, v: unknown) => {
    if (Array.isArray(parent)) parent[Number(key)] = v
    else if (isObj(parent)) parent[key] = v
  }
  const visit = (schema: unknown, parent: unknown, key: string, at: string): void => {
    if (!isObj(schema)) return
    const value = Array.isArray(parent) ? parent[Number(key)] : isObj(parent) ? parent[key] : undefined
    if (numeric(schema) && typeof value === 'number' && free(schema)) {
      const keyword = side === 'upper' ? 'maximum' : 'minimum'
      const bound = num(schema, keyword)
      if (usableBound(schema, bound)) {
        set(parent, key, bound)
        used.push({ pointer: at, keyword, bound })
      }
      return
    }
    if (schema['type'] === 'string' && typeof value === 'string' && freeString(schema)) {
      const keyword = side === 'upper' ? 'maxLength' : 'minLength'
      const bound = num(schema, keyword)
      if (bound !== undefined && Number.isInteger(bound) && bound >= 0 && bound <= 10_000) {
        set(parent, key, ofLength(value, bound))
        used.push({ pointer: at, keyword, bound })
      }
      return
    }
    if (Array.isArray(value)) {
      const min = num(schema, 'minItems')
      if (side === 'lower' && min !== undefined && Number.isInteger(min) && min >= 1 && value.length > min) {
        value.length = min
        used.push({ pointer: at, keyword: 'minItems', bound: min })
      }
      if (isObj(schema['items'])) value.forEach((_, i) => visit(schema['items'], value, String(i), `${at}/${i}`))
      return
    }
    if (isObj(value) && isObj(schema['properties']))
      for (const [k, sub] of Object.entries(schema['properties']))
        if (k in value) visit(sub, value, k, `${at}/${escape(k)}`)
  }
  visit(schema, { '': doc }, '', '')
  return used
}

/**
 * The values just past each bound the schema publishes on a carried field (one per bound and place of the schema:
 * an array's first item stands for its items): a number one step past, a string one character shorter or longer, a
 * list one item shorter or longer.
 */
export function pastBounds(schema: unknown, doc: unknown): PastBound[] {
  const out: PastBound[] = []
  walk(schema, doc, '', (s, v, at) => {
    // only the first item of a list stands for the list's items
    if (/\/[1-9][0-9]*(\/|$)/.test(at)) return
    const add = (keyword: BoundAt['keyword'], bound: number, value: unknown, shrinks = false) =>
      out.push({ pointer: at, keyword, bound, value, shrinks })
    if (numeric(s) && typeof v === 'number' && free(s)) {
      const min = num(s, 'minimum')
      const max = num(s, 'maximum')
      if (usableBound(s, min)) add('minimum', min, round(min - step(s)))
      if (usableBound(s, max)) add('maximum', max, round(max + step(s)))
    } else if (s['type'] === 'string' && typeof v === 'string' && freeString(s)) {
      const min = num(s, 'minLength')
      const max = num(s, 'maxLength')
      if (min !== undefined && Number.isInteger(min) && min >= 1) add('minLength', min, ofLength(v, min - 1))
      if (max !== undefined && Number.isInteger(max) && max >= 0 && max < 10_000)
        add('maxLength', max, ofLength(v, max + 1))
    } else if (Array.isArray(v) && v.length > 0) {
      const min = num(s, 'minItems')
      const max = num(s, 'maxItems')
      if (min !== undefined && Number.isInteger(min) && min >= 1 && min <= 20)
        add('minItems', min, structuredClone(v.slice(0, min - 1)), true)
      // a list past its maxItems repeats its items: not where the items must be unique
      if (max !== undefined && Number.isInteger(max) && max >= 0 && max < 20 && s['uniqueItems'] !== true)
        add(
          'maxItems',
          max,
          Array.from({ length: max + 1 }, (_, i) => structuredClone(v[i % v.length])),
        )
    }
  })
  return out
}

/** "/objects/building/0/floorArea" -> "objects.building.0.floorArea". */
export const dotted = (pointer: string): string =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.')

/**
 * Whether an error key of a validation answer names the field at the pointer: the dotted path, with or without the
 * list indexes, a JSON pointer, or a bracketed index form.
 */
export function keyNames(key: string, pointer: string): boolean {
  const norm = key
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/\//g, '.')
    .replace(/^\.+/, '')
  const field = dotted(pointer)
  const noIndex = field
    .split('.')
    .filter((p) => !/^\d+$/.test(p))
    .join('.')
  return norm === field || norm === noIndex || norm.endsWith(`.${field}`)
}

/**
 * Repeats, in place, the first item of every carried list of scalars whose schema does not ask for unique items
 * (`uniqueItems` absent or false) and has room for one more (under its maxItems). Returns the pointers of those lists.
 */
export function repeatItems(schema: unknown, doc: unknown): string[] {
  const out: string[] = []
  walk(schema, doc, '', (s, v, at) => {
    if (!Array.isArray(v) || v.length === 0 || s['uniqueItems'] === true) return
    if (v.some((x) => x !== null && typeof x === 'object')) return
    const max = num(s, 'maxItems')
    if (max !== undefined && v.length >= max) return
    v.push(v[0])
    out.push(at)
  })
  return out
}

/**
 * Adds, in place, every optional property the payload leaves out whose schema has a bound this module tries (a number
 * or integer with minimum or maximum, a string with minLength or maxLength and no pattern, format, enum or const), at
 * a value inside its bounds, in the objects the payload carries; not a readOnly or writeOnly one. So the bounds are
 * tried whatever fields the generator happened to fill. Returns the pointers added.
 */
export function addBoundedOptionals(schema: unknown, doc: unknown): string[] {
  const out: string[] = []
  walk(schema, doc, '', (s, v, at) => {
    if (!isObj(v) || !isObj(s['properties'])) return
    for (const [k, sub] of Object.entries(s['properties'])) {
      if (k in v || !isObj(sub) || sub['readOnly'] === true || sub['writeOnly'] === true) continue
      const min = num(sub, numeric(sub) ? 'minimum' : 'minLength')
      const max = num(sub, numeric(sub) ? 'maximum' : 'maxLength')
      if (numeric(sub) && free(sub) && (usableBound(sub, min) || usableBound(sub, max)))
        v[k] = usableBound(sub, min) ? min : max
      else if (sub['type'] === 'string' && freeString(sub) && (min !== undefined || max !== undefined)) {
        const n = Math.max(min ?? 1, 1)
        if (max !== undefined && n > max) continue
        v[k] = ofLength('a', n)
      } else continue
      out.push(`${at}/${escape(k)}`)
    }
  })
  return out
}
