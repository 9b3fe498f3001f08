import { describe } from 'vitest'
import * as allure from 'allure-js-commons'
import { check } from '../../helpers/checks/check'
import { expectEqual, expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { attachEvidence } from '../../helpers/client/evidence/evidence'
import { given } from '../../helpers/checks/setup'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { generatePayload } from '../../helpers/checks/sales/payload'
import { getPointer } from '../../helpers/client/data/json-pointer'

const t = useTarget()
const flow = useSalesFlow(t, 'payloads')

type Json = Record<string, unknown>
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The insured-object lists of a product schema with a bound: `/objects/<type>` and its maxItems (at most 20). */
function boundedLists(schema: Json): { type: string; max: number }[] {
  const objects = getPointer(schema, '/properties/objects/properties')
  if (!isObj(objects)) return []
  return Object.entries(objects).flatMap(([type, s]) => (isObj(s) && Number.isInteger(s['maxItems']) && (s['maxItems'] as number) >= 1 && (s['maxItems'] as number) <= 20 ? [{ type, max: s['maxItems'] as number }] : []))
}

describe('sales: payloads generated from the product schema (sales-service.md §4)', () => {
  for (const product of t.config.products) {
    check(
      { id: `SL-PAY-001-${product}`, spec: 'sales', product, section: '§4', requirement: `A ${product} quote payload can be generated from the published schema: required fields, enums, formats and bounds respected, reproducible from the seed.` },
      async () => {
        const schema = await given(`the ${product} schema`, () => flow.schema(product), { product })
        const built = await flow.buildPayload(product, { label: 'payload-check', seed: t.config.seed })
        await allure.parameter(`payload seed (${product})`, String(built.seed))
        await attachEvidence(`generated ${product} payload`, built.payload)
        expectThat(built.errors.length === 0, { expected: 'a generated payload valid against the schema', actual: built.errors.slice(0, 10).join('; ') })
        const again = generatePayload(schema, { seed: built.seed, set: { '/schema': built.payload['schema'] }, compile: (s) => t.schemas.compile(s), limits: t.config.schemaLimits })
        const first = generatePayload(schema, { seed: built.seed, set: { '/schema': built.payload['schema'] }, compile: (s) => t.schemas.compile(s), limits: t.config.schemaLimits })
        expectEqual(again.payload, first.payload, 'the payload generated again from the same seed')
      },
    )
    check(
      { id: `SL-PAY-002-${product}`, spec: 'sales', product, section: '§4', requirement: `A ${product} quote whose insured-object lists hold as many items as the published schema allows (each list's maxItems) follows the schema, so the service accepts it: the bounds the schema publishes are the ones the service enforces.` },
      async (c) => {
        const schema = await given(`the ${product} schema`, () => flow.schema(product), { product })
        const lists = boundedLists(schema)
        if (lists.length === 0) return c.notApplicable(`the ${product} schema bounds no insured-object list (no maxItems under /properties/objects)`)
        const built = await given(`a valid ${product} payload`, () => flow.validPayload(product, { label: 'max-items' }), { product })
        const payload = structuredClone(built.payload)
        const filled: string[] = []
        for (const { type, max } of lists) {
          const list = getPointer(payload, `/objects/${type}`)
          // the generated items, repeated up to the bound (a list the payload leaves out is not sent)
          if (!Array.isArray(list) || list.length === 0 || !isObj(payload['objects'])) continue
          payload['objects'][type] = Array.from({ length: max }, (_, i) => structuredClone(list[i % list.length]))
          filled.push(`${type}: ${max}`)
        }
        if (filled.length === 0) return c.notApplicable(`the generated ${product} payload holds none of the bounded lists (${lists.map((l) => l.type).join(', ')})`)
        const validate = t.schemas.compile(schema)
        // repeated items a schema forbids (uniqueItems) or bounds the generator cannot meet: nothing to send
        if (!validate(payload)) return c.notApplicable(`a payload with the lists at their bound (${filled.join(', ')}) does not follow the ${product} schema (repeated items)`)
        await attachEvidence(`${product} payload at the lists' bounds (${filled.join(', ')})`, payload)
        const res = await t.sales.call({ op: 'sales.quote.create', json: payload })
        expectStatus(res, '2xx', { owner: `SL-PAY-002-${product}` })
        const id = getPointer(res.body, flow.settings.quoteIdPointer)
        if (typeof id === 'string' || typeof id === 'number') flow.created.set(String(id), { product, final: false })
      },
    )
  }
})
