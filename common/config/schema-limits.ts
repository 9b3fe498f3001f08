import { createContext, Script } from 'node:vm'
import type { SchemaLimitSettings } from './types'

/**
 * Bounds on what a payload is generated from: a product schema comes from the target, and a hostile one must give a
 * clear failure within seconds, not a hung worker or an exhausted memory (docs/reliability.md).
 */
export type SchemaLimits = SchemaLimitSettings

/** The defaults; a profile's `schemaLimits` changes any of them (fixtures/targets/profile.schema.json). */
export const SCHEMA_LIMITS: Readonly<SchemaLimits> = Object.freeze({
  /** minLength / maxLength a generated string is held to. */
  maxStringLength: 65_536,
  /** minItems / minProperties a generated value is held to. */
  maxItems: 1000,
  /** {n} / {n,m} in a pattern. */
  maxQuantifier: 1000,
  /** Nesting of the schema itself. */
  maxDepth: 64,
  /** Schema nodes walked at most. */
  maxNodes: 50_000,
  /** One generation, all its retries included. */
  generatorDeadlineMs: 5000,
})

/** A schema the generator refuses: the message names the keyword and where it is. */
export class SchemaLimitError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SchemaLimitError'
  }
}

function sizeKeywords(limits: SchemaLimits): Record<string, number> {
  return {
    minLength: limits.maxStringLength,
    minItems: limits.maxItems,
    minProperties: limits.maxItems,
    minContains: limits.maxItems,
  }
}

/** Where a schema goes beyond the limits ("/properties/name/minLength: 300000000 exceeds the cap of 65536"). */
export function schemaLimitProblems(schema: unknown, limits: SchemaLimits = SCHEMA_LIMITS): string[] {
  const SIZE_KEYWORDS = sizeKeywords(limits)
  const problems: string[] = []
  const stack: { node: unknown; path: string; depth: number }[] = [{ node: schema, path: '', depth: 0 }]
  let nodes = 0
  while (stack.length > 0 && problems.length < 10) {
    const { node, path, depth } = stack.pop()!
    if (node === null || typeof node !== 'object') continue
    nodes += 1
    if (nodes > limits.maxNodes) {
      problems.push(`the schema has more than ${limits.maxNodes} nodes`)
      break
    }
    if (depth > limits.maxDepth) {
      problems.push(`${path || '/'}: nested deeper than ${limits.maxDepth} levels`)
      continue
    }
    for (const [k, v] of Object.entries(node)) {
      const at = `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`
      const cap = SIZE_KEYWORDS[k]
      if (cap !== undefined && typeof v === 'number' && v > cap)
        problems.push(`${at}: ${v} exceeds the generator's cap of ${cap}`)
      if (k === 'pattern' && typeof v === 'string') {
        const big = quantifierBeyond(v, limits.maxQuantifier)
        if (big !== undefined)
          problems.push(`${at}: repetition {${big}} exceeds the generator's cap of ${limits.maxQuantifier}`)
      }
      if (v !== null && typeof v === 'object') stack.push({ node: v, path: at, depth: depth + 1 })
    }
  }
  if (problems.length < 10) problems.push(...referenceProblems(schema, limits).slice(0, 10 - problems.length))
  return problems
}

/** The first {n} or {n,m} of a pattern with a bound past max, if any. */
function quantifierBeyond(pattern: string, max: number): string | undefined {
  for (const m of pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    if (Number(m[1]) > max || (m[2] !== undefined && m[2] !== '' && Number(m[2]) > max)) return m[0].slice(1, -1)
  }
  return undefined
}

/** Throws SchemaLimitError naming every place where the schema goes beyond the limits. */
export function assertWithinLimits(schema: unknown, what: string, limits: SchemaLimits = SCHEMA_LIMITS): void {
  const problems = schemaLimitProblems(schema, limits)
  if (problems.length > 0)
    throw new SchemaLimitError(`${what} refused (a hostile or broken schema): ${problems.join('; ')}`)
}

/**
 * Runs synchronous generation under a deadline: V8 stops it where it is (a loop, a regular expression) when the time
 * is up, and the caller gets a clear error instead of a worker blocked for ever.
 */
export function withinDeadline<T>(what: string, ms: number, run: () => T): T {
  // a context of its own per call costs ~5 ms; one empty context per worker holds nothing between calls
  const box = (DEADLINE.context ??= createContext({})) as { run?: () => T }
  box.run = run
  try {
    return CALL.runInContext(box, { timeout: ms }) as T
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new SchemaLimitError(
        `${what} did not finish within ${ms} ms and was stopped (a hostile or pathological schema)`,
      )
    }
    throw e
  } finally {
    delete box.run
  }
}

const CALL = new Script('run()')
/** The empty context the calls run in (created on first use; it keeps nothing between calls). */
const DEADLINE: { context?: object } = {}

const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef']
/** Keywords whose subschemas apply to the same value: a cycle through these alone never ends (no value is consumed). */
const SAME_VALUE = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']

/** Keywords whose values are data, not schemas (a `$ref` key in an example is no reference). */
const DATA_KEYWORDS = ['enum', 'const', 'examples', 'default', 'example']

const escapePointer = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1')

function resolveLocal(root: unknown, fragment: string): unknown {
  if (fragment === '' || fragment === '#') return root
  if (!fragment.startsWith('#/')) return undefined
  let node: unknown = root
  for (const raw of fragment.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

/**
 * Where a target's schema refers to what the suite will not follow or cannot end (docs/reliability.md): a reference
 * outside the document (a URL, a relative file, a `$id` of an embedded resource: nothing is ever fetched), a local
 * reference that resolves to nothing, and a cycle of references that consumes no value (`#/a` -> `#/b` -> `#/a`,
 * `{"$ref": "#"}` at the root, `allOf: [{"$ref": "#"}]`), which would exhaust the stack of the generator and the
 * validator. A recursive schema that goes through `properties` or `items` (a tree) is fine. Each problem names the
 * JSON pointer of the keyword.
 */
export function referenceProblems(schema: unknown, limits: SchemaLimits = SCHEMA_LIMITS): string[] {
  const problems: string[] = []
  const refs: { at: string; target: string }[] = []
  const stack: { node: unknown; path: string; depth: number }[] = [{ node: schema, path: '', depth: 0 }]
  let nodes = 0
  while (stack.length > 0 && problems.length < 10 && nodes <= limits.maxNodes) {
    const { node, path, depth } = stack.pop()!
    if (node === null || typeof node !== 'object' || depth > limits.maxDepth) continue
    nodes += 1
    for (const [k, v] of Object.entries(node)) {
      const at = `${path}/${escapePointer(k)}`
      if (REF_KEYWORDS.includes(k) && typeof v === 'string') {
        if (!v.startsWith('#'))
          problems.push(
            `${at}: reference "${v.slice(0, 200)}" is outside the schema (remote references are never fetched)`,
          )
        else if (resolveLocal(schema, v) === undefined)
          problems.push(`${at}: reference "${v.slice(0, 200)}" resolves to nothing in the schema`)
        else refs.push({ at, target: v === '#' ? '' : decodeURIComponent(v.slice(1)) })
      }
      if (k === '$id' && typeof v === 'string' && path !== '' && !v.startsWith('#')) {
        problems.push(
          `${at}: embedded schema resource "${v.slice(0, 200)}" (references across resources are never followed)`,
        )
      }
      if (v !== null && typeof v === 'object' && !DATA_KEYWORDS.includes(k))
        stack.push({ node: v, path: at, depth: depth + 1 })
    }
  }
  // the cycles that consume no value: from each reference, follow references and same-value keywords only
  const sameValueNext = (pointer: string): { via: string; to: string }[] => {
    const node = resolveLocal(schema, pointer === '' ? '#' : `#${pointer}`)
    if (node === null || typeof node !== 'object') return []
    const out: { via: string; to: string }[] = []
    const n = node as Record<string, unknown>
    if (typeof n.$ref === 'string' && n.$ref.startsWith('#') && resolveLocal(schema, n.$ref) !== undefined)
      out.push({ via: `${pointer}/$ref`, to: n.$ref === '#' ? '' : decodeURIComponent(n.$ref.slice(1)) })
    for (const k of SAME_VALUE) {
      const v = n[k]
      if (Array.isArray(v)) v.forEach((_, i) => out.push({ via: `${pointer}/${k}/${i}`, to: `${pointer}/${k}/${i}` }))
      else if (v !== null && typeof v === 'object') out.push({ via: `${pointer}/${k}`, to: `${pointer}/${k}` })
    }
    return out
  }
  const reported = new Set<string>()
  for (const r of refs) {
    if (problems.length >= 10) break
    // from the node holding the reference, along references and same-value keywords: back at it is a cycle
    const from = r.at.slice(0, -'/$ref'.length)
    const seen = new Set<string>()
    const queue: { to: string; chain: string[] }[] = [{ to: r.target, chain: [r.at] }]
    while (queue.length > 0 && seen.size < 1000) {
      const { to, chain } = queue.shift()!
      if (to === from) {
        const key = [...chain].sort().join(' ')
        if (!reported.has(key)) {
          reported.add(key)
          problems.push(
            `${r.at}: a cycle of references that consumes no value and never ends ` +
              `(${chain.map((c) => c.slice(0, -'/$ref'.length) || '#').join(' -> ')} -> back)`,
          )
        }
        break
      }
      if (seen.has(to)) continue
      seen.add(to)
      for (const next of sameValueNext(to))
        queue.push({ to: next.to, chain: next.via.endsWith('/$ref') ? [...chain, next.via] : chain })
    }
  }
  return problems
}
