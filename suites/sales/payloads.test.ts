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
import { setPointer } from '../../helpers/checks/sales/json-set'
import {
  addBoundedOptionals,
  keyNames,
  pastBounds,
  repeatItems,
  setAtBounds,
  type PastBound,
} from '../../helpers/checks/sales/schema-bounds'

const t = useTarget()
const flow = useSalesFlow(t, 'payloads')

type Json = Record<string, unknown>
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The insured-object lists of a product schema with a bound: `/objects/<type>` and its maxItems (at most 20). */
function boundedLists(schema: Json): { type: string; max: number }[] {
  const objects = getPointer(schema, '/properties/objects/properties')
  if (!isObj(objects)) return []
  return Object.entries(objects).flatMap(([type, s]) =>
    isObj(s) && Number.isInteger(s['maxItems']) && (s['maxItems'] as number) >= 1 && (s['maxItems'] as number) <= 20
      ? [{ type, max: s['maxItems'] as number }]
      : [],
  )
}

/** A key no product schema names: added where the schema explicitly allows keys it does not list. */
const EXTRA_KEY = 'x-conformance-extra'

/**
 * Adds EXTRA_KEY to every object of the payload whose schema says `additionalProperties: true` (following properties
 * and array items); returns the JSON pointers it added.
 */
function addExtraKeys(schema: unknown, doc: unknown, at = ''): string[] {
  if (!isObj(schema)) return []
  const added: string[] = []
  if (Array.isArray(doc)) {
    if (isObj(schema['items']))
      doc.forEach((item, i) => added.push(...addExtraKeys(schema['items'], item, `${at}/${i}`)))
    return added
  }
  if (!isObj(doc)) return added
  const props = isObj(schema['properties']) ? schema['properties'] : {}
  for (const [k, sub] of Object.entries(props)) if (k in doc) added.push(...addExtraKeys(sub, doc[k], `${at}/${k}`))
  if (schema['additionalProperties'] === true && !(EXTRA_KEY in props)) {
    doc[EXTRA_KEY] = 'extra'
    added.push(`${at}/${EXTRA_KEY}`)
  }
  return added
}

describe('sales: payloads generated from the product schema (sales-service.md §4)', () => {
  for (const product of t.config.products) {
    check(
      {
        id: `SL-PAY-001-${product}`,
        spec: 'sales',
        product,
        section: '§4',
        requirement:
          `A ${product} quote payload can be generated from the published schema: required fields, enums, ` +
          `formats and bounds respected, reproducible from the seed.`,
      },
      async () => {
        const schema = await given(`the ${product} schema`, () => flow.schema(product), { product })
        const built = await flow.buildPayload(product, { label: 'payload-check', seed: t.config.seed })
        await allure.parameter(`payload seed (${product})`, String(built.seed))
        await attachEvidence(`generated ${product} payload`, built.payload)
        expectThat(built.errors.length === 0, {
          expected: 'a generated payload valid against the schema',
          actual: built.errors.slice(0, 10).join('; '),
        })
        const again = generatePayload(schema, {
          seed: built.seed,
          set: { '/schema': built.payload['schema'] },
          compile: (s) => t.schemas.compile(s),
          limits: t.config.schemaLimits,
        })
        const first = generatePayload(schema, {
          seed: built.seed,
          set: { '/schema': built.payload['schema'] },
          compile: (s) => t.schemas.compile(s),
          limits: t.config.schemaLimits,
        })
        expectEqual(again.payload, first.payload, 'the payload generated again from the same seed')
      },
    )
    check(
      {
        id: `SL-PAY-002-${product}`,
        spec: 'sales',
        product,
        section: '§4',
        requirement:
          `A ${product} quote that uses what the published schema allows follows the schema, so the ` +
          `service accepts it: its insured-object lists at their maxItems, every value it carries at its ` +
          `published upper bound (maximum, maxLength), an item repeated in each list of values whose schema does ` +
          `not ask for unique items, and a key the schema does not list in every object whose schema says ` +
          `additionalProperties: true. The rules the schema publishes are the ones the service enforces.`,
      },
      async (c) => {
        const schema = await given(`the ${product} schema`, () => flow.schema(product), { product })
        const lists = boundedLists(schema)
        const built = await given(
          `a valid ${product} payload`,
          () => flow.validPayload(product, { label: 'max-items' }),
          { product },
        )
        const payload = structuredClone(built.payload)
        const filled: string[] = []
        for (const { type, max } of lists) {
          const list = getPointer(payload, `/objects/${type}`)
          // the generated items, repeated up to the bound (a list the payload leaves out is not sent)
          if (!Array.isArray(list) || list.length === 0 || !isObj(payload['objects'])) continue
          payload['objects'][type] = Array.from({ length: max }, (_, i) => structuredClone(list[i % list.length]))
          filled.push(`${type}: ${max}`)
        }
        const extra = addExtraKeys(schema, payload)
        addBoundedOptionals(schema, payload)
        const upper = setAtBounds(schema, payload, 'upper').map((b) => `${b.pointer} ${b.keyword} ${b.bound}`)
        const repeated = repeatItems(schema, payload)
        if (filled.length === 0 && extra.length === 0 && upper.length === 0 && repeated.length === 0)
          return c.notApplicable(
            `the generated ${product} payload holds no bounded insured-object list and no object whose schema allows ` +
              `other keys and no value with an upper bound`,
          )
        const validate = t.schemas.compile(schema)
        // repeated items a schema forbids (uniqueItems) or bounds the generator cannot meet: nothing to send
        if (!validate(payload))
          return c.notApplicable(
            `a payload with the lists at their bound (${filled.join(', ')}) does not follow the ${product} schema ` +
              `(repeated items)`,
          )
        await attachEvidence(
          `${product} payload using what the schema allows (lists at their bound: ${filled.join(', ') || 'none'}; ` +
            `keys the schema does not list: ${extra.join(', ') || 'none'}; values at their upper bound: ` +
            `${upper.length}; lists with an item repeated: ${repeated.join(', ') || 'none'})`,
          payload,
        )
        const res = await t.sales.call({ op: 'sales.quote.create', json: payload })
        expectStatus(res, '2xx', { owner: `SL-PAY-002-${product}` })
        const id = getPointer(res.body, flow.settings.quoteIdPointer)
        if (typeof id === 'string' || typeof id === 'number') flow.created.set(String(id), { product, final: false })
      },
    )
    check(
      {
        id: `SL-PAY-003-${product}`,
        spec: 'sales',
        product,
        section: '§4',
        requirement:
          `A ${product} quote with every value it carries at its published lower bound (minimum, minLength) and ` +
          `each list cut to its minItems follows the schema, so the service accepts it: the lower bounds the ` +
          `schema publishes are the ones the service enforces.`,
      },
      async (c) => {
        const schema = await given(`the ${product} schema`, () => flow.schema(product), { product })
        const built = await given(
          `a valid ${product} payload`,
          () => flow.validPayload(product, { label: 'lower-bounds' }),
          { product },
        )
        const payload = structuredClone(built.payload)
        addBoundedOptionals(schema, payload)
        const lower = setAtBounds(schema, payload, 'lower').map((b) => `${b.pointer} ${b.keyword} ${b.bound}`)
        if (lower.length === 0)
          return c.notApplicable(`the generated ${product} payload carries no value with a lower bound`)
        if (!t.schemas.compile(schema)(payload))
          return c.notApplicable(`a payload at the lower bounds does not follow the ${product} schema`)
        await attachEvidence(`${product} payload at its lower bounds (${lower.join(', ')})`, payload)
        const res = await t.sales.call({ op: 'sales.quote.create', json: payload })
        const id = getPointer(res.body, flow.settings.quoteIdPointer)
        if (typeof id === 'string' || typeof id === 'number') flow.created.set(String(id), { product, final: false })
        expectStatus(res, '2xx', { owner: `SL-PAY-003-${product}` })
      },
    )
    check(
      {
        id: `SL-PAY-004-${product}`,
        spec: 'sales',
        product,
        section: '§4',
        requirement:
          `A ${product} quote with a value just past a bound the published schema sets on it (a number one step ` +
          `past its minimum or maximum, a string one character shorter or longer than its minLength or maxLength, ` +
          `a list one item short of its minItems or over its maxItems) does not follow the schema, so the ` +
          `service refuses it: the bounds the schema publishes are no stricter than the ones the service enforces.`,
      },
      async (c) => {
        const schema = await given(`the ${product} schema`, () => flow.schema(product), { product })
        const built = await given(
          `a valid ${product} payload`,
          () => flow.validPayload(product, { label: 'past-bounds' }),
          { product },
        )
        const validate = t.schemas.compile(schema)
        // the optional fields with a bound added (left as generated if the schema refuses them)
        const withOptionals = structuredClone(built.payload)
        addBoundedOptionals(schema, withOptionals)
        const base = validate(withOptionals) ? withOptionals : built.payload
        const apply = (edits: PastBound[]) => {
          const payload = structuredClone(base)
          // a list before its items: a longer list repeats the items as generated, then its first item's values change
          for (const e of [...edits].sort((a, b) => a.pointer.length - b.pointer.length))
            if (getPointer(payload, e.pointer) !== undefined) setPointer(payload, e.pointer, structuredClone(e.value))
          return payload
        }
        // a value the schema itself does not refuse (a bound it cannot meet alone) is not sent
        const past = pastBounds(schema, base).filter((e) => !validate(apply([e])))
        if (past.length === 0) return c.notApplicable(`the generated ${product} payload carries no value with a bound`)
        const show = (e: PastBound) => `${e.pointer} (${e.keyword} ${e.bound})`
        const created = (res: { body: unknown }) => {
          const id = getPointer(res.body, flow.settings.quoteIdPointer)
          if (typeof id === 'string' || typeof id === 'number') flow.created.set(String(id), { product, final: false })
        }
        // a few quotes break every bound at once: two values of one field (its minimum and its maximum) go in different
        // quotes, and so do a list cut short and the bounds inside it; a bound the refusal's errors do not name is then
        // tried alone
        const clash = (a: PastBound, b: PastBound) =>
          a.pointer === b.pointer ||
          (a.shrinks && b.pointer.startsWith(`${a.pointer}/`)) ||
          (b.shrinks && a.pointer.startsWith(`${b.pointer}/`))
        const groups: PastBound[][] = []
        for (const e of past) {
          const g = groups.find((g) => !g.some((o) => clash(o, e)))
          if (g) g.push(e)
          else groups.push([e])
        }
        const unnamed: PastBound[] = []
        for (const group of groups) {
          if (group.length === 0) continue
          const payload = apply(group)
          await attachEvidence(
            `${product} payload past ${group.length} bound(s): ${group.map(show).join(', ')}`,
            payload,
          )
          const res = await t.sales.call({ op: 'sales.quote.create', json: payload })
          created(res)
          const errors = (res.body as { errors?: unknown } | null)?.errors
          const keys =
            res.status >= 400 && res.status < 500 && errors && typeof errors === 'object' ? Object.keys(errors) : []
          unnamed.push(...group.filter((e) => !keys.some((k) => keyNames(k, e.pointer))))
        }
        for (const e of unnamed) {
          const payload = apply([e])
          await attachEvidence(`${product} payload with one value just past ${show(e)}`, payload)
          const res = await t.sales.call({ op: 'sales.quote.create', json: payload })
          created(res)
          expectStatus(res, '4xx', { owner: `SL-PAY-004-${product}` })
        }
      },
    )
  }
})
