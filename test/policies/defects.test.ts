import { describe, expect, it } from 'vitest'
import { POLICIES_DEFECTS } from '../../reference/defects/policies'
import { runConformance } from '../../scripts/harness/run-conformance'

const S = 'suites/policies'

/** Each policies defect of the reference service, the suite file that must catch it and the check that fails. */
const CASES: { defect: keyof typeof POLICIES_DEFECTS; file: string; mustFail: string }[] = [
  { defect: 'policies-invoices-not-installments', file: 'policy-data', mustFail: 'PL-DATA-001' },
  { defect: 'policies-not-tenant-scoped', file: 'policy-data', mustFail: 'PL-DATA-004' },
  { defect: 'policies-mta-not-applied', file: 'mta', mustFail: 'PL-MTA-004' },
  { defect: 'policies-mta-totals-unchanged', file: 'mta', mustFail: 'PL-MTA-005' },
  { defect: 'policies-technical-change-alters-premium', file: 'technical-change', mustFail: 'PL-TECH-003' },
  { defect: 'policies-data-change-creates-quote', file: 'technical-change', mustFail: 'PL-TECH-004' },
  { defect: 'policies-data-change-accepts-financial', file: 'technical-change', mustFail: 'PL-TECH-005' },
  { defect: 'policies-renewal-dates-wrong', file: 'renewal', mustFail: 'PL-REN-003' },
  { defect: 'policies-pro-rata-wrong', file: 'termination', mustFail: 'PL-TERM-001' },
  { defect: 'policies-short-rate-wrong', file: 'termination', mustFail: 'PL-TERM-002' },
  { defect: 'policies-manual-sum-ignored', file: 'termination', mustFail: 'PL-TERM-003' },
  { defect: 'policies-totals-ignore-return-premium', file: 'termination', mustFail: 'PL-TERM-007' },
  { defect: 'policies-termination-repeatable', file: 'termination', mustFail: 'PL-TERM-008' },
  { defect: 'policies-payment-double-counted', file: 'payments', mustFail: 'PL-PAY-002' },
  { defect: 'policies-credit-reverses-wrong-allocation', file: 'payments', mustFail: 'PL-PAY-004' },
  { defect: 'policies-over-allocation-accepted', file: 'payments', mustFail: 'PL-PAY-005' },
  { defect: 'policies-credit-unknown-event-ok', file: 'payments', mustFail: 'PL-PAY-007' },
  { defect: 'policies-credit-other-tenant', file: 'payments', mustFail: 'PL-PAY-009' },
  { defect: 'policies-custom-view-ignores-identity', file: 'customer-view', mustFail: 'PL-CUST-002' },
  { defect: 'policies-custom-view-leaks-other-customer', file: 'customer-view', mustFail: 'PL-CUST-003' },
]

describe('policies defects are caught by the policies suites', () => {
  it('every policies defect of the catalogue has a case here', () => {
    expect(CASES.map((c) => c.defect).sort()).toEqual(Object.keys(POLICIES_DEFECTS).sort())
  })

  it('the policies suites are green against the faithful reference', async () => {
    const run = await runConformance({ files: [S] })
    expect(run.failedIds, run.output.slice(-3000)).toEqual([])
    expect(run.exitCode).toBe(0)
    expect(run.report?.totals.passed).toBeGreaterThanOrEqual(43)
    const exercised = new Set(run.report?.operations.filter((o) => o.calls > 0).map((o) => o.id))
    for (const op of ['sales.quote.mta', 'sales.policy.renewal', 'sales.policy.links', 'sales.policy.invoices', 'sales.policy.period-totals', 'sales.termination.premiums', 'sales.termination.terminate', 'sales.customers.custom-view', 'sales.payments.insert', 'sales.payments.allocate', 'sales.invoice.credit', 'sales.policy.data-change']) {
      expect(exercised.has(op), op).toBe(true)
    }
  })

  for (const c of CASES) {
    it(`${c.defect} is caught by ${c.mustFail}`, async () => {
      const run = await runConformance({ files: [`${S}/${c.file}.test.ts`], defects: [c.defect] })
      expect(run.exitCode).not.toBe(0)
      expect(run.failedIds, run.output.slice(-2000)).toContain(c.mustFail)
    })
  }
})
