import type { FastifyInstance } from 'fastify'
import { findPolicy, invalid, isObject, notFound, routeOf } from './common'
import { addDaysIso, cents } from './pricing'
import type { PoliciesStore } from './store'

/**
 * Fields a technical change may edit: contact data of the customer and reference data of the policy.
 * Anything else (coverage objects, financials, dates, currency, payment frequency, commissions, the
 * customer's legal identity) is refused with 422.
 */
const EDITABLE: Record<string, readonly string[]> = {
  customer: ['name', 'email', 'phone', 'address', 'birthDate'],
  policy: ['externalReference', 'salesChannel', 'underwritingNote'],
}

function refusedFields(body: Record<string, unknown>): string[] {
  const refused: string[] = []
  for (const [block, value] of Object.entries(body)) {
    const allowed = EDITABLE[block]
    if (!allowed) {
      refused.push(block)
      continue
    }
    if (!isObject(value)) {
      refused.push(block)
      continue
    }
    for (const field of Object.keys(value)) if (!allowed.includes(field)) refused.push(`${block}.${field}`)
  }
  return refused
}

function merge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(base)
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else out[k] = isObject(v) && isObject(out[k]) ? merge(out[k], v) : structuredClone(v)
  }
  return out
}

/** PUT /policies/{id}/data-change: edits non-financial data in place; no quote, no documents, same money. */
export function registerTechnicalChangeRoutes(app: FastifyInstance, store: PoliciesStore): void {
  app.route({
    ...routeOf('sales.policy.data-change'),
    handler: async (req, reply) => {
      const { principal, policy } = findPolicy(store, req)
      const defects = store.ctx.defects
      if (!policy)
        return defects.has('policies-data-change-unknown-policy-ok')
          ? { data: { policyId: (req.params as Record<string, string>)['id'] } }
          : notFound(reply, 'policy')
      // a terminated policy is closed: no technical change (defect exercise-data-change-on-terminated-accepted)
      if (policy.status === 'terminated' && !defects.has('exercise-data-change-on-terminated-accepted'))
        return invalid(
          reply,
          { policy: ['the policy is terminated: it can no longer be changed'] },
          'The policy is terminated.',
        )
      const body = req.body
      if (!isObject(body) || Object.keys(body).length === 0)
        return invalid(reply, { body: ['a partial policy document with the fields to change is required'] })
      const refused = defects.has('policies-data-change-refuses-contact-data') ? Object.keys(body) : refusedFields(body)
      if (refused.length > 0 && !defects.has('policies-data-change-accepts-financial')) {
        return invalid(
          reply,
          Object.fromEntries(
            refused.map((f) => [
              f,
              [`The ${f} field cannot be changed by a technical change (coverage, financial or legal data).`],
            ]),
          ),
          'Only non-financial data can be changed.',
        )
      }
      const { financials, ...dataPatch } = (isObject(body['policy']) ? body['policy'] : {}) as Record<string, unknown>
      const patch = { ...body, ...(isObject(body['policy']) ? { policy: dataPatch } : {}) }
      const merged = merge(policy.data, patch)
      const errors = store.ledger.validateQuoteData(policy.product, merged)
      if (errors) return invalid(reply, errors)
      if (!defects.has('policies-data-change-not-applied')) policy.data = merged
      if (isObject(financials)) Object.assign(policy.financials, financials)
      if (defects.has('policies-technical-change-alters-premium')) {
        policy.financials.periodPremium = cents(policy.financials.periodPremium * 1.1)
        for (const inv of store.invoicesOf(policy.id)) inv.premium = cents(inv.premium * 1.1)
      }
      if (defects.has('policies-data-change-creates-quote')) {
        const q = store.ledger.createQuote({
          tenant: principal.tenant,
          owner: principal.username,
          product: policy.product,
          kind: 'mta',
          policyId: policy.id,
          data: merged,
        })
        policy.quoteIds.push(q.id)
      }
      if (defects.has('policies-data-change-moves-inception'))
        policy.dateInception = addDaysIso(policy.dateInception, 1)
      if (defects.has('policies-data-change-adds-document'))
        store.ledger.addDocument({
          tenant: policy.tenant,
          policyId: policy.id,
          name: 'endorsement.pdf',
          contentType: 'application/pdf',
          content: Buffer.from('%PDF-1.4\n% endorsement\n'),
        })
      if (defects.has('policies-data-change-drops-quotes')) policy.quoteIds = []
      if (defects.has('policies-data-change-renumbers')) policy.policyNo = `${policy.policyNo}-${policy.version}`
      store.ledger.policyChanged(policy, 'data-change')
      return { data: { policyId: store.ctx.ids.wire(policy.id), version: policy.version, changed: Object.keys(body) } }
    },
  })
}
