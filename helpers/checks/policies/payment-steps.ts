import { afterAll } from 'vitest'
import type { HttpResult } from '../../client/http/types'
import { expectStatus, expectThat } from '../expect'
import type { PoliciesApi } from './api'

/**
 * The payment steps of the payments checks, each expecting what the next step needs (like expectContract: check-side
 * steps that fail the check, not flows): a payment inserted with its id, an allocation answered with one event per
 * invoice, a credit answered 2xx. The allocation events made and not credited are `live`, credited after the file.
 * The steps are bound: a suite destructures them (`const { allocate, credit } = usePaymentSteps(api)`).
 */
export class PaymentSteps {
  /** Allocation events this file made and did not credit: credited after the file (best effort). */
  readonly live = new Set<string>()
  /** The date of the payments this file inserts. */
  readonly today = new Date().toISOString().slice(0, 10)

  constructor(private readonly api: PoliciesApi) {}

  /** Inserts a payment of `amount` and returns its id (the setup of checks about allocations). */
  readonly newPayment = async (amount: number): Promise<string> => {
    const pay = await this.api.insertPayment(amount, this.today)
    expectStatus(pay, '2xx')
    const paymentId = this.api.paymentIdOf(pay)
    expectThat(paymentId !== undefined, {
      expected: `the payment id at ${this.api.s.payments.paymentIdPointer}`,
      actual: pay.body,
      res: pay,
    })
    return paymentId
  }

  /** Allocates a payment to invoices: 2xx with one event per allocation. */
  readonly allocate = async (
    paymentId: string,
    allocations: { invoicenumber: string; amount: number }[],
  ): Promise<{ res: HttpResult; events: string[] }> => {
    const res = await this.api.allocate(paymentId, allocations)
    expectStatus(res, '2xx')
    const events = this.api.eventIdsOf(res)
    const p = this.api.s.payments
    expectThat(events !== undefined && events.length === allocations.length, {
      expected: `${allocations.length} allocation event id(s) ` + `at ${p.eventsPointer}[].${p.eventIdField}`,
      actual: res.body,
      res,
    })
    for (const e of events) this.live.add(e)
    return { res, events }
  }

  /** Credits an allocation event: 2xx. */
  readonly credit = async (eventId: string): Promise<HttpResult> => {
    const res = await this.api.credit(eventId)
    expectStatus(res, '2xx')
    this.live.delete(eventId)
    return res
  }
}

/** PaymentSteps for this suite file; the events it leaves live are credited after the file (best effort). */
export function usePaymentSteps(api: PoliciesApi): PaymentSteps {
  const steps = new PaymentSteps(api)
  afterAll(async () => {
    for (const id of steps.live) await api.credit(id).catch(() => undefined)
  })
  return steps
}
