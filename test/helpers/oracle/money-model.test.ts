import type { OperationId } from '../../../common/operations'
import { describe, expect, it } from 'vitest'
import type { InvariantId } from '../../../helpers/oracle/invariants'
import { MoneyModel } from '../../../helpers/oracle/money-model'
import type { Violation } from '../../../helpers/oracle/invariants'
import { POLICIES_DEFAULTS } from '../../../common/config/policies-settings'
import { answer } from './support'

function run(m: MoneyModel, op: OperationId, params: Record<string, string>, body: unknown, json?: unknown) {
  const evaluated = new Set<InvariantId>()
  const out: Violation[] = []
  m.observe(op, params, json, answer(200, body), false, evaluated, out)
  return out.map((v) => v.invariant)
}
const totals = (premium: number, fees: number, paid: number, balance: number) => ({
  data: { premium, adminFee: fees, paid, balance },
})

describe('the money model', () => {
  it('balance = premium + fees - paid on every read (PL-INV-001)', () => {
    const m = new MoneyModel(POLICIES_DEFAULTS)
    m.policyIssued('p1', 'acme')
    expect(run(m, 'sales.policy.period-totals', { id: 'p1' }, totals(100, 5, 0, 105))).toEqual([])
    expect(run(m, 'sales.policy.period-totals', { id: 'p1' }, totals(100, 5, 0, 100))).toEqual(['PL-INV-001'])
    expect(run(m, 'sales.policy.period-totals', { id: 'p1' }, totals('100' as unknown as number, 5, 0, 105))).toEqual([
      'PL-INV-001',
    ])
  })

  it('paid moves by exactly the allocations minus the credits; nothing else moves money (PL-INV-002)', () => {
    const m = new MoneyModel(POLICIES_DEFAULTS)
    m.policyIssued('p1', 'acme')
    run(m, 'sales.policy.invoices', { policyId: 'p1' }, [{ invoicenumber: 'INV-1', premium: 50 }])
    run(m, 'sales.policy.period-totals', { id: 'p1' }, totals(100, 5, 0, 105))
    run(m, 'sales.payments.allocate', {}, { data: { events: [{ eventId: 'e1', invoicenumber: 'INV-1', amount: 30 }] } })
    expect(run(m, 'sales.policy.period-totals', { id: 'p1' }, totals(100, 5, 30, 75))).toEqual([])
    run(m, 'sales.invoice.credit', { eventId: 'e1' }, { data: {} })
    expect(run(m, 'sales.policy.period-totals', { id: 'p1' }, totals(100, 5, 30, 75))).toEqual(['PL-INV-002'])
    expect(run(m, 'sales.policy.period-totals', { id: 'p1' }, totals(101, 5, 30, 76))).toEqual(['PL-INV-002'])
  })

  it('a manual termination lowers the premium by its sum', () => {
    const m = new MoneyModel(POLICIES_DEFAULTS)
    m.policyIssued('p1', 'acme')
    run(m, 'sales.policy.period-totals', { id: 'p1' }, totals(100, 5, 0, 105))
    run(m, 'sales.termination.terminate', { policyId: 'p1' }, { event_id: 1 }, { policy: { terminationSum: 40 } })
    expect(run(m, 'sales.policy.period-totals', { id: 'p1' }, totals(60, 5, 0, 65))).toEqual([])
  })
})
