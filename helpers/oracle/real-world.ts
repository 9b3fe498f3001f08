import { escapePointerToken } from '../client/data/json-pointer'
/**
 * Real-world data in generated payloads (issue 29, docs/sales.md "Real-world data"): within each schema's constraints
 * and seeded, free text becomes non-ASCII (accents, CJK, right-to-left, emoji) or as long as maxLength allows, decimal
 * numbers carry cents, bounded integers sit at a bound, free dates fall on 29 February, the 31st of a month or the last
 * day of a year. The text sent is in Unicode NFC: a service that normalises to NFC stores the same bytes
 * (docs/model.md).
 * The model classifies what was written with classesOf() and checks those leaves read back byte for byte (SL-INV-009).
 */

export const REAL_WORLD_CLASSES = [
  'accents',
  'cjk',
  'rtl',
  'emoji',
  'max-length',
  'cents',
  'bounds',
  'boundary-dates',
] as const
export type RealWorldClass = (typeof REAL_WORLD_CLASSES)[number]

type Json = Record<string, unknown>
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

/** Text samples per class (NFC). Names, streets and cities a real customer base has. */
const TEXT: Record<'accents' | 'cjk' | 'rtl' | 'emoji', readonly string[]> = {
  accents: [
    'Jürgen Ærøskøbing',
    'Šarūnas Žemaitė',
    'Õie Täht-Müür',
    'Łukasz Dąbrowski',
    'François Lefèvre',
    'Ñuñoa Pérez',
    'Þórunn Ægisdóttir',
  ],
  cjk: ['山田 太郎', '東京都港区', '李小龍', '김민준', '北京市朝阳区', '佐藤 花子'],
  rtl: ['דוד כהן', 'محمد العلي', 'תל אביב', 'شارع الملك فهد', 'שרה לוי'],
  emoji: ['Anna 🌻 Smith', 'Rose 🌹 Lane', 'Casa 🏠 Sol', 'Otto 🚲 Berg', 'Mia 🐟 Fisher'],
}

/** Boundary dates: a leap day, the 31st of a month, the last day of a year. */
const DATES = ['1992-02-29', '1988-12-31', '1975-01-31', '2000-02-29', '1969-08-31', '1999-12-31']

/** Code points, as JSON Schema counts string length. */
const lengthOf = (s: string) => [...s].length

function isNonAscii(s: string): boolean {
  return /[^\x00-\x7f]/.test(s)
}

/** The class of a text sample by its script (a text can hold several; each is named). */
function textClasses(s: string): RealWorldClass[] {
  const out: RealWorldClass[] = []
  if (/[\u00c0-\u024f]/.test(s)) out.push('accents')
  if (/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/.test(s)) out.push('cjk')
  if (/[\u0590-\u06ff]/.test(s)) out.push('rtl')
  if (/\p{Extended_Pictographic}/u.test(s)) out.push('emoji')
  return out
}

/** Whether a date string is a boundary date (29 February, the 31st, 31 December). */
function isBoundaryDate(s: string): boolean {
  const m = /^\d{4}-(\d{2})-(\d{2})$/.exec(s)
  return !!m && ((m[1] === '02' && m[2] === '29') || m[2] === '31')
}

/**
 * The real-world classes a written value belongs to, given its schema node when known: non-ASCII text by script, a
 * string at its maxLength, a non-integer number (cents), a number at its minimum or maximum, a boundary date. Empty
 * for ordinary values (judged by SL-INV-002 instead).
 */
export function classesOf(value: unknown, node?: unknown): RealWorldClass[] {
  const n = isObj(node) ? node : {}
  if (typeof value === 'string') {
    const out = isNonAscii(value) ? textClasses(value) : []
    if (typeof n['maxLength'] === 'number' && lengthOf(value) === n['maxLength'] && n['maxLength'] > 8)
      out.push('max-length')
    if (isBoundaryDate(value)) out.push('boundary-dates')
    return out
  }
  if (typeof value === 'number') {
    const out: RealWorldClass[] = []
    if (!Number.isInteger(value)) out.push('cents')
    if (
      (typeof n['minimum'] === 'number' && value === n['minimum']) ||
      (typeof n['maximum'] === 'number' && value === n['maximum'])
    )
      out.push('bounds')
    return out
  }
  return []
}

/**
 * The schema node at a JSON pointer of an instance (properties and items only; undefined where the schema branches).
 */
export function schemaAt(schema: unknown, pointer: string): unknown {
  let node: unknown = schema
  for (const raw of pointer.split('/').slice(1)) {
    if (!isObj(node)) return undefined
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (isObj(node['properties']) && key in node['properties']) node = node['properties'][key]
    else if (/^\d+$/.test(key) && isObj(node['items'])) node = node['items']
    else return undefined
  }
  return node
}

/** Fits a sample into [minLength, maxLength] code points: cut (never inside a surrogate pair) or padded. */
function fit(sample: string, min: number, max: number): string | undefined {
  let chars = [...sample]
  if (chars.length > max) chars = chars.slice(0, max)
  while (chars.length < min) chars.push(...[...' ÅÉ'].slice(0, min - chars.length))
  const s = chars.join('').trim()
  return lengthOf(s) >= min && lengthOf(s) <= max ? s.normalize('NFC') : undefined
}

/** A string of exactly `max` code points (letters and spaces, with a few accented ones). */
function atMaxLength(max: number, random: () => number): string {
  const words = ['Väike', 'Karja', 'tänav', 'Grand', 'Rue', 'de', 'la', 'Paix', 'Lõuna', 'Avenue']
  let s = ''
  while (lengthOf(s) < max) s += `${s ? ' ' : ''}${words[Math.floor(random() * words.length)]}`
  s = [...s].slice(0, max).join('')
  // no space at either end: some services trim
  return s.endsWith(' ') ? `${s.slice(0, -1)}x` : s
}

interface Plan {
  random: () => number
  /** The next text class in turn (rotates over the payload's free-text fields from a seeded start). */
  turn: number
}

const TEXT_TURNS = ['accents', 'cjk', 'rtl', 'emoji', 'max-length'] as const

/** A free-text string (no enum, const, pattern or format), where the real-world text may go. */
function freeText(n: Json): boolean {
  return n['type'] === 'string' && !('enum' in n) && !('const' in n) && !('pattern' in n) && !('format' in n)
}

function realString(n: Json, plan: Plan): string | undefined {
  const min = typeof n['minLength'] === 'number' ? n['minLength'] : 0
  const max = typeof n['maxLength'] === 'number' ? n['maxLength'] : 60
  const kind = TEXT_TURNS[plan.turn++ % TEXT_TURNS.length]!
  if (kind === 'max-length') return max > 8 && max <= 500 ? atMaxLength(max, plan.random) : undefined
  const pool = TEXT[kind]
  return fit(pool[Math.floor(plan.random() * pool.length)]!, min, max)
}

function realNumber(n: Json, value: number, plan: Plan): number | undefined {
  const min = typeof n['minimum'] === 'number' ? n['minimum'] : undefined
  const max = typeof n['maximum'] === 'number' ? n['maximum'] : undefined
  if (n['type'] === 'integer') {
    if (min === undefined && max === undefined) return undefined
    if ('multipleOf' in n) return undefined
    const pick = plan.random() < 0.5 ? (min ?? max) : (max ?? min)
    return pick
  }
  if (n['type'] !== 'number' || 'multipleOf' in n) return undefined
  const lo = Math.ceil(((min ?? 0) + 0.01) * 100)
  const hi = Math.floor(((max ?? (min ?? 0) + 1000) - 0.01) * 100)
  if (hi <= lo) return value
  // whole cents, never a whole number: 123.45
  let c = lo + Math.floor(plan.random() * (hi - lo))
  if (c % 100 === 0) c += c + 1 <= hi ? 1 : -1
  if (c % 10 === 0) c += c + 1 <= hi ? 1 : -1
  return c / 100
}

/**
 * Writes real-world values into a generated payload, where its schema (readOnly properties removed) leaves room:
 * every free-text string in turn (accents, CJK, right-to-left, emoji, at maxLength), every decimal number with cents,
 * about half of the bounded integers at a bound, every free `date` at a boundary date. Enums, constants, patterns and
 * other formats are left as generated. The caller validates the result against the schema.
 */
export function withRealWorldData(payload: unknown, schema: unknown, random: () => number): void {
  const plan: Plan = { random, turn: Math.floor(random() * TEXT_TURNS.length) }
  walk(payload, schema, plan)
}

function walk(value: unknown, node: unknown, plan: Plan): void {
  if (!isObj(node)) return
  if (Array.isArray(value) && isObj(node['items'])) {
    value.forEach((item, i) => {
      const next = replacement(item, node['items'] as Json, plan)
      if (next !== undefined) value[i] = next
      else walk(item, node['items'], plan)
    })
    return
  }
  if (!isObj(value) || !isObj(node['properties'])) return
  for (const [k, sub] of Object.entries(node['properties'])) {
    if (!Object.hasOwn(value, k) || !isObj(sub)) continue
    const next = replacement(value[k], sub, plan)
    if (next !== undefined) value[k] = next
    else walk(value[k], sub, plan)
  }
}

function replacement(value: unknown, n: Json, plan: Plan): unknown {
  if (typeof value === 'string' && freeText(n)) return realString(n, plan)
  if (typeof value === 'string' && n['type'] === 'string' && n['format'] === 'date' && !('enum' in n))
    return DATES[Math.floor(plan.random() * DATES.length)]
  if (typeof value === 'number' && !('enum' in n) && !('const' in n)) {
    if (n['type'] === 'integer' && plan.random() >= 0.5) return undefined
    return realNumber(n, value, plan)
  }
  return undefined
}

/** The classes of every leaf of a written document (pointer -> classes), by the product schema when known. */
export function realWorldLeaves(
  doc: unknown,
  schema: unknown,
  prefix = '',
  out = new Map<string, RealWorldClass[]>(),
): Map<string, RealWorldClass[]> {
  if (doc !== null && typeof doc === 'object') {
    const entries = Array.isArray(doc) ? doc.map((v, i) => [String(i), v] as const) : Object.entries(doc)
    for (const [k, v] of entries) realWorldLeaves(v, schema, `${prefix}/${escapePointerToken(k)}`, out)
    return out
  }
  const classes = classesOf(doc, schema !== undefined ? schemaAt(schema, prefix) : undefined)
  if (classes.length > 0) out.set(prefix, classes)
  return out
}
