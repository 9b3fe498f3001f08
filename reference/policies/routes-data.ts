import type { FastifyInstance } from 'fastify'
import { principalOf } from '../context'
import { findPolicy, notFound, routeOf } from './common'
import { addDaysIso, addMonthsIso, cents } from './pricing'
import type { PoliciesStore } from './store'
import { invoiceView } from './views'

/**
 * The next period: starts the day after the expiry (the last covered day); a period of whole months (a year,
 * six months, one month) is renewed for as many months, anything else for as many days.
 */
export function renewalPeriod(
  dateInception: string,
  dateExpiry: string,
): { dateInception: string; dateExpiry: string } {
  const start = addDaysIso(dateExpiry, 1)
  for (let months = 1; months <= 36; months += 1) {
    if (addDaysIso(addMonthsIso(dateInception, months), -1) === dateExpiry)
      return { dateInception: start, dateExpiry: addDaysIso(addMonthsIso(start, months), -1) }
  }
  const days = Math.round((Date.parse(dateExpiry) - Date.parse(dateInception)) / 86_400_000)
  return { dateInception: start, dateExpiry: addDaysIso(start, days) }
}

/** Policy data (links are served by the sales area): invoices, period totals, renewal preparation. */
export function registerDataRoutes(app: FastifyInstance, store: PoliciesStore): void {
  app.route({
    ...routeOf('sales.policy.invoices'),
    handler: async (req, reply) => {
      const { policy } = findPolicy(store, req)
      if (!policy) return store.ctx.defects.has('policies-unknown-policy-empty-200') ? [] : notFound(reply, 'policy')
      if (policy.status === 'terminated' && store.ctx.defects.has('exercise-invoices-gone-after-termination'))
        return notFound(reply, 'policy')
      store.invoiceReads.set(policy.id, (store.invoiceReads.get(policy.id) ?? 0) + 1)
      const all = store.invoicesOf(policy.id).map((i) => invoiceView(store, i))
      const list = store.ctx.defects.has('exercise-invoices-capped-at-ten') ? all.slice(0, 10) : all
      return store.ctx.options.invoiceOrder === 'newest-first' ? list.reverse() : list
    },
  })

  app.route({
    ...routeOf('sales.policy.period-totals'),
    handler: async (req, reply) => {
      const found = findPolicy(store, req).policy
      const policy =
        found ??
        (store.ctx.defects.has('policies-totals-other-tenant')
          ? store.ledger.policies.get(String((req.params as { id?: string }).id))
          : undefined)
      if (!policy)
        return store.ctx.defects.has('policies-unknown-policy-empty-200') ? { data: {} } : notFound(reply, 'policy')
      const totals = store.totals(policy)
      if (store.ctx.defects.has('policies-totals-as-strings')) {
        return {
          data: {
            policyId: store.ctx.ids.wire(policy.id),
            ...Object.fromEntries(
              Object.entries(totals).map(([k, v]) => [k, typeof v === 'number' ? v.toFixed(2) : v]),
            ),
          },
        }
      }
      return { data: { policyId: store.ctx.ids.wire(policy.id), ...totals } }
    },
  })

  app.route({
    ...routeOf('sales.policy.renewal'),
    handler: async (req, reply) => {
      const { policy } = findPolicy(store, req)
      const defects = store.ctx.defects
      if (!policy)
        return defects.has('policies-renewal-unknown-policy-ok') ? { data: {}, meta: {} } : notFound(reply, 'policy')
      const next = defects.has('policies-renewal-dates-wrong')
        ? { dateInception: policy.dateInception, dateExpiry: policy.dateExpiry }
        : renewalPeriod(policy.dateInception, policy.dateExpiry)
      // defect exercise-renewal-stale-after-change: from the issuing quote's data, as issued
      const asIssued = defects.has('exercise-renewal-stale-after-change')
        ? store.ledger.quotes.get(policy.quoteId)?.data
        : undefined
      const data = structuredClone(asIssued ?? policy.data)
      const block = (data['policy'] ?? {}) as Record<string, unknown>
      data['policy'] = {
        ...block,
        ...next,
        ...(defects.has('policies-renewal-invalid-data') ? { id: policy.id, policyNo: policy.policyNo } : {}),
      }
      if (defects.has('policies-renewal-drops-objects')) delete data['objects']
      const prepared = { schema: { type: 'policy', name: policy.product }, ...data }
      if (defects.has('policies-renewal-adds-quote')) {
        const owner = principalOf(req).username
        policy.quoteIds.push(
          store.ledger.createQuote({
            tenant: policy.tenant,
            owner,
            product: policy.product,
            kind: 'renewal',
            policyId: policy.id,
            data: structuredClone(data),
          }).id,
        )
      }
      // reads that write: the renewal index applied to the policy itself, a renewal fee booked on it
      if (defects.has('policies-renewal-moves-premium'))
        policy.financials = { ...policy.financials, periodPremium: cents(policy.financials.periodPremium * 1.03) }
      if (defects.has('policies-renewal-books-fee'))
        store.addInvoice(policy, {
          duedate: next.dateInception,
          premium: 0,
          adminfee: 5,
          mgacomm: 0,
          brokercomm: 0,
          source: 'mta',
        })
      const meta = { schemaPath: `policy/regular/${policy.product}`, renewalOf: policy.id, policyNo: policy.policyNo }
      if (defects.has('policies-renewal-unwrapped')) return { ...prepared, meta }
      return { data: prepared, meta }
    },
  })
}
