import { describe } from 'vitest'
import * as allure from 'allure-js-commons'
import { check } from '../../helpers/checks/check'
import { expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { salesSettings } from '../../helpers/client/config/sales-settings'
import { compareSubset, compileError, metaSchemaErrors } from '../../helpers/checks/sales/schema-tools'

const t = useTarget()
const settings = salesSettings(t.config)

function getSchema(product: string, as?: Parameters<typeof t.sales.call>[0]['as']) {
  return t.sales.call({ op: 'sales.schemes.get', params: { type: settings.schemaType, name: product }, ...(as ? { as } : {}) })
}

describe('sales: product schemes (sales-service.md §4, §5)', () => {
  for (const product of t.config.products) {
    check(
      { id: `SL-SCH-001-${product}`, spec: 'sales', product, section: '§4', requirement: `The ${product} schema from GET /schemes/{type}/regular/{name} is a valid JSON Schema (meta-schema) that compiles.` },
      async () => {
        const res = await getSchema(product)
        expectStatus(res, 200)
        const schema = expectJsonBody(res)
        const meta = metaSchemaErrors(schema)
        expectThat(meta.length === 0, { expected: 'a document valid against its JSON Schema meta-schema', actual: meta.slice(0, 10).join('; '), res })
        const compile = compileError(schema)
        expectThat(compile === undefined, { expected: 'a schema that compiles', actual: compile ?? '', res })
        const props = (schema as { properties?: unknown }).properties
        expectThat(typeof props === 'object' && props !== null && Object.keys(props).length > 0, { expected: 'an object schema with properties to build a quote from', actual: props, res })
      },
    )

    check(
      { id: `SL-SCH-002-${product}`, spec: 'sales', product, section: '§5', requirement: `The ${product} schema is filtered by the caller's rights: a restricted user receives a strict subset of the full schema.` },
      async (c) => {
        const restricted = t.user('restricted')
        if (!restricted) c.notApplicable(t.missingUser('restricted'))
        const full = await getSchema(product)
        expectStatus(full, 200)
        const limited = await getSchema(product, restricted)
        expectStatus(limited, 200)
        const r = compareSubset(expectJsonBody(limited), expectJsonBody(full))
        await allure.parameter(`hidden from restricted (${product})`, r.hidden.join(', ') || 'none')
        expectThat(r.extra.length === 0, { expected: 'no property the full schema lacks (or types differently)', actual: r.extra.join(', '), res: limited })
        expectThat(r.hidden.length > 0, { expected: 'at least one property hidden from the restricted user', actual: 'the same properties as the full schema', res: limited })
      },
    )
  }

  check(
    { id: 'SL-SCH-003', spec: 'sales', section: '§4', requirement: 'The schemes endpoint answers a product that does not exist with a 4xx, not a schema.' },
    async () => {
      const res = await getSchema(`no-such-product-${t.config.runId.toLowerCase().replace(/[^a-z0-9]/g, '')}`)
      expectStatus(res, '4xx')
    },
  )
})
