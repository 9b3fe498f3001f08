import { describe } from 'vitest'
import { check, lifecycle } from '../../helpers/checks/check'
import { expectContract } from '../../helpers/checks/contract'
import { expectEqual, expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given, givenOnce } from '../../helpers/checks/setup'
import type { HttpResult } from '../../helpers/client/http/types'
import { PoliciesApi, type Totals } from '../../helpers/checks/policies/api'
import { moneyEqual, roundMoney } from '../../helpers/checks/policies/money'
import { issuePolicy } from '../../helpers/checks/policies/scenario'
import { policiesSettings } from '../../common/config/policies-settings'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { probesFor } from '../../helpers/checks/probes/requests'
import { usePaymentSteps } from '../../helpers/checks/policies/payment-steps'

const t = useTarget()
const s = policiesSettings(t.config)
const api = new PoliciesApi(t, s)
const flow = useSalesFlow(t)
const probes = probesFor(t)
const { live, today, newPayment, allocate, credit } = usePaymentSteps(api)

/** A policy, its first invoice and the totals before any payment. */
const subject = givenOnce(
  'an issued policy, its first invoice and its totals',
  async () => {
    const p = await issuePolicy(flow, api, { label: 'payments' })
    const inv = await api.invoices(p.policyId)
    expectStatus(inv, 200)
    const first = api.readInvoices(inv)?.[0]
    expectThat(first !== undefined && first.invoicenumber !== '' && first.amount !== undefined && first.amount >= 5, {
      expected: `a first invoice with a number and an amount (${s.invoices.amountFields.join(' + ')}) of at least 5`,
      actual: inv.body,
      res: inv,
    })
    const totals = await api.totals(p.policyId)
    expectStatus(totals, 200)
    const base = api.readTotals(totals)
    expectThat(base.paid !== undefined && base.balance !== undefined, {
      expected: `paid (${s.totals.paid}) and balance (${s.totals.balance}) in the period totals`,
      actual: totals.body,
      res: totals,
    })
    const payment = roundMoney(first.amount! * 0.7)
    return {
      p,
      invoice: first.invoicenumber,
      base,
      payment,
      a1: roundMoney(payment * 0.5),
      a2: roundMoney(payment * 0.3),
    }
  },
  { product: t.config.product },
)

async function totalsNow(): Promise<{ res: HttpResult; totals: Totals }> {
  const { p } = await subject()
  const res = await api.totals(p.policyId)
  expectStatus(res, 200)
  return { res, totals: api.readTotals(res) }
}

/** paid and balance moved by `delta` from the totals before any payment. */
async function expectPaidMovedBy(delta: number, why: string): Promise<void> {
  const { base } = await subject()
  const { res, totals } = await totalsNow()
  const want = { paid: roundMoney(base.paid! + delta), balance: roundMoney(base.balance! - delta) }
  const ok =
    totals.paid !== undefined &&
    totals.balance !== undefined &&
    moneyEqual(totals.paid, want.paid, s.moneyTolerance) &&
    moneyEqual(totals.balance, want.balance, s.moneyTolerance)
  expectThat(ok, {
    expected:
      `paid ${want.paid} and balance ${want.balance} (${why}; before any payment: paid ${base.paid}, ` +
      `balance ${base.balance})`,
    actual: { paid: totals.paid, balance: totals.balance },
    res,
  })
}

lifecycle('broker payments: insert, allocate, credit (sales-service.md §1, §4)', (step) => {
  const st: { paymentId?: string; e1?: string } = {}

  step(
    {
      id: 'PL-PAY-001',
      spec: 'sales',
      section: '§4',
      requirement: 'POST /brokerpayments inserts a payment and returns its id.',
    },
    async () => {
      const { payment } = await subject()
      const res = await api.insertPayment(payment, today)
      expectStatus(res, '2xx')
      st.paymentId = api.paymentIdOf(res)
      expectThat(st.paymentId !== undefined, {
        expected: `the payment id at ${s.payments.paymentIdPointer}`,
        actual: res.body,
        res,
      })
      const name = api.contract('sales/payment-insert')
      if (name) expectContract(t.contracts, res, name)
      await expectPaidMovedBy(0, 'an unallocated payment pays nothing')
    },
  )

  step(
    {
      id: 'PL-PAY-002',
      spec: 'sales',
      section: '§1, §4',
      requirement:
        "Allocating part of a payment to the policy's first invoice returns an allocation event id and moves the " +
        "period totals' paid and balance by exactly that amount.",
    },
    async () => {
      const { invoice, a1 } = await subject()
      const { res, events } = await allocate(st.paymentId!, [{ invoicenumber: invoice, amount: a1 }])
      st.e1 = events[0]
      const name = api.contract('sales/payment-allocation')
      if (name) expectContract(t.contracts, res, name)
      await expectPaidMovedBy(a1, `allocated ${a1}`)
    },
  )

  step(
    {
      id: 'PL-PAY-003',
      spec: 'sales',
      section: '§1, §4',
      requirement: 'Crediting the allocation event returns the period totals to what they were before the allocation.',
    },
    async () => {
      const res = await credit(st.e1!)
      const name = api.contract('sales/invoice-credit')
      if (name) expectContract(t.contracts, res, name)
      await expectPaidMovedBy(0, 'the only allocation was credited')
    },
  )

  step(
    {
      id: 'PL-PAY-004',
      spec: 'sales',
      section: '§1, §4',
      requirement:
        'With two live allocations of a payment, crediting one event reverses exactly that allocation and leaves the ' +
        'other.',
    },
    async () => {
      const { invoice, a1, a2 } = await subject()
      const first = await allocate(st.paymentId!, [{ invoicenumber: invoice, amount: a1 }])
      const second = await allocate(st.paymentId!, [{ invoicenumber: invoice, amount: a2 }])
      await expectPaidMovedBy(roundMoney(a1 + a2), `allocated ${a1} and ${a2}`)
      await credit(second.events[0]!)
      await expectPaidMovedBy(a1, `credited the event of ${a2}, the allocation of ${a1} is left`)
      await credit(first.events[0]!)
      await expectPaidMovedBy(0, 'both allocations credited')
    },
  )

  step(
    {
      id: 'PL-PAY-005',
      spec: 'sales',
      section: '§1, §4',
      requirement:
        'An allocation larger than what is left of the payment is refused with a 4xx; nothing is allocated and the ' +
        'whole payment can still be allocated.',
    },
    async () => {
      const { invoice, payment } = await subject()
      const before = await totalsNow()
      const over = await api.allocate(st.paymentId!, [{ invoicenumber: invoice, amount: roundMoney(payment + 1) }])
      for (const e of api.eventIdsOf(over) ?? []) live.add(e)
      expectStatus(over, '4xx')
      const after = await totalsNow()
      expectEqual(
        after.res.text,
        before.res.text,
        'the period totals after the refused allocation (as before)',
        after.res,
      )
      const full = await allocate(st.paymentId!, [{ invoicenumber: invoice, amount: payment }])
      await expectPaidMovedBy(payment, `the whole payment ${payment} allocated`)
      await credit(full.events[0]!)
    },
  )

  step(
    {
      id: 'PL-PAY-006',
      spec: 'sales',
      section: '§4',
      requirement: 'A second credit of the same allocation event is refused with a 4xx and changes nothing.',
    },
    async () => {
      const before = await totalsNow()
      expectStatus(await api.credit(st.e1!), '4xx')
      const after = await totalsNow()
      expectEqual(after.res.text, before.res.text, 'the period totals after the refused credit (as before)', after.res)
    },
  )
})

describe('broker payments: unknown ids and other tenants (sales-service.md §4, §5)', () => {
  check(
    {
      id: 'PL-PAY-007',
      spec: 'sales',
      section: '§4',
      requirement:
        `Crediting an allocation event id that does not exist is refused ` +
        `with ${probes.settings.unknownId.statuses.join(' or ')}: ${probes.settings.unknownId.why}.`,
    },
    async () => {
      expectStatus(await api.credit(probes.missing('sales')), probes.settings.unknownId.statuses)
    },
  )

  check(
    {
      id: 'PL-PAY-008',
      spec: 'sales',
      section: '§4',
      requirement:
        `Allocating to an invoice or from a payment that does not exist is refused ` +
        `with ${probes.settings.unknownReference.statuses.join(' or ')} and changes ` +
        `nothing: ${probes.settings.unknownReference.why}.`,
    },
    async () => {
      const { invoice, a1 } = await subject()
      const before = await totalsNow()
      const paymentId = await given('a new payment', () => newPayment(a1), { product: t.config.product })
      for (const res of [
        await api.allocate(paymentId, [{ invoicenumber: probes.missing('sales', invoice), amount: a1 }]),
        await api.allocate(probes.missing('sales', paymentId), [{ invoicenumber: invoice, amount: a1 }]),
      ]) {
        for (const e of api.eventIdsOf(res) ?? []) live.add(e)
        expectStatus(res, probes.settings.unknownReference.statuses)
      }
      const after = await totalsNow()
      expectEqual(after.res.text, before.res.text, 'the period totals (as before)', after.res)
    },
  )

  check(
    {
      id: 'PL-PAY-009',
      spec: 'sales',
      section: '§4, §5',
      requirement:
        "A caller of another tenant can neither credit this tenant's allocation event nor allocate to its invoice; " +
        'the totals do not move.',
    },
    async (c) => {
      const other = t.user('otherTenant')
      if (!other) return c.notApplicable(t.missingUser('otherTenant'))
      const { invoice, a1 } = await subject()
      const paymentId = await given('a new payment', () => newPayment(a1), { product: t.config.product })
      const { events } = await given(
        'an allocation of it to the policy invoice',
        () => allocate(paymentId, [{ invoicenumber: invoice, amount: a1 }]),
        { product: t.config.product },
      )
      const before = await totalsNow()
      const foreignCredit = await t.sales.call({
        op: 'sales.invoice.credit',
        params: { eventId: events[0]! },
        json: {},
        as: other,
      })
      if (foreignCredit.status < 300) live.delete(events[0]!)
      expectStatus(foreignCredit, '4xx')
      const foreignPay = await t.sales.call({
        op: 'sales.payments.insert',
        json: { amount: a1, paymentDate: today, reference: t.tag('other-tenant') },
        as: other,
      })
      const foreignPaymentId = api.paymentIdOf(foreignPay)
      if (foreignPaymentId) {
        const foreignAllocate = await t.sales.call({
          op: 'sales.payments.allocate',
          json: { paymentId: foreignPaymentId, allocations: [{ invoicenumber: invoice, amount: a1 }] },
          as: other,
        })
        for (const e of api.eventIdsOf(foreignAllocate) ?? []) live.add(e)
        expectStatus(foreignAllocate, '4xx')
      }
      const after = await totalsNow()
      expectEqual(after.res.text, before.res.text, 'the period totals (as before the other tenant tried)', after.res)
      await credit(events[0]!)
    },
  )
})
