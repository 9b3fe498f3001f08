import { describe } from 'vitest'
import * as allure from 'allure-js-commons'
import { check } from '../../helpers/checks/check'
import { expectEqual, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { attachEvidence } from '../../helpers/client/evidence/evidence'
import { given } from '../../helpers/checks/setup'
import { SalesFlow } from '../../helpers/checks/sales/lifecycle'
import { generatePayload } from '../../helpers/checks/sales/payload'

const t = useTarget()
const flow = new SalesFlow(t, 'payloads')

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
  }
})
