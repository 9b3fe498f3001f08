import { check } from '../../helpers/checks/check'
import { expectStatus } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given } from '../../helpers/checks/setup'
import { getPointer } from '../../helpers/client/data/json-pointer'
import type { HttpResult } from '../../helpers/client/http/types'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { addDays, daysBetween } from '../../helpers/checks/policies/dates'
import { policiesSettings } from '../../common/config/policies-settings'
import { resolveDateToken } from '../../helpers/checks/sales/date-tokens'
import { setPointer } from '../../helpers/checks/sales/json-set'
import { schemaAt } from '../../helpers/oracle/real-world'
import { SalesFlowError, useSalesFlow } from '../../helpers/checks/sales/lifecycle'

/**
 * The situations where a policy's views can disagree or a read can write (issue 29): a quote changed and calculated
 * again, with its calculation and schedule read before and after; the policy it becomes; a renewal preparation and a
 * termination premium quote, each followed by a read of every view of the policy. The check asserts that each view is
 * answered; what the answers show is the model's business: PL-INV-003 (issued as quoted), PL-INV-004 (calculation and
 * schedule agree, the new calculation's), PL-INV-005 (reads change nothing), PL-INV-001/002 (money), SL-INV-009.
 */
const t = useTarget()
const s = policiesSettings(t.config)
const api = new PoliciesApi(t, s)
const flow = useSalesFlow(t)
const product = t.config.product
const identity = (t.config.features['customer_identity'] as { params?: Record<string, string> } | undefined)?.params

const ok = (res: HttpResult) => res.status >= 200 && res.status < 300
function need(res: HttpResult, step: string): HttpResult {
  if (!ok(res)) throw new SalesFlowError(step, 'expected 2xx', res, { product })
  return res
}

/** Every view of the policy, each expected 200 (links first: the custom view's identity comes from it). */
async function readEveryView(policyId: string, quoteId: string): Promise<void> {
  const links = await api.links(policyId)
  expectStatus(links, 200)
  const views = [api.invoices(policyId), api.totals(policyId), flow.calculation(quoteId), flow.installments(quoteId)]
  if (identity && Object.keys(identity).length > 0) {
    const query: Record<string, string> = {}
    for (const [name, ptr] of Object.entries(identity))
      query[name] = String(getPointer(getPointer(links.body, s.links.dataPointer), ptr) ?? '')
    views.push(api.customView(policyId, query))
  }
  for (const res of await Promise.all(views)) expectStatus(res, 200)
  expectStatus(await api.links(policyId), 200)
}

check(
  {
    id: 'PL-VIEW-001',
    spec: 'sales',
    section: '§4',
    requirement:
      'Every view of a quote and of the policy it becomes is answered (200) after each operation: the calculation ' +
      'and schedule before and after a change and a new calculation, the actions list again after them, and the ' +
      "policy's links, invoices, totals, custom view, calculation and schedule after issue, after a renewal " +
      'preparation and after a termination premium quote.',
  },
  async () => {
    const update = flow.payloadOverrides(product).update ?? { '/policy/paymentFrequency': 'annual' }
    const q = await given(
      'a calculated quote',
      async () => {
        // created with another value at every enumerated field of the update, so that the change moves the calculation
        const schema = await flow.schema(product)
        const set: Record<string, unknown> = {}
        for (const [pointer, value] of Object.entries(update)) {
          const options = (schemaAt(schema, pointer) as { enum?: unknown[] } | undefined)?.enum
          const other = options?.find((o) => o !== resolveDateToken(value, new Date()))
          if (other !== undefined) set[pointer] = other
        }
        return flow.calculatedQuote(product, { label: 'views', set, unlike: update })
      },
      { product },
    )
    for (const res of [await flow.calculation(q.quoteId), await flow.installments(q.quoteId)]) expectStatus(res, 200)
    await given(
      'the quote changed and calculated again',
      async () => {
        const json: Record<string, unknown> = {}
        for (const [pointer, value] of Object.entries(update))
          setPointer(json, pointer, resolveDateToken(value, new Date()))
        need(await flow.update(q.quoteId, json), 'update')
        await flow.unlocked(q.quoteId, 'wait after update')
        need(await flow.calculate(q.quoteId), 'calculate')
        await flow.unlocked(q.quoteId, 'wait after calculate')
      },
      { product },
    )
    for (const res of [await flow.calculation(q.quoteId), await flow.installments(q.quoteId)]) expectStatus(res, 200)
    // the actions list is a view of the quote too: read again with no change since, it holds (SL-INV-010)
    await flow.unlocked(q.quoteId, 'the actions list read again after the reads')

    const policyId = await given(
      'the recalculated quote bound and issued',
      async () => {
        need(await flow.bind(q.quoteId), 'bind')
        await flow.unlocked(q.quoteId, 'wait after bind')
        const { requestId } = await flow.startIssue(q.quoteId, product)
        const r = await flow.waitRequest(requestId)
        flow.requireReadable(r, product)
        const id = getPointer(r.value?.body, flow.settings.policyIdPointer)
        if (r.outcome !== 'success' || (typeof id !== 'string' && typeof id !== 'number'))
          throw new SalesFlowError('issue request', `${r.outcome}: no policy id`, r.last?.value.res, {
            operation: 'sales.requests.get',
            product,
            owner: `SL-LIFE-010-${product}`,
          })
        flow.markFinal(q.quoteId)
        return String(id)
      },
      { product },
    )
    await readEveryView(policyId, q.quoteId)

    expectStatus(await api.renewal(policyId), 200)
    await readEveryView(policyId, q.quoteId)

    const links = await api.links(policyId)
    const inception = getPointer(links.body, s.links.dateInceptionPointer)
    const expiry = getPointer(links.body, s.links.dateExpiryPointer)
    if (typeof inception === 'string' && typeof expiry === 'string') {
      const date = addDays(
        inception,
        Math.min(s.termination.afterDays, Math.max(0, daysBetween(inception, expiry) - 1)),
      )
      expectStatus(await api.terminationPremiums(policyId, { type: 'pro-rata', date }), 200)
      await readEveryView(policyId, q.quoteId)
    }
  },
)
