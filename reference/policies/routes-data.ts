import type { FastifyInstance } from 'fastify'
import { findPolicy, notFound, routeOf } from './common'
import { addDaysIso, addMonthsIso } from './pricing'
import type { PoliciesStore } from './store'
import { invoiceView } from './views'

/**
 * The next period: starts the day after the expiry (the last covered day); a period of whole months (a year,
 * six months, one month) is renewed for as many months, anything else for as many days.
 */
export function renewalPeriod(dateInception: string, dateExpiry: string): { dateInception: string; dateExpiry: string } {
  const start = addDaysIso(dateExpiry, 1)
  for (let months = 1; months <= 36; months += 1) {
    if (addDaysIso(addMonthsIso(dateInception, months), -1) === dateExpiry) return { dateInception: start, dateExpiry: addDaysIso(addMonthsIso(start, months), -1) }
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
      if (!policy) return notFound(reply, 'policy')
      return store.invoicesOf(policy.id).map((i) => invoiceView(store, i))
    },
  })

  app.route({
    ...routeOf('sales.policy.period-totals'),
    handler: async (req, reply) => {
      const { policy } = findPolicy(store, req)
      if (!policy) return notFound(reply, 'policy')
      return { data: { policyId: policy.id, ...store.totals(policy) } }
    },
  })

  app.route({
    ...routeOf('sales.policy.renewal'),
    handler: async (req, reply) => {
      const { policy } = findPolicy(store, req)
      if (!policy) return notFound(reply, 'policy')
      const next = store.ctx.defects.has('policies-renewal-dates-wrong')
        ? { dateInception: policy.dateInception, dateExpiry: policy.dateExpiry }
        : renewalPeriod(policy.dateInception, policy.dateExpiry)
      const data = structuredClone(policy.data)
      const block = (data['policy'] ?? {}) as Record<string, unknown>
      data['policy'] = { ...block, ...next }
      return {
        data: { schema: { type: 'policy', name: policy.product }, ...data },
        meta: { schemaPath: `policy/regular/${policy.product}`, renewalOf: policy.id, policyNo: policy.policyNo },
      }
    },
  })
}
