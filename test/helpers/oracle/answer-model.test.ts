import { describe, expect, it } from 'vitest'
import { AnswerModel, type AnswerCall } from '../../../helpers/oracle/answer-model'
import { ANSWER_SOURCES, sourceOf } from '../../../helpers/oracle/answer-sources'
import type { InvariantId, Violation } from '../../../helpers/oracle/invariants'
import { answer } from './support'

function judge(m: AnswerModel, call: Partial<AnswerCall> & { op: string }, status: number, body: unknown) {
  const evaluated = new Set<InvariantId>()
  const out: Violation[] = []
  const unjudged = m.observe(
    { params: {}, json: undefined, overlapped: false, ...call },
    answer(status, body),
    evaluated,
    out,
  )
  return { evaluated, out, unjudged }
}

const FIN = {
  currency: 'EUR',
  periodPremium: 193.44,
  taxPct: 12,
  tax: 23.21,
  adminFeeSum: 10,
  feeVatPct: 20,
  brokerCommPct: 15,
  brokerComm: 29.02,
  mgaCommPct: 5,
  mgaComm: 9.67,
  installments: 2,
  total: 226.65,
}
const POLICY = {
  dateInception: '2026-12-05',
  dateExpiry: '2027-01-04',
  currency: 'EUR',
  paymentFrequency: 'semi-annual',
  salesChannel: 'direct',
}

describe('the answer source table', () => {
  it('finds a field by its exact path, else the nearest /** above it; a field of no entry is unknown', () => {
    expect(sourceOf('sales.quote.create 200', '/policy/id')?.kind).toBe('state')
    expect(sourceOf('sales.quote.create 200', '/customer/name')?.kind).toBe('echo')
    expect(sourceOf('sales.quote.calculate 200', '/data/policy/financials/brokerComm')?.kind).toBe('rule')
    expect(sourceOf('sales.quote.calculate 200', '/x_vendor_trace')).toBeUndefined()
    expect(sourceOf('sales.unknown 200', '/a')).toBeUndefined()
    // issue 39: a schema's annotations are free at any depth; its bounds are not
    expect(sourceOf('sales.schemes.get 200', '/properties/policy/properties/dateExpiry/title')?.kind).toBe('free')
    expect(sourceOf('sales.schemes.get 200', '/title')?.kind).toBe('free')
    expect(sourceOf('sales.schemes.get 200', '/properties/customer/properties/name/minLength')?.kind).toBe('state')
    expect(sourceOf('sales.schemes.get 200', '/properties/title/type')?.kind).toBe('state')
  })

  it('every free entry says what leaves it open, every other names the invariant that judges it', () => {
    for (const t of Object.values(ANSWER_SOURCES)) {
      for (const s of Object.values(t)) {
        if (s.kind === 'free') expect(s.what.length).toBeGreaterThan(20)
        else expect(s.by).toMatch(/^(SL|PL|WH)-[A-Z]+-\d{3}$|^\(not judged\)$/)
      }
    }
  })
})

describe('the answer model judges the answers of writes', () => {
  it(
    'a create answer echoes the data sent: a changed customer name is SL-INV-020, naming the path, the source, ' +
      'expected and actual',
    () => {
      const m = new AnswerModel()
      const json = { schema: { type: 'policy', name: 'travel' }, customer: { name: 'Mia Fisher' }, policy: POLICY }
      const ok = judge(m, { op: 'sales.quote.create', json }, 200, { ...json, policy: { id: 1, ...POLICY } })
      expect(ok.out).toEqual([])
      expect(ok.evaluated).toContain('SL-INV-020')
      const bad = judge(m, { op: 'sales.quote.create', json }, 200, {
        ...json,
        customer: { name: 'Mia Fisher Jr' },
        policy: { id: 2, ...POLICY },
      })
      expect(bad.out).toHaveLength(1)
      expect(bad.out[0]).toMatchObject({
        invariant: 'SL-INV-020',
        expected: '/customer/name (echo) = "Mia Fisher"',
        actual: '/customer/name = "Mia Fisher Jr"',
      })
    },
  )

  it('a create answer gives a new id: the id of another quote of the run is SL-INV-021', () => {
    const m = new AnswerModel()
    const json = { schema: { type: 'policy', name: 'travel' }, policy: POLICY }
    judge(m, { op: 'sales.quote.create', json }, 200, { ...json, policy: { id: 7, ...POLICY } })
    expect(
      judge(m, { op: 'sales.quote.create', json }, 200, { ...json, policy: { id: 7, ...POLICY } }).out.map(
        (v) => v.invariant,
      ),
    ).toEqual(['SL-INV-021'])
  })

  it(
    'the financials follow their rules (SL-INV-022), to the cent, and a later read agrees with the calculate answer ' +
      '(SL-INV-023)',
    () => {
      const m = new AnswerModel()
      const calc = (f: object) => ({
        data: { schema: { type: 'policy', name: 'travel' }, policy: { id: 5, ...POLICY, financials: f } },
        meta: { status: 'calculated' },
      })
      expect(judge(m, { op: 'sales.quote.calculate', params: { id: '5' } }, 200, calc(FIN)).out).toEqual([])
      const off = judge(
        m,
        { op: 'sales.quote.calculate', params: { id: '5' } },
        200,
        calc({ ...FIN, brokerComm: 29.03 }),
      )
      expect(off.out.map((v) => v.invariant)).toEqual(['SL-INV-022'])
      expect(off.out[0]!.expected).toContain('/data/policy/financials/brokerComm (rule) = 193.44 × 15 / 100 = 29.02')
      // the read shows another brokerComm than the (last) calculate answer: the rule and the agreement both break
      const read = judge(m, { op: 'sales.quote.calculation', params: { id: '5' } }, 200, {
        data: { ...FIN, brokerComm: 29.04 },
      })
      expect(read.out.map((v) => v.invariant).sort()).toEqual(['SL-INV-022', 'SL-INV-023'])
    },
  )

  it('payments: the reference echoed, unallocated = amount - allocations + credits, a credit names its payment', () => {
    const m = new AnswerModel()
    expect(
      judge(
        m,
        { op: 'sales.payments.insert', json: { amount: 100, reference: 'r1', paymentDate: '2026-11-28' } },
        201,
        { data: { id: 10, amount: 100, allocated: 0, unallocated: 100, paymentDate: '2026-11-28', reference: 'r2' } },
      ).out[0],
    ).toMatchObject({ invariant: 'PL-INV-020', actual: '/data/reference = "r2"' })
    const alloc = { paymentId: 10, allocations: [{ invoicenumber: 'i1', amount: 40 }] }
    expect(
      judge(m, { op: 'sales.payments.allocate', json: alloc }, 200, {
        data: {
          paymentId: 10,
          events: [{ eventId: 11, paymentId: 10, invoicenumber: 'i1', amount: 40 }],
          unallocated: 60,
        },
      }).out,
    ).toEqual([])
    expect(
      judge(m, { op: 'sales.invoice.credit', params: { eventId: '11' } }, 200, {
        data: { eventId: 11, paymentId: 12, invoicenumber: 'i1', amount: 40, credited: 40 },
      }).out[0],
    ).toMatchObject({ invariant: 'PL-INV-021', expected: '/data/paymentId (state) = "10"' })
    expect(
      judge(m, { op: 'sales.payments.allocate', json: alloc }, 200, {
        data: {
          paymentId: 10,
          events: [{ eventId: 13, paymentId: 10, invoicenumber: 'i1', amount: 40 }],
          unallocated: 60,
        },
      }).out,
    ).toEqual([])
  })

  it("a subscription's secret is the create answer's in the list; the message shows a digest, never the secret", () => {
    const m = new AnswerModel()
    const sub = {
      id: 's1',
      event: 'export',
      url: 'http://x.test/',
      secret: { algorithm: 'sha256', key: 'abc123' },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    }
    judge(m, { op: 'webhooks.subscription.create' }, 201, sub)
    const list = judge(m, { op: 'webhooks.subscriptions.list' }, 200, [
      { ...sub, secret: { algorithm: 'sha256', key: 'abc124' } },
    ])
    expect(list.out.map((v) => v.invariant)).toEqual(['WH-INV-021'])
    expect(JSON.stringify(list.out[0]!.expected) + JSON.stringify(list.out[0]!.actual)).not.toMatch(/abc12/)
  })

  it('an update answers the event and url it was sent (WH-INV-020), and the renewal the policy it renews', () => {
    const m = new AnswerModel()
    const sub = {
      id: 's1',
      event: 'export',
      url: 'http://x.test/a',
      secret: { algorithm: 'sha256', key: 'abc123' },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    }
    judge(m, { op: 'webhooks.subscription.create' }, 201, sub)
    const json = { event: 'extracted', url: 'http://x.test/b' }
    expect(
      judge(m, { op: 'webhooks.subscription.update', params: { id: 's1' }, json }, 200, { ...sub, ...json }).out,
    ).toEqual([])
    const wrong = judge(m, { op: 'webhooks.subscription.update', params: { id: 's1' }, json }, 200, {
      ...sub,
      ...json,
      event: 'export',
    })
    expect(wrong.out).toMatchObject([{ invariant: 'WH-INV-020', expected: '/event (echo) = "extracted"' }])
    const renewal = judge(m, { op: 'sales.policy.renewal', params: { id: '7' } }, 200, {
      data: {},
      meta: { renewalOf: 8 },
    })
    expect(renewal.out).toMatchObject([{ invariant: 'PL-INV-020', expected: '/meta/renewalOf (echo) = "7"' }])
  })

  it('a field the table does not know is returned once as unjudged; free fields are not judged', () => {
    const m = new AnswerModel()
    const body = { data: { paymentId: 1, events: [], unallocated: 0 }, x_vendor_trace: 'x' }
    expect(
      judge(m, { op: 'sales.payments.allocate', json: { paymentId: 1, allocations: [] } }, 200, body).unjudged,
    ).toEqual(['sales.payments.allocate 200 /x_vendor_trace'])
    expect(
      judge(m, { op: 'sales.payments.allocate', json: { paymentId: 1, allocations: [] } }, 200, body).unjudged,
    ).toEqual([])
    expect(
      judge(m, { op: 'sales.invoice.credit', params: { eventId: '9' } }, 200, {
        data: { eventId: 9, creditedAt: 'whenever' },
      }).out,
    ).toEqual([])
  })
})
