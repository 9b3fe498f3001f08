import type { Ajv } from 'ajv'
import { createAjvFor, draftOf, formatAjvErrors, type SchemaDraft as Draft } from '../../../common/ajv'

/** An ajv for the draft the schema declares ($schema): 2020-12, 2019-09, else draft-07. */
export function ajvFor(schema: unknown): Ajv {
  return createAjvFor(schema)
}

/**
 * One ajv per draft for meta-schema checks, and the compile outcome by draft and schema text, shared by the suite
 * files of a worker: both are pure functions of the schema (the deliberate caches of common/data/schema-compiler.ts;
 * compiling a meta-schema costs tens of milliseconds, and every suite file of every target checks the same schemas).
 */
const metaAjv = new Map<Draft, Ajv>()
const compileOutcomes = new Map<string, string | undefined>()

/** Validates a document against its JSON Schema meta-schema. */
export function metaSchemaErrors(schema: unknown): string[] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return ['the schema is not a JSON object']
  const draft = draftOf(schema)
  let ajv = metaAjv.get(draft)
  if (!ajv) {
    ajv = ajvFor(schema)
    metaAjv.set(draft, ajv)
  }
  return ajv.validateSchema(schema as object) ? [] : formatAjvErrors(ajv.errors)
}

/** Compiles the schema (without its $id, so two copies can be compiled); returns the error message or undefined. */
export function compileError(schema: unknown): string | undefined {
  const key = `${draftOf(schema)} ${JSON.stringify(schema)}`
  if (compileOutcomes.has(key)) return compileOutcomes.get(key)
  let outcome: string | undefined
  try {
    const copy = { ...(schema as Record<string, unknown>) }
    delete copy['$id']
    ajvFor(schema).compile(copy)
  } catch (e) {
    outcome = (e as Error).message
  }
  compileOutcomes.set(key, outcome)
  return outcome
}

/** Every property path of a schema ("policy.dateInception", "objects.building[].sumInsured") with its declared type. */
export function propertyPaths(node: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  if (node === null || typeof node !== 'object') return out
  const n = node as Record<string, unknown>
  const props = n['properties']
  if (props && typeof props === 'object') {
    for (const [name, sub] of Object.entries(props as Record<string, unknown>)) {
      const path = prefix ? `${prefix}.${name}` : name
      out.set(path, JSON.stringify((sub as { type?: unknown } | null)?.type ?? null))
      for (const [p, t] of propertyPaths(sub, path)) out.set(p, t)
    }
  }
  if (n['items'] && typeof n['items'] === 'object')
    for (const [p, t] of propertyPaths(n['items'], `${prefix}[]`)) out.set(p, t)
  return out
}

export interface SubsetReport {
  /** Paths of the restricted schema that the full schema lacks, or whose type differs. */
  extra: string[]
  /** Paths of the full schema hidden from the restricted user. */
  hidden: string[]
}

/** Compares a restricted schema with the full one: a strict subset has no extra paths and hides at least one. */
export function compareSubset(restricted: unknown, full: unknown): SubsetReport {
  const r = propertyPaths(restricted)
  const f = propertyPaths(full)
  const extra = [...r].filter(([p, t]) => !f.has(p) || f.get(p) !== t).map(([p]) => p)
  const hidden = [...f.keys()].filter((p) => !r.has(p))
  return { extra, hidden }
}
