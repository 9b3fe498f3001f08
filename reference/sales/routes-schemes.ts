import type { FastifyInstance } from 'fastify'
import { principalOf, type ReferenceContext } from '../context'
import { SALES_PREFIX } from '../auth-guard'
import { notFound } from './access'
import type { Ledger } from './ledger'
import { isProduct, SCHEMA_TYPE } from './schemes'

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema'

/**
 * The defects' published bounds, moved from the ones the service enforces (it validates against its own copy): every
 * maximum and maxLength by `max`, every minimum and minLength by `min` (a length not below 0).
 */
function shiftBounds(node: unknown, by: { max: number; min: number }): void {
  if (Array.isArray(node)) return node.forEach((n) => shiftBounds(n, by))
  if (node === null || typeof node !== 'object') return
  const o = node as Record<string, unknown>
  for (const [k, d] of [
    ['maximum', by.max],
    ['maxLength', by.max],
    ['minimum', by.min],
    ['minLength', by.min],
  ] as const)
    if (typeof o[k] === 'number') o[k] = k.endsWith('Length') ? Math.max(0, (o[k] as number) + d) : (o[k] as number) + d
  for (const [k, v] of Object.entries(o)) if (k !== 'enum' && k !== 'const') shiftBounds(v, by)
}

/** The defect's published lists: no uniqueItems, while the service still refuses a repeated item. */
function dropUniqueItems(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(dropUniqueItems)
  if (node === null || typeof node !== 'object') return
  const o = node as Record<string, unknown>
  if (o['uniqueItems'] === true) delete o['uniqueItems']
  for (const [k, v] of Object.entries(o)) if (k !== 'enum' && k !== 'const') dropUniqueItems(v)
}

/** GET /schemes/{type}/regular/{name}: the product JSON Schema filtered by the caller's rights. */
export function registerSchemeRoutes(app: FastifyInstance, ctx: ReferenceContext, ledger: Ledger): void {
  app.get<{ Params: { type: string; name: string } }>(
    `${SALES_PREFIX}/schemes/:type/regular/:name`,
    async (req, reply) => {
      const { type, name } = req.params
      if (type !== SCHEMA_TYPE || !isProduct(name)) {
        if (ctx.defects.has('sales-schema-unknown-200')) return reply.send({})
        return notFound(reply, 'schema', `${type}/${name}`)
      }
      const rights = ctx.defects.has('sales-schema-restricted-full')
        ? (['schemes:full'] as const)
        : principalOf(req).rights
      const schema = ledger.schemes.schemaFor(name, rights)
      // the draft the schema declares (the schemas-2020-12 variation): its keywords mean the same in draft-07 and
      // 2020-12
      if (ctx.options.schemaDraft === '2020-12' || ctx.defects.has('sales-schema-2020-12-tuple-items'))
        schema['$schema'] = DRAFT_2020_12
      if (ctx.defects.has('sales-schema-2020-12-tuple-items')) {
        // the draft-07 tuple form, which 2020-12 replaced by prefixItems: items must be one schema there
        const objects = (
          schema['properties'] as Record<string, { properties?: Record<string, Record<string, unknown>> }>
        )['objects']
        for (const list of Object.values(objects?.properties ?? {}))
          if (list['items'] && !Array.isArray(list['items'])) list['items'] = [list['items']]
      }
      if (ctx.defects.has('sales-schema-invalid')) {
        schema['required'] = 'policy'
        ;(schema['properties'] as Record<string, Record<string, unknown>>)['policy']!['type'] = 'record'
      }
      if (ctx.defects.has('sales-schema-looser-max-items')) {
        // the schema says one more insured object than the service accepts (it validates against its own bounds)
        const objects = (
          schema['properties'] as Record<string, { properties?: Record<string, Record<string, unknown>> }>
        )['objects']
        for (const list of Object.values(objects?.properties ?? {}))
          if (typeof list['maxItems'] === 'number') list['maxItems'] = list['maxItems'] + 1
      }
      if (ctx.defects.has('sales-schema-looser-bounds')) shiftBounds(schema, { max: 1, min: -1 })
      if (ctx.defects.has('sales-schema-stricter-bounds')) shiftBounds(schema, { max: 0, min: 1 })
      if (ctx.defects.has('sales-schema-repeats-allowed')) dropUniqueItems(schema)
      if (ctx.defects.has('sales-schema-open-items')) {
        const objects = (
          schema['properties'] as Record<string, { properties?: Record<string, Record<string, unknown>> }>
        )['objects']
        for (const list of Object.values(objects?.properties ?? {})) {
          const items = list['items'] as Record<string, unknown> | undefined
          if (items && items['additionalProperties'] === false) list['items'] = { ...items, additionalProperties: true }
        }
      }
      if (ctx.defects.has('sales-schema-unsatisfiable')) {
        const customer = (
          schema['properties'] as Record<string, { properties: Record<string, Record<string, unknown>> }>
        )['customer']!
        customer.properties['name'] = { type: 'string', minLength: 10, maxLength: 2 }
      }
      return reply.header('content-type', 'application/schema+json; charset=utf-8').send(JSON.stringify(schema))
    },
  )
}
