import type { OperationId } from '../../../common/operations'
import { describe, expect, it } from 'vitest'
import { PolicyModel } from '../../../helpers/oracle/policy-model'
import type { InvariantId } from '../../../helpers/oracle/invariants'
import { leavesOf } from '../../../helpers/oracle/leaves'
import type { Violation } from '../../../helpers/oracle/invariants'
import { POLICIES_DEFAULTS } from '../../../common/config/policies-settings'
import { answer } from './support'

const links = (o: { no?: string; inception?: string; email?: string; premium?: number; quotes?: string[] } = {}) =>
  answer(200, {
    data: {
      policy: {
        policyNo: o.no ?? 'HOM-1',
        dateInception: o.inception ?? '2027-01-01',
        dateExpiry: '2027-12-31',
        financials: { periodPremium: o.premium ?? 100 },
      },
      customer: { email: o.email ?? 'a@x.test' },
      objects: {},
    },
    links: { quotes: o.quotes ?? ['q1'], documents: [] },
  })

function judge(
  m: PolicyModel,
  op: OperationId,
  params: Record<string, string>,
  res = links(),
  json?: unknown,
  settled = true,
): Violation[] {
  const out: Violation[] = []
  m.observe(op, params, json, 'acme', res, false, settled, new Set<InvariantId>(), out)
  return out
}

function issued(): PolicyModel {
  const m = new PolicyModel(POLICIES_DEFAULTS)
  const quote = {
    schema: { type: 'policy', name: 'home' },
    policy: { dateInception: '2027-01-01', dateExpiry: '2027-12-31' },
    customer: { email: 'a@x.test' },
  }
  m.issued(
    'p1',
    'acme',
    { quoteId: 'q1', leaves: leavesOf(quote) },
    answer(200, { status: 'success', data: { policyId: 'p1', policyNo: 'HOM-1' } }),
  )
  return m
}

describe('PolicyModel', () => {
  it('accepts a policy shown as issued and unchanged by reads', () => {
    const m = issued()
    expect(judge(m, 'sales.policy.links', { policyId: 'p1' })).toEqual([])
    expect(judge(m, 'sales.policy.renewal', { policyId: 'p1' }, answer(200, {}))).toEqual([])
    expect(judge(m, 'sales.policy.links', { policyId: 'p1' })).toEqual([])
  })

  it('PL-INV-003: the number the request named and the quote data as last written', () => {
    expect(
      judge(issued(), 'sales.policy.links', { policyId: 'p1' }, links({ no: 'HOM-2' })).map((v) => v.invariant),
    ).toEqual(['PL-INV-003'])
    expect(
      judge(issued(), 'sales.policy.links', { policyId: 'p1' }, links({ email: 'b@x.test' })).map((v) => v.invariant),
    ).toEqual(['PL-INV-003'])
  })

  it('PL-INV-005: a read that adds a quote, a changed number or inception', () => {
    const m = issued()
    judge(m, 'sales.policy.links', { policyId: 'p1' })
    expect(
      judge(m, 'sales.policy.links', { policyId: 'p1' }, links({ quotes: ['q1', 'q9'] })).map((v) => v.invariant),
    ).toEqual(['PL-INV-005'])
    const n = issued()
    judge(n, 'sales.policy.links', { policyId: 'p1' })
    judge(n, 'sales.policy.data-change', { id: 'p1' }, answer(200, {}), { customer: { email: 'c@x.test' } })
    expect(
      judge(n, 'sales.policy.links', { policyId: 'p1' }, links({ email: 'c@x.test', inception: '2027-03-01' })).map(
        (v) => v.invariant,
      ),
    ).toEqual(['PL-INV-005'])
  })

  it('an MTA or a termination may change the financials; a technical change may not', () => {
    const m = issued()
    judge(m, 'sales.policy.links', { policyId: 'p1' })
    judge(m, 'sales.termination.terminate', { policyId: 'p1' }, answer(200, {}))
    expect(judge(m, 'sales.policy.links', { policyId: 'p1' }, links({ premium: 60 }))).toEqual([])
    judge(m, 'sales.policy.data-change', { id: 'p1' }, answer(200, {}), { customer: { email: 'a@x.test' } })
    expect(judge(m, 'sales.policy.links', { policyId: 'p1' }, links({ premium: 70 })).map((v) => v.invariant)).toEqual([
      'PL-INV-005',
    ])
  })

  it(
    'PL-INV-004: calculation and schedule read with no write in between agree; a write in between starts ' + 'afresh',
    () => {
      const m = new PolicyModel(POLICIES_DEFAULTS)
      const calc = (installments: { dueDate: string; premium: number }[]) =>
        answer(200, { data: { periodPremium: installments.reduce((s, i) => s + i.premium, 0) }, installments })
      const one = [{ dueDate: '2027-01-01', premium: 100 }]
      const two = [
        { dueDate: '2027-01-01', premium: 50 },
        { dueDate: '2027-07-01', premium: 50 },
      ]
      expect(judge(m, 'sales.quote.calculation', { id: 'q1' }, calc(one))).toEqual([])
      expect(judge(m, 'sales.quote.installments', { policyId: 'q1' }, answer(200, { instalments: one }))).toEqual([])
      judge(m, 'sales.quote.update', { policyId: 'q1' }, answer(200, {}))
      judge(m, 'sales.quote.calculate', { id: 'q1' }, answer(200, {}))
      expect(judge(m, 'sales.quote.calculation', { id: 'q1' }, calc(one))).toEqual([])
      expect(
        judge(m, 'sales.quote.installments', { policyId: 'q1' }, answer(200, { instalments: two })).map(
          (v) => v.invariant,
        ),
      ).toEqual(['PL-INV-004'])
    },
  )

  it(
    'PL-INV-004: a view answering 409 (not calculated) agrees only with one that says so too, with no write in ' +
      'between',
    () => {
      const m = new PolicyModel(POLICIES_DEFAULTS)
      const one = [{ dueDate: '2027-01-01', premium: 100 }]
      const notCalculated = answer(409, { message: 'not calculated' })
      // never calculated: both say so
      expect(judge(m, 'sales.quote.calculation', { id: 'q0' }, notCalculated)).toEqual([])
      expect(judge(m, 'sales.quote.installments', { policyId: 'q0' }, notCalculated)).toEqual([])
      // changed and calculated again: the schedule shows the new installments, the calculation says not calculated
      judge(m, 'sales.quote.update', { policyId: 'q1' }, answer(200, {}))
      judge(m, 'sales.quote.calculate', { id: 'q1' }, answer(200, {}))
      expect(judge(m, 'sales.quote.installments', { policyId: 'q1' }, answer(200, { instalments: one }))).toEqual([])
      const v = judge(m, 'sales.quote.calculation', { id: 'q1' }, notCalculated)
      expect(v.map((x) => x.invariant)).toEqual(['PL-INV-004'])
      expect(v[0]!.actual).toContain('409 (not calculated)')
    },
  )

  it(
    'PL-INV-006: invoices sum to the totals premium to the cent, the policy view shows it, the custom view shows ' +
      'the invoices',
    () => {
      const invoices = (...l: [string, number][]) =>
        answer(
          200,
          l.map(([n, premium], i) => ({ invoicenumber: n, duedate: `2027-0${i + 1}-01`, premium })),
        )
      const totals = (premium: number) => answer(200, { data: { premium, adminFee: 0, paid: 0, balance: premium } })
      const view = (...l: [string, number][]) =>
        answer(200, {
          data: {
            installments: l.map(([n, premium], i) => ({ invoicenumber: n, dueDate: `2027-0${i + 1}-01`, premium })),
          },
        })
      const ids = (v: Violation[]) => v.map((x) => x.invariant)
      // agreeing views, invoices in any order: nothing
      const m = issued()
      expect(judge(m, 'sales.policy.links', { policyId: 'p1' }, links({ premium: 100.01 }))).toEqual([])
      expect(judge(m, 'sales.policy.invoices', { policyId: 'p1' }, invoices(['i2', 50], ['i1', 50.01]))).toEqual([])
      expect(judge(m, 'sales.policy.period-totals', { id: 'p1' }, totals(100.01))).toEqual([])
      expect(
        judge(
          m,
          'sales.customers.custom-view',
          { policyId: 'p1' },
          answer(200, {
            data: {
              installments: [
                { invoicenumber: 'i1', dueDate: '2027-02-01', premium: 50.01 },
                { invoicenumber: 'i2', dueDate: '2027-01-01', premium: 50 },
              ],
            },
          }),
        ),
      ).toEqual([])
      // one invoice a cent off
      const a = issued()
      judge(a, 'sales.policy.invoices', { policyId: 'p1' }, invoices(['i1', 50.02], ['i2', 50]))
      expect(ids(judge(a, 'sales.policy.period-totals', { id: 'p1' }, totals(100.01)))).toEqual(['PL-INV-006'])
      // the policy view's premium differs from the totals' until an MTA or a termination
      const b = issued()
      judge(b, 'sales.policy.period-totals', { id: 'p1' }, totals(100.01))
      expect(ids(judge(b, 'sales.policy.links', { policyId: 'p1' }, links({ premium: 100 })))).toEqual(['PL-INV-006'])
      const c = issued()
      judge(c, 'sales.termination.terminate', { policyId: 'p1' }, answer(200, {}))
      judge(c, 'sales.policy.period-totals', { id: 'p1' }, totals(60))
      expect(judge(c, 'sales.policy.links', { policyId: 'p1' }, links({ premium: 100 }))).toEqual([])
      // the custom view serving another policy's invoices
      const d = issued()
      judge(d, 'sales.policy.invoices', { policyId: 'p1' }, invoices(['i1', 50], ['i2', 50]))
      expect(ids(judge(d, 'sales.customers.custom-view', { policyId: 'p1' }, view(['x1', 50], ['x2', 50])))).toEqual([
        'PL-INV-006',
      ])
      // views of different moments (an issue in between) are not compared
      const e = issued()
      judge(e, 'sales.policy.invoices', { policyId: 'p1' }, invoices(['i1', 50], ['i2', 50]))
      judge(e, 'sales.requests.get', { requestId: 'r1' }, answer(200, {}))
      expect(judge(e, 'sales.policy.period-totals', { id: 'p1' }, totals(130))).toEqual([])
    },
  )
})
