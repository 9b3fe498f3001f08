import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { POLICIES_DEFECTS } from '../../reference/defects/policies'
import { runConformance } from '../../scripts/harness/run-conformance'
import { defectBatches, expectCaught } from '../support/defect-batch'
import { limiter } from '../support/limiter'
import { MODEL_CASES, modelDefectsOf } from '../../scripts/explore/model-cases'

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
  { defect: 'policies-totals-balance-without-fees', file: 'policy-data', mustFail: 'PL-DATA-002' },
  { defect: 'policies-unknown-policy-empty-200', file: 'policy-data', mustFail: 'PL-DATA-003' },
  { defect: 'policies-invoice-field-misspelled', file: 'policy-data', mustFail: 'PL-CON-001' },
  { defect: 'policies-totals-as-strings', file: 'policy-data', mustFail: 'PL-CON-002' },
  { defect: 'policies-mta-returns-policy-id', file: 'mta', mustFail: 'PL-MTA-001' },
  { defect: 'policies-mta-quote-stays-locked', file: 'mta', mustFail: 'PL-MTA-002' },
  { defect: 'policies-mta-issue-fails', file: 'mta', mustFail: 'PL-MTA-003' },
  { defect: 'policies-mta-unknown-policy-accepted', file: 'mta', mustFail: 'PL-MTA-006' },
  { defect: 'policies-data-change-refuses-contact-data', file: 'technical-change', mustFail: 'PL-TECH-001' },
  { defect: 'policies-data-change-not-applied', file: 'technical-change', mustFail: 'PL-TECH-002' },
  { defect: 'policies-data-change-unknown-policy-ok', file: 'technical-change', mustFail: 'PL-TECH-006' },
  { defect: 'policies-renewal-unwrapped', file: 'renewal', mustFail: 'PL-REN-001' },
  { defect: 'policies-renewal-invalid-data', file: 'renewal', mustFail: 'PL-REN-002' },
  { defect: 'policies-renewal-drops-objects', file: 'renewal', mustFail: 'PL-REN-004' },
  { defect: 'policies-renewal-unknown-policy-ok', file: 'renewal', mustFail: 'PL-REN-005' },
  { defect: 'policies-termination-date-unchecked', file: 'termination', mustFail: 'PL-TERM-004' },
  { defect: 'policies-terminate-no-event-id', file: 'termination', mustFail: 'PL-TERM-005' },
  { defect: 'policies-termination-not-shown', file: 'termination', mustFail: 'PL-TERM-006' },
  { defect: 'policies-payment-id-missing', file: 'payments', mustFail: 'PL-PAY-001' },
  { defect: 'policies-credit-not-applied', file: 'payments', mustFail: 'PL-PAY-003' },
  { defect: 'policies-credit-repeatable', file: 'payments', mustFail: 'PL-PAY-006' },
  { defect: 'policies-allocate-unknown-invoice-ok', file: 'payments', mustFail: 'PL-PAY-008' },
  { defect: 'policies-custom-view-wrong-installments', file: 'customer-view', mustFail: 'PL-CUST-001' },
  // issue 29: each identity parameter wrong on its own (a right code with any documentCountry)
  { defect: 'policies-custom-view-matches-first-only', file: 'customer-view', mustFail: 'PL-CUST-004' },
]

/**
 * Extra checks a defect must also fail (one defect can break more than one requirement), in its case's file or in
 * another suite file of the area.
 */
const ALSO: Partial<Record<keyof typeof POLICIES_DEFECTS, { file?: string; ids: string[] }>> = {
  'policies-custom-view-ignores-identity': { ids: ['PL-CUST-004'] },
  // the payments across invoices and policies (PL-PAY-010): a credit that reverses nothing leaves the totals moved
  'policies-credit-not-applied': { file: 'payments-across', ids: ['PL-PAY-010'] },
}
/** The ALSO entries run against a file other than their case's. */
const ELSEWHERE = Object.entries(ALSO).flatMap(([defect, a]) => (a.file ? [{ defect, file: a.file, ids: a.ids }] : []))

/** Every check id declared in the policies suites. */
function declaredIds(): string[] {
  const dir = resolve(PROJECT_ROOT, S)
  return readdirSync(dir).flatMap((f) =>
    [...readFileSync(join(dir, f), 'utf8').matchAll(/\bid: '(PL-[A-Z]+-\d{3})'/g)].map((m) => m[1]!),
  )
}

const limit = limiter(2)
/**
 * The cases of one suite file run as one batch, each defect against a reference of its own
 * (test/support/defect-batch.ts).
 */
const outcome = defectBatches(
  [...CASES, ...ELSEWHERE].map((c) => ({ defect: c.defect, file: `${S}/${c.file}.test.ts` })),
  limit,
)

describe('policies defects are caught by the policies suites', () => {
  it('every policies defect of the catalogue has a case here', () => {
    // the defects of issue 14 have their cases in scripts/explore/model-cases.ts (caught by the model's invariants)
    expect([...CASES.map((c) => c.defect), ...modelDefectsOf('policies', POLICIES_DEFECTS)].sort()).toEqual(
      Object.keys(POLICIES_DEFECTS).sort(),
    )
  })

  it('every check of the policies suites is shown to fail against some defect', () => {
    const caught = new Set([
      ...CASES.map((c) => c.mustFail),
      ...Object.values(ALSO).flatMap((a) => a.ids),
      ...MODEL_CASES.flatMap((c) => c.mustFail),
    ])
    const ids = declaredIds()
    expect(ids.length).toBeGreaterThanOrEqual(44)
    expect(ids.filter((id) => !caught.has(id))).toEqual([])
  })

  it.concurrent('the policies suites are green against the faithful reference', { timeout: 600_000 }, async () => {
    const run = await limit(() => runConformance({ files: [S] }))
    expect(run.failedIds, run.output.slice(-3000)).toEqual([])
    expect(run.exitCode).toBe(0)
    expect(run.report?.totals.passed).toBeGreaterThanOrEqual(44)
    const exercised = new Set(run.report?.operations.filter((o) => o.calls > 0).map((o) => o.id))
    for (const op of [
      'sales.quote.mta',
      'sales.policy.renewal',
      'sales.policy.links',
      'sales.policy.invoices',
      'sales.policy.period-totals',
      'sales.termination.premiums',
      'sales.termination.terminate',
      'sales.customers.custom-view',
      'sales.payments.insert',
      'sales.payments.allocate',
      'sales.invoice.credit',
      'sales.policy.data-change',
    ]) {
      expect(exercised.has(op), op).toBe(true)
    }
  })

  for (const c of CASES) {
    const also = ALSO[c.defect]
    const must = [c.mustFail, ...(also && !also.file ? also.ids : [])]
    it.concurrent(`${c.defect} is caught by ${must.join(', ')}`, { timeout: 600_000 }, async () => {
      expectCaught(await outcome({ defect: c.defect, file: `${S}/${c.file}.test.ts` }), must)
    })
  }
  for (const e of ELSEWHERE) {
    it.concurrent(`${e.defect} is also caught in ${e.file} by ${e.ids.join(', ')}`, { timeout: 600_000 }, async () => {
      expectCaught(await outcome({ defect: e.defect, file: `${S}/${e.file}.test.ts` }), e.ids)
    })
  }
})
