import type { FastifyInstance } from 'fastify'
import { errorBody } from '../context'
import type { DefectSet } from '../defects/catalogue'
import type { PolicyRecord } from '../sales/ledger'
import { findPolicy, invalid, isMoney, isObject, notFound, routeOf } from './common'
import { cents, isIso, proRata, shortRate, type Period } from './pricing'
import type { PoliciesStore } from './store'

const QUOTE_TYPES = ['pro-rata', 'short-rate', 'manual'] as const
const TERMINATE_TYPES = ['manual', 'pro-rata', 'full-rollback'] as const

interface TerminationInput {
  terminationType: string
  terminationDate: string
  terminationSum?: number
  shortRatePct?: number
  terminationReason?: string
}

/** Reads {policy: {terminationType, terminationDate, terminationSum?, shortRatePct?}}; errors by field. */
function readInput(
  body: unknown,
  policy: PolicyRecord,
  types: readonly string[],
  defects: DefectSet,
): { input?: TerminationInput; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {}
  const p = isObject(body) && isObject(body['policy']) ? body['policy'] : undefined
  if (!p) return { errors: { policy: ['policy is required'] } }
  const type = p['terminationType']
  if (typeof type !== 'string' || !types.includes(type))
    errors['policy.terminationType'] = [`one of ${types.join(', ')}`]
  const date = type === 'full-rollback' ? (p['terminationDate'] ?? policy.dateInception) : p['terminationDate']
  if (!isIso(date)) errors['policy.terminationDate'] = ['an ISO date is required']
  else if (
    (date < policy.dateInception || date > policy.dateExpiry) &&
    !defects.has('policies-termination-date-unchecked')
  )
    errors['policy.terminationDate'] = [`must be within ${policy.dateInception}..${policy.dateExpiry}`]
  const sum = p['terminationSum']
  if (type === 'manual' && (!isMoney(sum) || sum < 0))
    errors['policy.terminationSum'] = ['a non-negative amount is required for manual termination']
  const pct = p['shortRatePct']
  if (type === 'short-rate' && (typeof pct !== 'number' || pct < 0 || pct > 100))
    errors['policy.shortRatePct'] = ['a percentage 0..100 is required for short-rate termination']
  if (Object.keys(errors).length > 0) return { errors }
  return {
    input: {
      terminationType: type as string,
      terminationDate: date as string,
      ...(typeof sum === 'number' ? { terminationSum: sum } : {}),
      ...(typeof pct === 'number' ? { shortRatePct: pct } : {}),
      ...(typeof p['terminationReason'] === 'string' ? { terminationReason: p['terminationReason'] } : {}),
    },
    errors,
  }
}

/** The return premium of a termination of this policy. */
function returnPremium(store: PoliciesStore, policy: PolicyRecord, i: TerminationInput): number {
  const period: Period = {
    premium: store.totals(policy).premium,
    dateInception: policy.dateInception,
    dateExpiry: policy.dateExpiry,
  }
  const defects = store.ctx.defects
  switch (i.terminationType) {
    case 'manual':
      return defects.has('policies-manual-sum-ignored')
        ? proRata(period, i.terminationDate)
        : cents(i.terminationSum ?? 0)
    case 'short-rate':
      return defects.has('policies-short-rate-wrong')
        ? proRata(period, i.terminationDate)
        : shortRate(period, i.terminationDate, i.shortRatePct ?? 0)
    case 'full-rollback':
      return period.premium
    default:
      return proRata(period, i.terminationDate, defects.has('policies-pro-rata-wrong'))
  }
}

/** Termination: return premium quotes, and terminating a policy (once). */
export function registerTerminationRoutes(app: FastifyInstance, store: PoliciesStore): void {
  const terminated = (policy: PolicyRecord) =>
    store.terminations.has(policy.id) && !store.ctx.defects.has('policies-termination-repeatable')

  app.route({
    ...routeOf('sales.termination.premiums'),
    handler: async (req, reply) => {
      const { policy } = findPolicy(store, req)
      if (!policy) return notFound(reply, 'policy')
      if (terminated(policy)) return reply.code(409).send(errorBody('the policy is already terminated'))
      const { input, errors } = readInput(req.body, policy, QUOTE_TYPES, store.ctx.defects)
      if (!input) return invalid(reply, errors)
      if (store.ctx.defects.has('policies-termination-quote-moves-financials'))
        policy.financials = {
          ...policy.financials,
          periodPremium: cents(policy.financials.periodPremium - returnPremium(store, policy, input)),
        }
      if (store.ctx.defects.has('policies-termination-quote-books-return'))
        store.addInvoice(policy, {
          duedate: input.terminationDate,
          premium: cents(-returnPremium(store, policy, input)),
          adminfee: 0,
          mgacomm: 0,
          brokercomm: 0,
          source: 'termination',
        })
      return {
        data: {
          policyId: store.ctx.ids.wire(policy.id),
          terminationType: input.terminationType,
          terminationDate: input.terminationDate,
          premium: store.totals(policy).premium,
          returnPremium: returnPremium(store, policy, input),
        },
      }
    },
  })

  app.route({
    ...routeOf('sales.termination.terminate'),
    handler: async (req, reply) => {
      const { policy } = findPolicy(store, req)
      if (!policy) return notFound(reply, 'policy')
      if (terminated(policy)) return reply.code(409).send(errorBody('the policy is already terminated'))
      const { input, errors } = readInput(req.body, policy, TERMINATE_TYPES, store.ctx.defects)
      if (!input) return invalid(reply, errors)
      const amount = returnPremium(store, policy, input)
      const eventId = store.ledger.id()
      store.terminations.set(policy.id, {
        eventId,
        terminationType: input.terminationType,
        terminationDate: input.terminationDate,
        returnPremium: amount,
        ...(input.terminationReason !== undefined ? { reason: input.terminationReason } : {}),
        at: new Date().toISOString(),
      })
      if (!store.ctx.defects.has('policies-totals-ignore-return-premium')) {
        store.addInvoice(policy, {
          duedate: input.terminationDate,
          premium: cents(-amount),
          adminfee: 0,
          mgacomm: 0,
          brokercomm: 0,
          source: 'termination',
        })
      }
      if (!store.ctx.defects.has('policies-termination-not-shown')) {
        policy.status = 'terminated'
        policy.extra['policyView'] = {
          terminationType: input.terminationType,
          terminationDate: input.terminationDate,
          returnPremium: amount,
        }
      }
      if (store.ctx.defects.has('policies-terminate-renumbers')) policy.policyNo = `${policy.policyNo}-C`
      if (store.ctx.defects.has('policies-terminate-moves-inception')) policy.dateInception = input.terminationDate
      store.ledger.policyChanged(policy, 'terminate')
      return store.ctx.defects.has('policies-terminate-no-event-id') ? {} : { event_id: store.ctx.ids.wire(eventId) }
    },
  })
}
