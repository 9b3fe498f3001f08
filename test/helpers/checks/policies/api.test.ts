import { describe, expect, it } from 'vitest'
import type { SuiteContext } from '../../../../helpers/checks/context'
import type { HttpResult } from '../../../../helpers/client/http/types'
import { PoliciesApi } from '../../../../helpers/checks/policies/api'
import { POLICIES_DEFAULTS, type PoliciesSettings } from '../../../../common/config/policies-settings'

function res(body: unknown): HttpResult {
  return {
    status: 200,
    headers: {},
    body,
    raw: Buffer.from(JSON.stringify(body)),
    text: JSON.stringify(body),
    contentType: 'application/json',
    durationMs: 1,
    request: { method: 'GET', url: 'http://x/', headers: {} },
  }
}

/** Readers only: no calls are made, so the suite context is never touched. */
function api(s: Partial<PoliciesSettings> = {}): PoliciesApi {
  return new PoliciesApi({ tag: (l: string) => `lc-run-${l}` } as unknown as SuiteContext, {
    ...POLICIES_DEFAULTS,
    ...s,
  })
}

describe('PoliciesApi readers', () => {
  it('reads the totals at the profile pointers and leaves out what is not a number', () => {
    expect(
      api().readTotals(res({ data: { premium: 100, adminFee: 10, paid: '5', balance: 105, returnPremium: 0 } })),
    ).toEqual({ premium: 100, fees: 10, balance: 105, returnPremium: 0 })
    const other = api({ totals: { premium: '/p', fees: '/f', paid: '/x/paid', balance: '/b', returnPremium: '/r' } })
    expect(other.readTotals(res({ p: 1, f: 2, x: { paid: 3 }, b: 0, r: 4 }))).toEqual({
      premium: 1,
      fees: 2,
      paid: 3,
      balance: 0,
      returnPremium: 4,
    })
  })

  it('reads invoices with their amount due (sum of the amount fields, in cents)', () => {
    const list = api().readInvoices(
      res([
        { invoicenumber: 7, duedate: '2026-01-01', premium: 0.1, adminfee: 0.2, payable: null },
        { invoicenumber: '8', premium: 1 },
      ]),
    )
    expect(list).toEqual([
      { invoicenumber: '7', duedate: '2026-01-01', premium: 0.1, adminfee: 0.2, payable: null, amount: 0.3 },
      { invoicenumber: '8', duedate: undefined, premium: 1, adminfee: undefined, payable: undefined },
    ])
    expect(api().readInvoices(res({ data: [] }))).toBeUndefined()
    expect(
      api({ invoices: { listPointer: '/data', amountFields: ['premium'] } }).readInvoices(res({ data: [] })),
    ).toEqual([])
  })

  it('reads payment and event ids as strings, and refuses a list with a missing id', () => {
    const a = api()
    expect(a.paymentIdOf(res({ data: { id: 42 } }))).toBe('42')
    expect(a.eventIdsOf(res({ data: { events: [{ eventId: 'e1' }, { eventId: 2 }] } }))).toEqual(['e1', '2'])
    expect(a.eventIdsOf(res({ data: { events: [{ eventId: 'e1' }, {}] } }))).toBeUndefined()
    expect(a.returnPremiumOf(res({ data: { returnPremium: 12.5 } }))).toBe(12.5)
  })

  it('swaps or switches off a contract as the profile says', () => {
    const a = api({ contracts: { 'sales/policy-period-totals': null, 'sales/payment-insert': 'sales/my-payment' } })
    expect(a.contract('sales/policy-period-totals')).toBeNull()
    expect(a.contract('sales/payment-insert')).toBe('sales/my-payment')
    expect(a.contract('sales/invoice-credit')).toBe('sales/invoice-credit')
  })

  it('fills templates with the run tag', () => {
    expect(api().vars({ amount: 1 })).toEqual({ tag: 'lc-run-policies', amount: 1 })
  })
})
