import type { FastifyInstance } from 'fastify'
import { errorBody, principalOf } from '../context'
import { invalid, isMoney, isObject, notFound, routeOf, type Params } from './common'
import { cents, isIso } from './pricing'
import type { AllocationRecord, PaymentRecord } from './records'
import type { PoliciesStore } from './store'
import { raceWindow } from '../defects/concurrency'

function paymentView(store: PoliciesStore, p: PaymentRecord) {
  const unallocated = store.unallocated(p)
  return {
    id: store.ctx.ids.wire(p.id),
    amount: p.amount,
    allocated: cents(p.amount - unallocated),
    unallocated,
    paymentDate: p.paymentDate,
    reference: p.reference,
  }
}

function eventView(store: PoliciesStore, a: AllocationRecord) {
  const w = (id: string) => store.ctx.ids.wire(id)
  return {
    eventId: w(a.eventId),
    paymentId: w(a.paymentId),
    invoicenumber: a.invoicenumber,
    amount: a.amount,
    ...(a.creditedAt ? { creditedAt: a.creditedAt } : {}),
  }
}

/** Broker payments: insert, allocate to invoices (all or nothing), credit one allocation event. */
export function registerPaymentRoutes(app: FastifyInstance, store: PoliciesStore): void {
  app.route({
    ...routeOf('sales.payments.insert'),
    handler: async (req, reply) => {
      const { tenant } = principalOf(req)
      const b = req.body
      const errors: Record<string, string[]> = {}
      if (!isObject(b)) return invalid(reply, { body: ['a JSON object is required'] })
      if (!isMoney(b['amount']) || b['amount'] <= 0)
        errors['amount'] = ['a positive amount with at most 2 decimals is required']
      if (b['paymentDate'] !== undefined && !isIso(b['paymentDate'])) errors['paymentDate'] = ['an ISO date']
      if (b['reference'] !== undefined && typeof b['reference'] !== 'string') errors['reference'] = ['a string']
      if (Object.keys(errors).length > 0) return invalid(reply, errors)
      const payment: PaymentRecord = {
        id: store.ledger.id(),
        tenant,
        amount: b['amount'] as number,
        paymentDate: (b['paymentDate'] as string | undefined) ?? new Date().toISOString().slice(0, 10),
        reference: (b['reference'] as string | undefined) ?? '',
        createdAt: new Date().toISOString(),
      }
      store.payments.set(payment.id, payment)
      const view: Record<string, unknown> = paymentView(store, payment)
      if (store.ctx.defects.has('policies-payment-id-missing')) delete view['id']
      return reply.code(201).send({ data: view })
    },
  })

  app.route({
    ...routeOf('sales.payments.allocate'),
    handler: async (req, reply) => {
      const { tenant } = principalOf(req)
      const b = req.body
      if (
        !isObject(b) ||
        (typeof b['paymentId'] !== 'string' && typeof b['paymentId'] !== 'number') ||
        !Array.isArray(b['allocations']) ||
        b['allocations'].length === 0
      ) {
        return invalid(reply, { body: ['{paymentId, allocations: [{invoicenumber, amount}, ...]} is required'] })
      }
      const payment = store.payments.get(String(b['paymentId']))
      if (!payment || payment.tenant !== tenant) return notFound(reply, 'payment')
      if (store.ctx.defects.has('concurrency-allocation-races-credit')) {
        // the payment's events read, a wait, then written back as read: a credit done meanwhile is undone
        const read = [...store.allocations.values()]
          .filter((x) => x.paymentId === payment.id)
          .map((x) => structuredClone(x))
        await raceWindow()
        for (const x of read) store.allocations.set(x.eventId, x)
      }
      const wanted: { invoicenumber: string; amount: number }[] = []
      const errors: Record<string, string[]> = {}
      for (const [i, a] of (b['allocations'] as unknown[]).entries()) {
        if (!isObject(a) || typeof a['invoicenumber'] !== 'string' || !isMoney(a['amount']) || a['amount'] <= 0) {
          errors[`allocations.${i}`] = ['{invoicenumber, amount > 0} is required']
          continue
        }
        wanted.push({ invoicenumber: a['invoicenumber'], amount: a['amount'] })
      }
      if (Object.keys(errors).length > 0) return invalid(reply, errors)
      if (store.ctx.defects.has('policies-allocate-unknown-invoice-ok')) {
        const known = wanted.filter((w) => store.invoice(tenant, w.invoicenumber))
        wanted.splice(0, wanted.length, ...known)
      }
      const invoices = wanted.map((w) => store.invoice(tenant, w.invoicenumber))
      const missing = wanted.filter((_w, i) => !invoices[i]).map((w) => w.invoicenumber)
      if (missing.length > 0) return reply.code(404).send(errorBody('invoice not found', { invoices: missing }))
      const terminated = (i: (typeof invoices)[number]) =>
        i !== undefined && store.ledger.policies.get(i.policyId)?.status === 'terminated'
      if (store.ctx.defects.has('exercise-payment-on-terminated-refused') && invoices.some(terminated)) {
        return invalid(reply, { allocations: ['the policy is terminated: its invoices take no more payments'] })
      }
      if (!store.ctx.defects.has('policies-over-allocation-accepted')) {
        const total = cents(wanted.reduce((s, w) => s + w.amount, 0))
        if (total > store.unallocated(payment))
          return invalid(reply, {
            allocations: [`${total} is more than the unallocated ${store.unallocated(payment)} of the payment`],
          })
        const perInvoice = new Map<string, number>()
        for (const w of wanted)
          perInvoice.set(w.invoicenumber, cents((perInvoice.get(w.invoicenumber) ?? 0) + w.amount))
        for (const [number, amount] of perInvoice) {
          const inv = store.invoice(tenant, number)!
          if (amount > store.outstanding(inv))
            return invalid(reply, {
              allocations: [`${amount} is more than the ${store.outstanding(inv)} due on invoice ${number}`],
            })
        }
      }
      // policies-allocation-split-booked-to-first-invoice: every amount booked on the first invoice named, the events
      // naming the invoices asked for
      const booked = store.ctx.defects.has('policies-allocation-split-booked-to-first-invoice') ? 0 : undefined
      const events = wanted.map((w, i) => {
        const on = booked ?? i
        const a: AllocationRecord = {
          eventId: store.ledger.id(),
          tenant,
          paymentId: payment.id,
          invoicenumber: wanted[on]!.invoicenumber,
          policyId: invoices[on]!.policyId,
          amount: w.amount,
          createdAt: new Date().toISOString(),
        }
        // exercise-payment-on-terminated-not-counted: answered, but never booked on a terminated policy's invoice
        if (!(store.ctx.defects.has('exercise-payment-on-terminated-not-counted') && terminated(invoices[on])))
          store.allocations.set(a.eventId, a)
        return { ...eventView(store, a), invoicenumber: w.invoicenumber }
      })
      return { data: { paymentId: store.ctx.ids.wire(payment.id), events, unallocated: store.unallocated(payment) } }
    },
  })

  app.route({
    ...routeOf('sales.invoice.credit'),
    handler: async (req, reply) => {
      const { tenant } = principalOf(req)
      const eventId = (req.params as Params)['eventId'] ?? ''
      let a = store.allocations.get(eventId)
      if (!a || (a.tenant !== tenant && !store.ctx.defects.has('policies-credit-other-tenant'))) {
        if (store.ctx.defects.has('policies-credit-unknown-event-ok'))
          return { data: { eventId: store.ctx.ids.wire(eventId), credited: 0 } }
        return notFound(reply, 'allocation event')
      }
      if (a.creditedAt) {
        if (store.ctx.defects.has('policies-credit-repeatable'))
          return { data: { ...eventView(store, a), eventId: store.ctx.ids.wire(eventId), credited: a.amount } }
        return reply.code(409).send(errorBody('the allocation event is already credited'))
      }
      if (store.ctx.defects.has('policies-credit-reverses-wrong-allocation')) {
        const first = [...store.allocations.values()].find((x) => x.paymentId === a!.paymentId && !x.creditedAt)
        if (first) a = first
      }
      if (!store.ctx.defects.has('policies-credit-not-applied')) a.creditedAt = new Date().toISOString()
      if (store.ctx.defects.has('policies-credit-reverses-whole-payment'))
        for (const x of store.allocations.values())
          if (x.paymentId === a.paymentId && !x.creditedAt) x.creditedAt = a.creditedAt ?? new Date().toISOString()
      return { data: { ...eventView(store, a), eventId: store.ctx.ids.wire(eventId), credited: a.amount } }
    },
  })
}
