import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ValidateFunction } from 'ajv'
import { cachedValidator } from '../../common/data/validator-cache'
import type { Right } from '../demo-data'

const PRODUCTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), 'products')
export const PRODUCTS = ['home', 'travel'] as const
export type Product = (typeof PRODUCTS)[number]
export const SCHEMA_TYPE = 'policy'

export function isProduct(name: string): name is Product {
  return (PRODUCTS as readonly string[]).includes(name)
}

type Json = Record<string, unknown>

function readJson(name: string): Json {
  return JSON.parse(readFileSync(resolve(PRODUCTS_DIR, `${name}.json`), 'utf8')) as Json
}

/** The full (unfiltered) JSON Schema of a product, with x-rights markers. */
export function fullSchema(product: Product): Json {
  const common = readJson('common')
  const own = readJson(product)
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `${SCHEMA_TYPE}/regular/${product}/1`,
    title: own['title'],
    type: 'object',
    additionalProperties: false,
    required: ['schema', 'policy', 'customer', 'objects'],
    properties: {
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'name'],
        properties: { type: { type: 'string', const: SCHEMA_TYPE }, name: { type: 'string', const: product } },
      },
      policy: common['policy'],
      customer: common['customer'],
      objects: own['objects'],
    },
  }
}

/** Removes what the caller's rights do not allow (x-rights), and the x-rights markers. Returns a copy. */
export function filterSchema(node: unknown, rights: readonly Right[], keepAll = false): unknown {
  if (Array.isArray(node)) return node.map((n) => filterSchema(n, rights, keepAll))
  if (node === null || typeof node !== 'object') return node
  const out: Json = {}
  const removed = new Set<string>()
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === 'x-rights') continue
    if (k === 'properties' && v && typeof v === 'object') {
      const props: Json = {}
      for (const [name, sub] of Object.entries(v as Json)) {
        const need = (sub as Json | null)?.['x-rights']
        if (!keepAll && typeof need === 'string' && !rights.includes(need as Right)) removed.add(name)
        else props[name] = filterSchema(sub, rights, keepAll)
      }
      out[k] = props
    } else out[k] = filterSchema(v, rights, keepAll)
  }
  if (Array.isArray(out['required'])) out['required'] = (out['required'] as string[]).filter((r) => !removed.has(r))
  return out
}

/** "/policy/dateInception" -> "policy.dateInception" (the anchors' error keys). */
export function dottedPath(instancePath: string, missing?: string): string {
  const parts = instancePath.split('/').filter(Boolean)
  if (missing) parts.push(missing)
  return parts.join('.') || '(root)'
}

export type ValidationErrors = Record<string, string[]>

/**
 * Compiled product schemas per rights set. One per reference instance. The product schemas are the project's own: their
 * validators come from the disk cache of generated code (common/data/validator-cache.ts; the same options as
 * createAjv) instead of being compiled at each start, a tenth of a CPU second of every embedded run.
 */
export class SchemeRegistry {
  private readonly compiled = new Map<string, ValidateFunction>()

  /** The schema a caller with these rights receives. */
  schemaFor(product: Product, rights: readonly Right[]): Json {
    return filterSchema(fullSchema(product), rights, rights.includes('schemes:full')) as Json
  }

  /** Validates a create body (with its schema block) for a caller; null when valid. */
  validate(product: Product, body: unknown, rights: readonly Right[]): ValidationErrors | null {
    const full = rights.includes('schemes:full')
    const key = `${product}:${full ? 'full' : 'restricted'}`
    let v = this.compiled.get(key)
    if (!v) {
      const schema = { ...this.schemaFor(product, rights) }
      delete schema['$id']
      v = cachedValidator(schema)
      this.compiled.set(key, v)
    }
    const errors: ValidationErrors = {}
    if (!v(body)) {
      for (const e of v.errors ?? []) {
        const missing =
          e.keyword === 'required' ? String((e.params as { missingProperty?: string }).missingProperty) : undefined
        const extra =
          e.keyword === 'additionalProperties'
            ? String((e.params as { additionalProperty?: string }).additionalProperty)
            : undefined
        const path = dottedPath(e.instancePath, missing ?? extra)
        ;(errors[path] ??= []).push(
          extra ? `The ${path} field is not allowed.` : `The ${path} field ${e.message ?? 'is invalid'}.`,
        )
      }
    }
    const policy = (body as { policy?: { dateInception?: unknown; dateExpiry?: unknown } } | null)?.policy
    if (
      typeof policy?.dateInception === 'string' &&
      typeof policy.dateExpiry === 'string' &&
      !errors['policy.dateExpiry'] &&
      policy.dateExpiry <= policy.dateInception
    ) {
      errors['policy.dateExpiry'] = ['The policy.date expiry must be a date after policy.date inception.']
    }
    return Object.keys(errors).length > 0 ? errors : null
  }
}

/** Validates product data (without the schema block) with full rights: for other areas (e.g. MTA). */
export function validateQuoteData(
  registry: SchemeRegistry,
  product: Product,
  data: Record<string, unknown>,
): ValidationErrors | null {
  return registry.validate(product, { schema: { type: SCHEMA_TYPE, name: product }, ...data }, ['schemes:full'])
}
