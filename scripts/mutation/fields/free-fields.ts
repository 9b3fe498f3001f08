/**
 * Free fields: the answer fields nothing determines (a message, a description), which no check may judge. Read from
 * the oracle's table of answer sources when the project has one (helpers/oracle/answer-sources.ts: every entry whose
 * source is `free`), and from a file given with --free; without either, no field is free (every field counts).
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { PROJECT_ROOT } from '../../../common/config/target-config'
import { parseJsonc } from '../../../common/config/jsonc'
import { pathSegments } from '../../../reference/variations/field-paths'
import type { FieldKey } from './types'

/**
 * One free field (or pattern): `*` in operation or status matches any, `4xx` a status class; in a path `*` one segment,
 * `**` any number.
 */
export interface FreeField {
  operation: string
  status?: number | string
  path: string
  reason?: string
}

export interface FreeList {
  fields: FreeField[]
  /** Where they came from, for the report. */
  source: string
}

/** The oracle's table of answer sources (issue 39), relative to the project. */
export const ANSWER_SOURCES_MODULE = 'helpers/oracle/answer-sources.ts'

/** A path in pointer form with `*` items: accepts `/a/*\/b`, `/a/-/b`, `a.b[].c`, `a.b[*].c`, `$.a.b[0].c`. */
export function normalisePath(path: string): string {
  const p = path.trim()
  if (p === '' || p === '/' || p === '$') return ''
  if (p.startsWith('/'))
    return `/${pathSegments(p)
      .map((s) => (s === '-' || /^\d+$/.test(s) ? '*' : s).replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/')}`
  const dotted = p.replace(/^\$\.?/, '').replace(/\[(\*|\d*)\]/g, '.*')
  return `/${dotted.split('.').filter(Boolean).join('/')}`
}

function segmentsMatch(pattern: string[], path: string[]): boolean {
  if (pattern.length === 0) return path.length === 0
  const [head, ...rest] = pattern
  if (head === '**') return path.some((_, i) => segmentsMatch(rest, path.slice(i))) || segmentsMatch(rest, [])
  if (path.length === 0) return false
  return (head === '*' || head === path[0]) && segmentsMatch(rest, path.slice(1))
}

/** Whether a free field (pattern) covers a field of the map. */
export function matchesFree(f: FreeField, k: FieldKey): boolean {
  if (f.operation !== '*' && f.operation !== k.operation) return false
  if (
    f.status !== undefined &&
    f.status !== '*' &&
    String(f.status) !== String(k.status) &&
    !(
      /^[1-5]xx$/.test(String(f.status)) &&
      String(k.status)[0] === String(f.status)[0] &&
      /^\d{3}$/.test(String(k.status))
    )
  )
    return false
  return segmentsMatch(pathSegments(normalisePath(f.path)), pathSegments(k.path))
}

/** The free field covering k, if any. */
export function freeFieldOf(list: readonly FreeField[], k: FieldKey): FreeField | undefined {
  return list.find((f) => matchesFree(f, k))
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

const OP_KEY = /^(\*|[a-z][\w-]*(?:\.[\w-]+)+)(?:\s+(\d{3}|[1-5]xx|\*|sent))?$/

/**
 * The free entries of a table of answer sources, whatever its nesting: any object with a path (`path`, `pointer` or
 * `field`) whose `source` (or `kind`) is `free`, or that says `free: true`; its operation and status are its own
 * (`operation`/`op`/`operationId`, `status`) or those of the key it is filed under (`"sales.quote.create"`,
 * `"sales.quote.create 200"`); its path may be the key it is filed under too (`"/data/message"`).
 */
export function freeEntriesOf(table: unknown): FreeField[] {
  const out: FreeField[] = []
  const walk = (v: unknown, ctx: { operation?: string; status?: string; path?: string }, depth: number): void => {
    if (depth > 8) return
    if (Array.isArray(v)) return v.forEach((x) => walk(x, ctx, depth + 1))
    if (!isObject(v)) return
    const operation = [v.operation, v.op, v.operationId].find((x) => typeof x === 'string') as string | undefined
    const status = typeof v.status === 'number' || typeof v.status === 'string' ? String(v.status) : undefined
    const path = ([v.path, v.pointer, v.field].find((x) => typeof x === 'string') as string | undefined) ?? ctx.path
    const here = { operation: operation ?? ctx.operation, status: status ?? ctx.status }
    const source =
      typeof v.source === 'string'
        ? v.source
        : isObject(v.source) && typeof v.source.kind === 'string'
          ? v.source.kind
          : typeof v.kind === 'string'
            ? v.kind
            : undefined
    if (path !== undefined && (source === 'free' || v.free === true) && here.operation) {
      const reason = [v.reason, v.why, v.clause, v.because].find((x) => typeof x === 'string') as string | undefined
      out.push({
        operation: here.operation,
        ...(here.status ? { status: here.status } : {}),
        path,
        ...(reason ? { reason } : {}),
      })
    }
    for (const [k, child] of Object.entries(v)) {
      const m = OP_KEY.exec(k)
      // filed under its operation ("sales.quote.create 200") or under its path ("/data/message")
      walk(
        child,
        m ? { operation: m[1], ...(m[2] ? { status: m[2] } : {}) } : k.startsWith('/') ? { ...here, path: k } : here,
        depth + 1,
      )
    }
  }
  walk(table, {}, 0)
  return out
}

/**
 * A --free file: a JSON(C) array (or `{ "free": [...] }`) of free fields, or of strings `<operation> [<status>]
 * <path>`.
 */
export function parseFreeFile(text: string): FreeField[] {
  const v = parseJsonc(text) as unknown
  const list = Array.isArray(v) ? v : isObject(v) && Array.isArray(v.free) ? v.free : undefined
  if (!list) throw new Error('a free-fields file is a JSON array, or an object with a "free" array')
  return list.map((item, i) => {
    if (typeof item === 'string') {
      const parts = item.trim().split(/\s+/)
      if (parts.length === 2) return { operation: parts[0]!, path: parts[1]! }
      if (parts.length === 3) return { operation: parts[0]!, status: parts[1]!, path: parts[2]! }
    } else if (isObject(item) && typeof item.operation === 'string' && typeof item.path === 'string') {
      return {
        operation: item.operation,
        path: item.path,
        ...(item.status !== undefined ? { status: item.status as number | string } : {}),
        ...(typeof item.reason === 'string' ? { reason: item.reason } : {}),
      }
    }
    throw new Error(
      `free field #${i + 1}: expected "<operation> [<status>] <path>" or { operation, status?, path, reason? }`,
    )
  })
}

/**
 * The free fields of this run: the oracle's table (when the module exists), plus the --free file (when given). Without
 * either, none: every field counts as non-free.
 */
export async function loadFreeFields(o: { file?: string; root?: string } = {}): Promise<FreeList> {
  const root = o.root ?? PROJECT_ROOT
  const fields: FreeField[] = []
  const sources: string[] = []
  const module = resolve(root, ANSWER_SOURCES_MODULE)
  if (existsSync(module)) {
    const table = (await import(pathToFileURL(module).href)) as Record<string, unknown>
    const found = freeEntriesOf(Object.fromEntries(Object.entries(table).filter(([k]) => k !== 'default')))
    fields.push(...found)
    sources.push(`${ANSWER_SOURCES_MODULE} (${found.length} free)`)
  }
  if (o.file) {
    const found = parseFreeFile(readFileSync(resolve(o.file), 'utf8'))
    fields.push(...found)
    sources.push(`${o.file} (${found.length} free)`)
  }
  return {
    fields,
    source:
      sources.length > 0
        ? sources.join(' + ')
        : 'none: no table of answer sources and no --free file, every field counts as non-free',
  }
}
