import { describe } from 'vitest'
import * as allure from 'allure-js-commons'
import { check } from '../../helpers/checks/check'
import { expectEqual, expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import { given } from '../../helpers/checks/setup'
import { useTarget } from '../../helpers/checks/context'
import { getPointer } from '../../helpers/client/data/json-pointer'
import { setPointer } from '../../helpers/checks/sales/json-set'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { schemaAt } from '../../helpers/oracle/real-world'
import { salesSettings } from '../../common/config/sales-settings'
import { compareSubset, compileError, metaSchemaErrors } from '../../helpers/checks/sales/schema-tools'

const t = useTarget()
const settings = salesSettings(t.config)
const flow = useSalesFlow(t)

/** A value of a scalar schema node other than `now` (within its enum or bounds), or undefined for other nodes. */
function otherValue(node: unknown, now: unknown, tag: string): unknown {
  const n = (node ?? {}) as { type?: unknown; enum?: unknown[]; minimum?: number; maximum?: number; maxLength?: number }
  if (Array.isArray(n.enum)) return n.enum.find((v) => v !== now)
  if (n.type === 'boolean') return now !== true
  if (n.type === 'integer' || n.type === 'number') {
    const low = n.minimum ?? 0
    return now === low ? (n.maximum ?? low + 1) : low
  }
  if (n.type === 'string') return tag.slice(0, n.maxLength ?? tag.length)
  return undefined
}

function getSchema(product: string, as?: Parameters<typeof t.sales.call>[0]['as']) {
  return t.sales.call({
    op: 'sales.schemes.get',
    params: { type: settings.schemaType, name: product },
    ...(as ? { as } : {}),
  })
}

describe('sales: product schemes (sales-service.md §4, §5)', () => {
  for (const product of t.config.products) {
    check(
      {
        id: `SL-SCH-001-${product}`,
        spec: 'sales',
        product,
        section: '§4',
        requirement:
          `The ${product} schema from GET /schemes/{type}/regular/{name} is a valid JSON Schema ` +
          `(meta-schema) that compiles.`,
      },
      async () => {
        const res = await getSchema(product)
        expectStatus(res, 200)
        const schema = expectJsonBody(res)
        const meta = metaSchemaErrors(schema)
        expectThat(meta.length === 0, {
          expected: 'a document valid against its JSON Schema meta-schema',
          actual: meta.slice(0, 10).join('; '),
          res,
        })
        const compile = compileError(schema)
        expectThat(compile === undefined, { expected: 'a schema that compiles', actual: compile ?? '', res })
        const props = (schema as { properties?: unknown }).properties
        expectThat(typeof props === 'object' && props !== null && Object.keys(props).length > 0, {
          expected: 'an object schema with properties to build a quote from',
          actual: props,
          res,
        })
      },
    )

    check(
      {
        id: `SL-SCH-002-${product}`,
        spec: 'sales',
        product,
        section: '§5',
        requirement:
          `The ${product} schema is filtered by the caller's rights: a restricted user receives a strict ` +
          `subset of the full schema.`,
      },
      async (c) => {
        const restricted = t.user('restricted')
        if (!restricted) c.notApplicable(t.missingUser('restricted'))
        const full = await getSchema(product)
        expectStatus(full, 200)
        const limited = await getSchema(product, restricted)
        expectStatus(limited, 200)
        const r = compareSubset(expectJsonBody(limited), expectJsonBody(full))
        await allure.parameter(`hidden from restricted (${product})`, r.hidden.join(', ') || 'none')
        expectThat(r.extra.length === 0, {
          expected: 'no property the full schema lacks (or types differently)',
          actual: r.extra.join(', '),
          res: limited,
        })
        expectThat(r.hidden.length > 0, {
          expected: 'at least one property hidden from the restricted user',
          actual: 'the same properties as the full schema',
          res: limited,
        })
      },
    )
  }

  for (const product of t.config.products) {
    check(
      {
        id: `SL-SCH-004-${product}`,
        spec: 'sales',
        product,
        section: '§5',
        requirement:
          `A restricted user's write of a ${product} quote field its schema hides is refused with a 4xx ` +
          `and changes nothing: the quote reads back as before.`,
      },
      async (c) => {
        const restricted = t.user('restricted')
        if (!restricted) return c.notApplicable(t.missingUser('restricted'))
        const full = await getSchema(product)
        expectStatus(full, 200)
        const limited = await getSchema(product, restricted)
        expectStatus(limited, 200)
        const q = await given(
          'a quote of the primary user',
          async () => {
            const created = await flow.createQuote(product, { label: 'restricted-write' })
            await flow.unlocked(created.quoteId, 'wait after create')
            return created
          },
          { product },
        )
        const before = await flow.getQuote(q.quoteId)
        expectStatus(before, 200)
        // a hidden field outside arrays that can take another value than the quote's
        const pick = compareSubset(expectJsonBody(limited), expectJsonBody(full))
          .hidden.filter((path) => !path.includes('[]'))
          .map((path) => {
            const pointer = `/${path.split('.').join('/')}`
            const now = getPointer(before.body, `/data${pointer}`)
            return { pointer, now, value: otherValue(schemaAt(expectJsonBody(full), pointer), now, t.tag('hidden')) }
          })
          .filter((h) => h.value !== undefined && h.value !== h.now)
          // a field the quote holds first: changing a value is what a refusal must prevent (SL-INV-002 judges it too)
          .sort((x, y) => Number(x.now === undefined) - Number(y.now === undefined))[0]
        if (!pick)
          return c.notApplicable(`the ${product} schema hides no scalar field outside arrays from the restricted user`)
        const patch: Record<string, unknown> = {}
        setPointer(patch, pick.pointer, pick.value)
        const res = await t.sales.call({
          op: 'sales.quote.update',
          params: { policyId: q.quoteId },
          json: patch,
          as: restricted,
        })
        expectStatus(res, '4xx')
        // the actions list after the write says it is done (sales §3 rule 4): the read after it is what the quote holds
        // (SL-INV-002)
        await flow.unlocked(q.quoteId, 'wait after the refused write')
        const after = await flow.getQuote(q.quoteId)
        expectStatus(after, 200)
        expectEqual(
          getPointer(after.body, `/data${pick.pointer}`),
          pick.now,
          `${pick.pointer} of the quote after the restricted user's refused write (as before)`,
          after,
        )
      },
    )
  }

  check(
    {
      id: 'SL-SCH-003',
      spec: 'sales',
      section: '§4',
      requirement: 'The schemes endpoint answers a product that does not exist with a 4xx, not a schema.',
    },
    async () => {
      const res = await getSchema(`no-such-product-${t.config.runId.toLowerCase().replace(/[^a-z0-9]/g, '')}`)
      expectStatus(res, '4xx')
    },
  )
})
