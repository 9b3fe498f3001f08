import { describe, expect, it } from 'vitest'
import { PolicyModel } from '../../../helpers/model/policy-model'
import type { InvariantId } from '../../../helpers/model/invariants'
import { leavesOf } from '../../../helpers/model/leaves'
import type { Violation } from '../../../helpers/model/types'
import { POLICIES_DEFAULTS } from '../../../helpers/policies/settings'
import { answer } from './support'

const links = (o: { no?: string; inception?: string; email?: string; premium?: number; quotes?: string[] } = {}) =>
  answer(200, {
    data: { policy: { policyNo: o.no ?? 'HOM-1', dateInception: o.inception ?? '2027-01-01', dateExpiry: '2027-12-31', financials: { periodPremium: o.premium ?? 100 } }, customer: { email: o.email ?? 'a@x.test' }, objects: {} },
    links: { quotes: o.quotes ?? ['q1'], documents: [] },
  })

function judge(m: PolicyModel, op: string, params: Record<string, string>, res = links(), json?: unknown, settled = true): Violation[] {
  const out: Violation[] = []
  m.observe(op, params, json, 'acme', res, false, settled, new Set<InvariantId>(), out)
  return out
}

function issued(): PolicyModel {
  const m = new PolicyModel(POLICIES_DEFAULTS)
  const quote = { schema: { type: 'policy', name: 'home' }, policy: { dateInception: '2027-01-01', dateExpiry: '2027-12-31' }, customer: { email: 'a@x.test' } }
  m.issued('p1', 'acme', { quoteId: 'q1', leaves: leavesOf(quote) }, answer(200, { status: 'success', data: { policyId: 'p1', policyNo: 'HOM-1' } }))
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
    expect(judge(issued(), 'sales.policy.links', { policyId: 'p1' }, links({ no: 'HOM-2' })).map((v) => v.invariant)).toEqual(['PL-INV-003'])
    expect(judge(issued(), 'sales.policy.links', { policyId: 'p1' }, links({ email: 'b@x.test' })).map((v) => v.invariant)).toEqual(['PL-INV-003'])
  })

  it('PL-INV-005: a read that adds a quote, a changed number or inception', () => {
    const m = issued()
    judge(m, 'sales.policy.links', { policyId: 'p1' })
    expect(judge(m, 'sales.policy.links', { policyId: 'p1' }, links({ quotes: ['q1', 'q9'] })).map((v) => v.invariant)).toEqual(['PL-INV-005'])
    const n = issued()
    judge(n, 'sales.policy.links', { policyId: 'p1' })
    judge(n, 'sales.policy.data-change', { id: 'p1' }, answer(200, {}), { customer: { email: 'c@x.test' } })
    expect(judge(n, 'sales.policy.links', { policyId: 'p1' }, links({ email: 'c@x.test', inception: '2027-03-01' })).map((v) => v.invariant)).toEqual(['PL-INV-005'])
  })

  it('an MTA or a termination may change the financials; a technical change may not', () => {
    const m = issued()
    judge(m, 'sales.policy.links', { policyId: 'p1' })
    judge(m, 'sales.termination.terminate', { policyId: 'p1' }, answer(200, {}))
    expect(judge(m, 'sales.policy.links', { policyId: 'p1' }, links({ premium: 60 }))).toEqual([])
    judge(m, 'sales.policy.data-change', { id: 'p1' }, answer(200, {}), { customer: { email: 'a@x.test' } })
    expect(judge(m, 'sales.policy.links', { policyId: 'p1' }, links({ premium: 70 })).map((v) => v.invariant)).toEqual(['PL-INV-005'])
  })

  it('PL-INV-004: calculation and schedule read with no write in between agree; a write in between starts afresh', () => {
    const m = new PolicyModel(POLICIES_DEFAULTS)
    const calc = (installments: { dueDate: string; premium: number }[]) => answer(200, { data: { periodPremium: installments.reduce((s, i) => s + i.premium, 0) }, installments })
    const one = [{ dueDate: '2027-01-01', premium: 100 }]
    const two = [{ dueDate: '2027-01-01', premium: 50 }, { dueDate: '2027-07-01', premium: 50 }]
    expect(judge(m, 'sales.quote.calculation', { id: 'q1' }, calc(one))).toEqual([])
    expect(judge(m, 'sales.quote.installments', { policyId: 'q1' }, answer(200, { instalments: one }))).toEqual([])
    judge(m, 'sales.quote.update', { policyId: 'q1' }, answer(200, {}))
    judge(m, 'sales.quote.calculate', { id: 'q1' }, answer(200, {}))
    expect(judge(m, 'sales.quote.calculation', { id: 'q1' }, calc(one))).toEqual([])
    expect(judge(m, 'sales.quote.installments', { policyId: 'q1' }, answer(200, { instalments: two })).map((v) => v.invariant)).toEqual(['PL-INV-004'])
  })
})
