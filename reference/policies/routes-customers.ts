import type { FastifyInstance } from 'fastify'
import { findTenant } from '../demo-data'
import { errorBody } from '../context'
import type { PolicyRecord } from '../sales/ledger'
import { findPolicy, isObject, routeOf } from './common'
import { addDaysIso } from './pricing'
import type { PoliciesStore } from './store'

function customerOf(policy: PolicyRecord): Record<string, unknown> {
  const c = policy.data['customer']
  return isObject(c) ? c : {}
}

function matches(policy: PolicyRecord, names: string[], query: Record<string, unknown>, onlyFirst = false): boolean {
  const c = customerOf(policy)
  return (onlyFirst ? names.slice(0, 1) : names).every(
    (n) => typeof query[n] === 'string' && c[n] !== undefined && String(c[n]) === query[n],
  )
}

/**
 * GET /customers/policies/{policyId}/custom-view/installments: only for the policy's own customer,
 * identified by the query parameters the tenant's customer_identity feature names. Missing
 * parameters get 400; parameters of anybody else (or an unknown policy) get the same 404.
 */
export function registerCustomerRoutes(app: FastifyInstance, store: PoliciesStore): void {
  app.route({
    ...routeOf('sales.customers.custom-view'),
    handler: async (req, reply) => {
      const { principal, policy } = findPolicy(store, req)
      const names = findTenant(principal.tenant)?.features.customer_identity ?? []
      if (names.length === 0)
        return reply.code(404).send(errorBody('the customer_identity feature is not enabled for this tenant'))
      const query = (req.query ?? {}) as Record<string, unknown>
      const defects = store.ctx.defects
      const ignore = defects.has('policies-custom-view-ignores-identity')
      const missing = names.filter((n) => typeof query[n] !== 'string' || query[n] === '')
      if (missing.length > 0 && !ignore)
        return reply.code(400).send(errorBody('missing customer identity parameters', { parameters: missing }))
      // policies-custom-view-matches-first-only: every parameter must be present, but only the first (code) is compared
      let allowed =
        policy !== undefined && matches(policy, names, query, defects.has('policies-custom-view-matches-first-only'))
      if (!allowed && policy && defects.has('policies-custom-view-leaks-other-customer')) {
        allowed = [...store.ledger.policies.values()].some(
          (p) => p.tenant === principal.tenant && matches(p, names, query),
        )
      }
      if (!policy || (!allowed && !ignore))
        return reply.code(404).send(errorBody('no policy of this customer with this id'))
      // a cache keyed by tenant, not policy: the invoices of the tenant's policy issued last before (or after) this one
      const others = [...store.ledger.policies.values()].filter((p) => p.tenant === policy.tenant && p.id !== policy.id)
      const source =
        defects.has('policies-custom-view-other-policy') && others.length > 0 ? others[others.length - 1]! : policy
      const invoices = store.invoicesOf(source.id).filter((i) => i.source === 'installment')
      // a statement generated on every read
      if (defects.has('policies-custom-view-adds-document'))
        store.ledger.addDocument({
          tenant: policy.tenant,
          policyId: policy.id,
          name: 'statement.pdf',
          contentType: 'application/pdf',
          content: Buffer.from('%PDF-1.4\n% statement\n'),
        })
      return {
        data: {
          policyId: store.ctx.ids.wire(policy.id),
          policyNo: policy.policyNo,
          installments: policy.installments.map((inst, i) => ({
            dueDate: defects.has('policies-custom-view-due-dates-shifted') ? addDaysIso(inst.dueDate, 1) : inst.dueDate,
            premium:
              i === 0 && defects.has('policies-custom-view-wrong-installments')
                ? inst.premium + policy.financials.adminFeeSum
                : defects.has('policies-custom-view-premium-in-cents')
                  ? Math.round(inst.premium * 100)
                  : inst.premium,
            ...(invoices[i]
              ? { invoicenumber: invoices[i].invoicenumber, paid: store.paidOn(invoices[i].invoicenumber) }
              : {}),
          })),
        },
      }
    },
  })
}
