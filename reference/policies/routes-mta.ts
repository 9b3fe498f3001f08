import type { FastifyInstance } from 'fastify'
import { principalOf } from '../context'
import type { IssueHandler, QuoteRecord } from '../sales/ledger'
import { invalid, isObject, notFound, routeOf } from './common'
import { cents, isIso, mtaPremium } from './pricing'
import type { PoliciesStore } from './store'

/**
 * POST /sales/policies/mta: `{policy: {id: <policy id>, ...}, customer?, objects?, mta: {dateEffective}}`
 * (a schema block is ignored). The product data sent replaces the policy's data block by block
 * (policy, customer, objects); the merged data must be valid for the product. Answers like quote
 * create: the new quote at /policy/id. The quote is calculated and issued through the normal lifecycle.
 */
export function registerMtaRoutes(app: FastifyInstance, store: PoliciesStore): void {
  const effective = new Map<string, string>()

  app.route({
    ...routeOf('sales.quote.mta'),
    handler: async (req, reply) => {
      const principal = principalOf(req)
      const body = req.body
      if (!isObject(body) || !isObject(body['policy']))
        return invalid(reply, { policy: ['policy with the id of the policy to change is required'] })
      const { id, ...policyChanges } = body['policy']
      if (typeof id !== 'string' && typeof id !== 'number')
        return invalid(reply, { 'policy.id': ['the id of the policy to change is required'] })
      const policy = store.ledger.policy(principal.tenant, String(id))
      if (!policy)
        return store.ctx.defects.has('policies-mta-unknown-policy-accepted')
          ? { policy: { id: store.ctx.ids.wire(store.ledger.id()) } }
          : notFound(reply, 'policy')
      const onTerminated =
        policy.status === 'terminated' && store.ctx.defects.has('exercise-mta-on-terminated-accepted')
      if (policy.status !== 'active' && !onTerminated)
        return invalid(reply, { 'policy.id': [`the policy is ${policy.status}`] })
      const mta = isObject(body['mta']) ? body['mta'] : {}
      const date = mta['dateEffective']
      if (!isIso(date) || date < policy.dateInception || date > policy.dateExpiry) {
        return invalid(reply, {
          'mta.dateEffective': [`an ISO date within ${policy.dateInception}..${policy.dateExpiry} is required`],
        })
      }
      const data = structuredClone(policy.data)
      data['policy'] = { ...(isObject(data['policy']) ? data['policy'] : {}), ...policyChanges }
      for (const block of ['customer', 'objects'] as const)
        if (isObject(body[block])) data[block] = structuredClone(body[block])
      const errors = store.ledger.validateQuoteData(policy.product, data)
      if (errors) return invalid(reply, errors)
      const quote = store.ledger.createQuote({
        tenant: principal.tenant,
        owner: principal.username,
        product: policy.product,
        kind: 'mta',
        policyId: policy.id,
        data,
      })
      effective.set(quote.id, date)
      if (store.ctx.defects.has('policies-mta-quote-stays-locked')) store.ledger.lock(quote, 3_600_000, 'mta')
      const shownId = store.ctx.defects.has('policies-mta-returns-policy-id') ? policy.id : quote.id
      return {
        ...data,
        policy: {
          ...(data['policy'] as Record<string, unknown>),
          id: store.ctx.ids.wire(shownId),
          policyId: store.ctx.ids.wire(policy.id),
        },
      }
    },
  })

  const issueMta: IssueHandler = (quote: QuoteRecord, ledger) => {
    const policy = quote.policyId ? ledger.policies.get(quote.policyId) : undefined
    if (!policy || policy.tenant !== quote.tenant)
      return { ok: false, message: 'the policy of this MTA quote does not exist', data: { code: 'no-policy' } }
    if (policy.status !== 'active')
      return { ok: false, message: `the policy is ${policy.status}`, data: { code: 'not-active' } }
    if (!quote.financials || !quote.installments)
      return { ok: false, message: 'the quote has no calculation', data: { code: 'not-calculated' } }
    if (store.ctx.defects.has('policies-mta-issue-fails'))
      return { ok: false, message: 'the MTA could not be applied', data: { code: 'mta-failed' } }
    const date = effective.get(quote.id) ?? policy.dateInception
    const premium = mtaPremium(
      { premium: policy.financials.periodPremium, dateInception: policy.dateInception, dateExpiry: policy.dateExpiry },
      quote.financials.periodPremium,
      date,
    )
    const defects = store.ctx.defects
    if (!defects.has('policies-mta-not-applied')) {
      policy.data = structuredClone(quote.data)
      policy.financials = structuredClone(quote.financials)
      policy.installments = structuredClone(quote.installments)
      policy.quoteIds.push(quote.id)
      if (defects.has('policies-mta-moves-inception')) policy.dateInception = date
      if (defects.has('policies-mta-renumbers')) policy.policyNo = `${policy.policyNo}-M${policy.quoteIds.length - 1}`
      if (!defects.has('policies-mta-totals-unchanged')) {
        store.addInvoice(policy, { duedate: date, premium, adminfee: 0, mgacomm: 0, brokercomm: 0, source: 'mta' })
      }
      ledger.policyChanged(policy, 'mta', quote)
    }
    return { ok: true, policy, data: { mtaPremium: cents(premium), dateEffective: date } }
  }
  store.ledger.issueHandlers.set('mta', issueMta)
}
