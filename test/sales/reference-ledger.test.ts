import { afterEach, describe, expect, it } from 'vitest'
import { startReference, type RunningReference } from '../../reference/server'
import { finishIssue, startIssue } from '../../reference/sales/issue-process'
import { ledgerOf, type PolicyEvent } from '../../reference/sales/ledger'
import { mergeQuoteData } from '../../reference/sales/merge'
import { instalmentSchedule, periodPremium } from '../../reference/sales/pricing'

const data = {
  policy: {
    dateInception: '2027-01-01',
    dateExpiry: '2027-12-31',
    currency: 'EUR',
    paymentFrequency: 'monthly',
    externalReference: 'x',
  },
  customer: {
    type: 'person',
    name: 'Ann Example',
    code: '12345678901',
    documentCountry: 'EE',
    email: 'ann@example.test',
    address: { street: 'Main 1', city: 'Tallinn', postcode: '10111', country: 'EE' },
  },
  objects: {
    building: [
      {
        address: { street: 'Main 1', city: 'Tallinn', postcode: '10111' },
        constructionYear: 1990,
        constructionType: 'brick',
        floorArea: 80,
        sumInsured: 200000,
        coverages: ['fire', 'theft'],
      },
    ],
  },
}

describe('reference sales ledger', () => {
  let ref: RunningReference | undefined
  afterEach(async () => {
    await ref?.close()
    ref = undefined
  })

  it('validates product data, issues a new quote into a policy and tells the listeners', async () => {
    // the lock outlives the test: isLocked is judged at once, whatever the machine's load (5 ms failed on a busy
    // machine)
    ref = await startReference({ issueMs: 5, lockMs: 600_000, idStyle: 'numeric' })
    const ledger = ledgerOf(ref.app, ref.context)
    expect(ledger.validateQuoteData('home', data)).toBeNull()
    expect(
      ledger.validateQuoteData('home', { ...data, policy: { ...data.policy, dateExpiry: '2026-01-01' } }),
    ).toHaveProperty(['policy.dateExpiry'])
    const events: PolicyEvent[] = []
    ledger.policyListeners.push((e) => events.push(e))
    const quote = ledger.createQuote({ tenant: 'acme', owner: 'broker@acme.test', product: 'home', data })
    expect(quote.id).toMatch(/^\d+$/)
    expect(ledger.isLocked(quote)).toBe(true)
    expect(ledger.quote('globex', quote.id)).toBeUndefined()
    const premium = periodPremium('home', quote.data)
    quote.installments = instalmentSchedule(premium, '2027-01-01', 'monthly')
    quote.financials = {
      currency: 'EUR',
      periodPremium: premium,
      taxPct: 0,
      tax: 0,
      adminFeeSum: 0,
      feeVatPct: 0,
      brokerCommPct: 0,
      brokerComm: 0,
      mgaCommPct: 0,
      mgaComm: 0,
      installments: 12,
      total: premium,
    }
    const request = startIssue(ledger, ref.context, quote, 'broker@acme.test')
    finishIssue(ledger, ref.context, request)
    expect(request.status).toBe('success')
    const policy = ledger.policy('acme', String(request.data?.['policyId']))
    expect(policy?.dateInception).toBe('2027-01-01')
    expect(policy?.installments.reduce((s, i) => s + i.premium, 0)).toBeCloseTo(premium, 2)
    expect(events.map((e) => [e.type, e.cause])).toEqual([['created', 'issue']])
    expect(quote.state).toBe('issued')
  })

  it('runs the issue handler registered for another kind, and fails a kind without one', async () => {
    ref = await startReference({ issueMs: 5, lockMs: 5 })
    const ledger = ledgerOf(ref.app, ref.context)
    const mta = ledger.createQuote({ tenant: 'acme', owner: 'o', product: 'home', kind: 'mta', policyId: 'p1', data })
    const other = ledger.createQuote({ tenant: 'acme', owner: 'o', product: 'home', kind: 'renewal', data })
    const seen: string[] = []
    ledger.issueHandlers.set('mta', (q) => {
      seen.push(q.policyId ?? '')
      return { ok: false, message: 'no such policy' }
    })
    const r1 = startIssue(ledger, ref.context, mta, 'o')
    finishIssue(ledger, ref.context, r1)
    const r2 = startIssue(ledger, ref.context, other, 'o')
    finishIssue(ledger, ref.context, r2)
    expect(seen).toEqual(['p1'])
    expect([r1.status, r1.data?.['message']]).toEqual(['failure', 'no such policy'])
    expect(r2.status).toBe('failure')
  })

  it('merges partial updates: null removes, object items are addressed by id', () => {
    let n = 0
    const merged = mergeQuoteData(
      { policy: { a: 1, b: 2 }, objects: { building: [{ id: 'x', v: 1 }] } },
      { policy: { b: null, c: 3 }, objects: { building: [{ id: 'x', v: 2 }, { v: 9 }] } },
      () => `new${++n}`,
    )
    expect(merged).toEqual({
      policy: { a: 1, c: 3 },
      objects: {
        building: [
          { id: 'x', v: 2 },
          { v: 9, id: 'new1' },
        ],
      },
    })
  })

  it('prices deterministically and splits installments to the cent', () => {
    expect(periodPremium('home', data)).toBe(periodPremium('home', data))
    const s = instalmentSchedule(100, '2027-01-31', 'quarterly')
    expect(s.map((i) => i.premium)).toEqual([25, 25, 25, 25])
    expect(instalmentSchedule(100, '2027-01-01', 'monthly').reduce((a, i) => a + Math.round(i.premium * 100), 0)).toBe(
      10000,
    )
  })
})
