import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectContract } from '../../helpers/checks/contract'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given } from '../../helpers/checks/setup'
import type { CallOptions } from '../../helpers/client/http/client'
import { getPointer } from '../../helpers/client/data/json-pointer'
import { setPointer } from '../../helpers/checks/sales/json-set'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { invalidCase } from '../../helpers/checks/sales/invalid-case'
import { probesFor } from '../../helpers/checks/probes/requests'

const t = useTarget()
const flow = useSalesFlow(t, 'negatives')
const probes = probesFor(t)
/** A quote id of the target's id type that does not exist (helpers/checks/probes). */
const missing = probes.missing('sales')
const unknown = probes.settings.unknownId

describe('sales: refused requests (sales-service.md §4, §7)', () => {
  for (const product of t.config.products) {
    check(
      {
        id: `SL-NEG-001-${product}`,
        spec: 'sales',
        product,
        section: '§4',
        requirement:
          `Creating a ${product} quote with a payload that violates the schema is refused with 422 ` +
          `{message, errors} naming the field.`,
      },
      async () => {
        const { schema, payload } = await given(
          `a valid ${product} payload`,
          async () => ({
            schema: await flow.schema(product),
            payload: (await flow.buildPayload(product, { label: 'invalid' })).payload,
          }),
          { product },
        )
        const bad = invalidCase(flow.payloadOverrides(product), schema)
        setPointer(payload, bad.pointer, bad.value)
        const res = await t.sales.call({ op: 'sales.quote.create', json: payload })
        const id = getPointer(res.body, flow.settings.quoteIdPointer)
        if (typeof id === 'string' || typeof id === 'number') flow.created.set(String(id), { product, final: false })
        expectStatus(res, 422)
        expectContract(t.contracts, res, 'sales/quote-validation-error')
        const keys = Object.keys((res.body as { errors?: object }).errors ?? {})
        expectThat(
          keys.some(
            (k) =>
              k === bad.field || k.endsWith(`.${bad.field}`) || k.replace(/\//g, '.').replace(/^\./, '') === bad.field,
          ),
          { expected: `errors naming ${bad.field}`, actual: keys.join(', '), res },
        )
      },
    )
  }

  check(
    {
      id: 'SL-NEG-002',
      spec: 'sales',
      section: '§4',
      requirement:
        `Every quote operation on a quote id that does not exist is answered ` +
        `with ${unknown.statuses.join(' or ')}: ${unknown.why}.`,
    },
    async () => {
      const calls: CallOptions[] = [
        { op: 'sales.quote.get', params: { policyId: missing }, query: probes.requiredQuery('sales.quote.get') },
        { op: 'sales.quote.actions', params: { id: missing } },
        {
          op: 'sales.quote.update',
          params: { policyId: missing },
          json: { policy: { externalReference: t.tag('missing') } },
        },
        {
          op: 'sales.quote.calculate',
          params: { id: missing },
          query: probes.requiredQuery('sales.quote.calculate'),
          json: {},
        },
        { op: 'sales.quote.calculation', params: { id: missing } },
        { op: 'sales.quote.installments', params: { policyId: missing } },
        { op: 'sales.documents.generate', params: { id: missing } },
        { op: 'sales.quote.referral', params: { policyId: missing }, json: { comment: t.tag('missing') } },
        { op: 'sales.quote.decline', params: { policyId: missing }, json: { reason: t.tag('missing') } },
        { op: 'sales.quote.bind', params: { policyId: missing }, json: {} },
        { op: 'sales.quote.issue', params: { id: missing }, json: {} },
      ]
      const wrong: string[] = []
      let last
      for (const c of calls) {
        const res = await t.sales.call(c)
        if (!unknown.statuses.includes(res.status)) {
          wrong.push(`${c.op ?? '?'} -> ${res.status}`)
          last = res
        }
      }
      expectThat(wrong.length === 0, {
        expected: `${unknown.statuses.join(' or ')} for every operation`,
        actual: wrong.join('; '),
        ...(last ? { res: last } : {}),
      })
    },
  )

  check(
    {
      id: 'SL-NEG-003',
      spec: 'sales',
      section: '§3',
      requirement:
        'Issuing a calculated quote that was not bound is refused with a 4xx (when the tenant requires bind before ' +
        'issue).',
    },
    async (c) => {
      if (t.config.features['bindRequiredBeforeIssue'] !== true)
        c.notApplicable('the profile does not say bind is required before issue (features.bindRequiredBeforeIssue)')
      const q = await given('a calculated quote', () => flow.calculatedQuote(t.config.product, { label: 'unbound' }), {
        product: t.config.product,
      })
      const res = await flow.issue(q.quoteId)
      if (res.status >= 200 && res.status < 300) flow.markFinal(q.quoteId)
      expectStatus(res, '4xx')
      expectThat(flow.requestIdOf(res) === undefined, { expected: 'no request id', actual: res.body, res })
    },
  )

  check(
    {
      id: 'SL-NEG-004',
      spec: 'sales',
      section: '§4',
      requirement:
        `The status of a request id that does not exist (a UUID, as the documents type it) is answered ` +
        `with ${unknown.statuses.join(' or ')}: ${unknown.why}.`,
    },
    async () => {
      const res = await t.sales.call({ op: 'sales.requests.get', params: { requestId: probes.missing('requests') } })
      expectStatus(res, unknown.statuses)
    },
  )

  check(
    {
      id: 'SL-NEG-005',
      spec: 'sales',
      section: '§4',
      requirement: `Downloading a document id that does not exist is answered with ${unknown.statuses.join(
        ' or ',
      )}: ${unknown.why}.`,
    },
    async () => {
      const res = await t.sales.call({
        op: 'sales.documents.download',
        params: { id: missing },
        headers: { accept: '*/*' },
      })
      expectStatus(res, unknown.statuses)
    },
  )
})
