import { describe, expect, it } from 'vitest'
import { RunHistory } from '../../../helpers/oracle/run-history'
import type { CallInfo } from '../../../helpers/client/http/observer'
import type { HttpResult } from '../../../helpers/client/http/types'
import type { OperationId } from '../../../common/operation-ids'

const settings = { quoteIdPointer: '/policy/id', requestIdPointer: '/requestId', policyIdPointer: '/data/policyId' }
const statuses = { pending: ['pending'], success: ['success'], failure: ['failure'] }
const user = { kind: 'user' as const, tenant: 'acme', username: 'broker' }
const answer = (status: number, body?: unknown): HttpResult =>
  ({
    status,
    body,
    headers: {},
    raw: Buffer.from(''),
    text: '',
    contentType: 'application/json',
    durationMs: 1,
    request: { method: 'GET', url: 'http://x', headers: {} },
  }) as unknown as HttpResult
const at = (mono: number) => ({ mono, epoch: 0 })
function call(
  operationId: OperationId,
  params: Record<string, string>,
  json: unknown,
  mono: number,
  caller = 'c',
): CallInfo {
  return {
    service: operationId.startsWith('webhooks') ? 'webhooks' : 'sales',
    operationId,
    method: 'X',
    params,
    json,
    actor: user,
    tenantHeader: 'acme',
    caller,
    invokedAt: at(mono),
  }
}

describe("the run's history, judged per resource when it falls quiet (SL-INV-050, SL-INV-051, WH-INV-050)", () => {
  it(
    'an update answered 2xx is counted done when the actions list after it answers; a later read missing it breaks ' +
      'SL-INV-050 with a timeline',
    () => {
      const h = new RunHistory(settings, statuses)
      h.begin(call('sales.quote.create', {}, { policy: { a: 1, b: 1 } }, 0))!(
        answer(201, { policy: { id: 'q1' } }),
        at(1),
      )
      const u1 = h.begin(call('sales.quote.update', { policyId: 'q1' }, { policy: { a: 2 } }, 2, 'w1'))!
      const u2 = h.begin(call('sales.quote.update', { policyId: 'q1' }, { policy: { b: 2 } }, 3, 'w2'))!
      expect(u1(answer(200), at(5)).evaluated).toEqual([])
      // a read before the list: the update may not be done yet (sales §3 rule 4), so nothing is judged
      const early = h.begin(call('sales.quote.get', { policyId: 'q1' }, undefined, 5.5))!
      expect(early(answer(200, { data: { policy: { a: 1, b: 1 } } }), at(5.8)).evaluated).toEqual([])
      u2(answer(200), at(6))
      h.begin(call('sales.quote.actions', { id: 'q1' }, undefined, 7))!(answer(200, ['calculate']), at(8))
      const read = h.begin(call('sales.quote.get', { policyId: 'q1' }, undefined, 9, 'reader'))!
      const v = read(answer(200, { data: { policy: { a: 1, b: 2 } } }), at(10))
      expect(v.violations.map((x) => x.invariant)).toEqual(['SL-INV-050'])
      expect(v.violations[0]!.note).toMatch(/NOT linearizable/)
      expect(v.violations[0]!.note).toMatch(/w1: update/)
      expect(v.violations[0]!.at?.file).toBe('helpers/oracle/run-history.ts')
    },
  )

  it('the same history with the read showing both updates is linearizable (evaluated, no violation)', () => {
    const h = new RunHistory(settings, statuses)
    h.begin(call('sales.quote.create', {}, { policy: { a: 1, b: 1 } }, 0))!(
      answer(201, { policy: { id: 'q1' } }),
      at(1),
    )
    h.begin(call('sales.quote.update', { policyId: 'q1' }, { policy: { a: 2 } }, 2))!(answer(200), at(4))
    h.begin(call('sales.quote.actions', { id: 'q1' }, undefined, 5))!(answer(200, []), at(6))
    const v = h.begin(call('sales.quote.get', { policyId: 'q1' }, undefined, 7))!(
      answer(200, { data: { policy: { a: 2, b: 1 } } }),
      at(8),
    )
    expect(v.evaluated).toEqual(['SL-INV-050'])
    expect(v.violations.length).toBe(0)
  })

  it('two requests of one quote succeeding with two policies break SL-INV-051', () => {
    const h = new RunHistory(settings, statuses)
    const i1 = h.begin(call('sales.quote.issue', { id: 'q1' }, {}, 0))!
    const i2 = h.begin(call('sales.quote.issue', { id: 'q1' }, {}, 1))!
    i1(answer(202, { requestId: 'r1' }), at(3))
    i2(answer(202, { requestId: 'r2' }), at(4))
    expect(
      h.begin(call('sales.requests.get', { requestId: 'r1' }, undefined, 5))!(
        answer(200, { status: 'success', data: { policyId: 'P1' } }),
        at(6),
      ).violations.length,
    ).toBe(0)
    const v = h.begin(call('sales.requests.get', { requestId: 'r2' }, undefined, 7))!(
      answer(200, { status: 'success', data: { policyId: 'P2' } }),
      at(8),
    )
    expect(v.violations.map((x) => x.invariant)).toEqual(['SL-INV-051'])
  })

  it(
    'a subscription back after a delete answered 200 breaks WH-INV-050; a call of another owner is not its ' +
      'history',
    () => {
      const h = new RunHistory(settings, statuses)
      h.begin(call('webhooks.subscription.create', {}, { event: 'export', url: 'https://a' }, 0))!(
        answer(201, { id: 's1', event: 'export', url: 'https://a' }),
        at(1),
      )
      const other = {
        ...call('webhooks.subscription.get', { id: 's1' }, undefined, 1.5),
        actor: { kind: 'user' as const, tenant: 'globex', username: 'x' },
      }
      expect(h.begin(other)).toBeUndefined()
      h.begin(call('webhooks.subscription.delete', { id: 's1' }, undefined, 2))!(answer(200, { success: true }), at(3))
      const v = h.begin(call('webhooks.subscription.get', { id: 's1' }, undefined, 4))!(
        answer(200, { id: 's1', event: 'export', url: 'https://a' }),
        at(5),
      )
      expect(v.violations.map((x) => x.invariant)).toEqual(['WH-INV-050'])
    },
  )

  it("a write that lost its answer ends the resource's history: nothing is judged on it afterwards", () => {
    const h = new RunHistory(settings, statuses)
    h.begin(call('sales.quote.create', {}, { policy: { a: 1 } }, 0))!(answer(201, { policy: { id: 'q1' } }), at(1))
    h.begin(call('sales.quote.update', { policyId: 'q1' }, { policy: { a: 2 } }, 2))!(undefined, at(3))
    expect(h.begin(call('sales.quote.get', { policyId: 'q1' }, undefined, 4))).toBeUndefined()
  })
})

describe('a history the checker cannot decide within its budget', () => {
  it('is reported undecided (the invariant INCONCLUSIVE), neither evaluated nor broken, and no longer followed', () => {
    const h = new RunHistory(settings, statuses, { maxSteps: 0, maxMs: 1000 })
    h.begin(call('sales.quote.create', {}, { policy: { a: 1 } }, 0))!(answer(201, { policy: { id: 'q1' } }), at(1))
    const v = h.begin(call('sales.quote.get', { policyId: 'q1' }, undefined, 2))!(
      answer(200, { data: { policy: { a: 1 } } }),
      at(3),
    )
    expect(v.evaluated).toEqual([])
    expect(v.violations.length).toBe(0)
    expect(v.undecided).toEqual([{ invariant: 'SL-INV-050', resource: 'quote q1' }])
    expect(h.undecided).toEqual(['quote q1'])
    expect(h.begin(call('sales.quote.get', { policyId: 'q1' }, undefined, 4))).toBeUndefined()
  })
})

describe("the run's money histories (PL-INV-050 a policy's paid, PL-INV-051 a payment's allocations)", () => {
  const pay = (h: RunHistory, amount: number, mono: number) =>
    h.begin(call('sales.payments.insert', {}, { amount, paymentDate: '2026-01-01', reference: 'r' }, mono))!(
      answer(201, { data: { id: 'p1' } }),
      at(mono + 1),
    )
  const invoices = (h: RunHistory, mono: number) =>
    h.begin(call('sales.policy.invoices', { policyId: 'P' }, undefined, mono))!(
      answer(200, [{ invoicenumber: 'I1', premium: 100 }]),
      at(mono + 1),
    )
  const totals = (h: RunHistory, paid: number, mono: number) =>
    h.begin(call('sales.policy.period-totals', { id: 'P' }, undefined, mono, 'reader'))!(
      answer(200, { data: { paid } }),
      at(mono + 1),
    )
  const allocate = (h: RunHistory, amount: number, mono: number) =>
    h.begin(
      call(
        'sales.payments.allocate',
        {},
        { paymentId: 'p1', allocations: [{ invoicenumber: 'I1', amount }] },
        mono,
        'allocator',
      ),
    )
  const credit = (h: RunHistory, event: string, mono: number) =>
    h.begin(call('sales.invoice.credit', { eventId: event }, { reason: 'x' }, mono, 'creditor'))

  it(
    "an allocation and an overlapping credit: paid read after must be the order's sum; a credit undone breaks " +
      'PL-INV-050',
    () => {
      const h = new RunHistory(settings, statuses)
      pay(h, 50, 0)
      invoices(h, 2)
      totals(h, 0, 4)
      allocate(h, 20, 6)!(
        answer(200, { data: { events: [{ eventId: 'e1', invoicenumber: 'I1', amount: 20 }] } }),
        at(7),
      )
      expect(totals(h, 20, 8).evaluated).toContain('PL-INV-050')
      const a = allocate(h, 10, 10)!
      const c = credit(h, 'e1', 10.5)!
      c(answer(200, { data: {} }), at(11))
      a(answer(200, { data: { events: [{ eventId: 'e2', invoicenumber: 'I1', amount: 10 }] } }), at(12))
      // the credit of e1 undone by the allocation: paid 30 instead of 10
      const v = totals(h, 30, 13)
      expect(v.violations.map((x) => x.invariant)).toEqual(['PL-INV-050'])
      expect(v.violations[0]!.note).toMatch(/paid 30.00, the order says 10.00/)
    },
  )

  it(
    'two overlapping allocations of one payment both answered 2xx beyond its amount break PL-INV-051; within it ' +
      'they do not',
    () => {
      const h = new RunHistory(settings, statuses)
      pay(h, 50, 0)
      invoices(h, 2)
      const a = allocate(h, 30, 4)!
      const b = allocate(h, 30, 4.5)!
      a(answer(200, { data: { events: [{ eventId: 'e1', invoicenumber: 'I1', amount: 30 }] } }), at(5))
      const v = b(answer(200, { data: { events: [{ eventId: 'e2', invoicenumber: 'I1', amount: 30 }] } }), at(6))
      expect(v.violations.map((x) => x.invariant)).toEqual(['PL-INV-051'])
      const ok = new RunHistory(settings, statuses)
      pay(ok, 50, 0)
      invoices(ok, 2)
      const c = allocate(ok, 30, 4)!
      const d = allocate(ok, 30, 4.5)!
      c(answer(200, { data: { events: [{ eventId: 'e1', invoicenumber: 'I1', amount: 30 }] } }), at(5))
      const w = d(answer(422, {}), at(6))
      expect(w.evaluated).toEqual(['PL-INV-051'])
      expect(w.violations.length).toBe(0)
    },
  )

  it(
    "an allocation to an invoice the history never saw listed ends the tenant's policy money histories (no " +
      'verdict)',
    () => {
      const h = new RunHistory(settings, statuses)
      pay(h, 50, 0)
      invoices(h, 2)
      totals(h, 0, 4)
      h.begin(
        call('sales.payments.allocate', {}, { paymentId: 'p1', allocations: [{ invoicenumber: 'X9', amount: 5 }] }, 6),
      )!(answer(200, { data: { events: [] } }), at(7))
      // no longer followed: the read is no part of any history
      expect(h.begin(call('sales.policy.period-totals', { id: 'P' }, undefined, 8))).toBeUndefined()
    },
  )
})
