
/**
 * The defects of issue 14 (state over time, operation x state, scoping per resource, data read back, money) and the
 * suite file whose run must catch each: the ids that must fail are invariants of the model (helpers/oracle/) or cells of
 * the operation x state table, never a check written for that one defect. Some cases reuse an older defect (or one
 * of the auth area) to show a new check failing. A broken invariant fails its own id only (the check whose answer broke
 * it keeps its own outcome: issue 13), so a case names a table or scoping check only where its own assertion fails.
 */
export interface ModelCase {
  defect: string
  area: 'webhooks' | 'sales' | 'policies' | 'auth'
  file: string
  mustFail: string[]
  /** An older defect reused to show a new check failing (not one of issue 14's own). */
  reused?: true
  /**
   * Issue 29's defects whose situations exploration does not generate (real-world payloads, a recalculation of a
   * changed quote, payments split across policies, restricted users, the actions list read twice), so `npm run
   * explore:defects` does not list them; renewals, termination quotes, technical changes and custom views it does
   * generate (runner/explore/commands.ts, PolicyView).
   */
  explore?: false
}

const W = (f: string) => `suites/webhooks/${f}.test.ts`
const S = (f: string) => `suites/sales/${f}.test.ts`
const P = (f: string) => `suites/policies/${f}.test.ts`

export const MODEL_CASES: ModelCase[] = [
  { defect: 'webhooks-list-stale-after-update', area: 'webhooks', file: W('state'), mustFail: ['WH-INV-001'] },
  { defect: 'webhooks-updated-at-frozen', area: 'webhooks', file: W('state'), mustFail: ['WH-INV-004'] },
  { defect: 'webhooks-refused-update-touches-updated-at', area: 'webhooks', file: W('state'), mustFail: ['WH-INV-004'] },
  { defect: 'webhooks-put-resets-event', area: 'webhooks', file: W('state'), mustFail: ['WH-INV-005'] },
  { defect: 'webhooks-list-created-at-is-updated-at', area: 'webhooks', file: W('state'), mustFail: ['WH-INV-001'] },
  { defect: 'webhooks-deleted-still-readable', area: 'webhooks', file: W('state'), mustFail: ['WH-INV-002', 'WH-STATE-005'] },
  { defect: 'webhooks-put-other-tenant', area: 'webhooks', file: W('scoping'), mustFail: ['WH-INV-006', 'WH-SCOPE-001'] },
  { defect: 'webhooks-delete-other-tenant', area: 'webhooks', file: W('scoping'), mustFail: ['WH-INV-006', 'WH-SCOPE-001'] },
  { defect: 'webhooks-get-stale-after-update', area: 'webhooks', file: W('state'), mustFail: ['WH-INV-005'] },
  { defect: 'webhooks-deleted-revived-by-put', area: 'webhooks', file: W('state'), mustFail: ['WH-INV-002'] },
  // older defects showing the other new webhook checks failing
  { defect: 'webhooks-created-at-changes', area: 'webhooks', file: W('state'), mustFail: ['WH-INV-003'], reused: true },
  { defect: 'webhooks-create-200', area: 'webhooks', file: W('state'), mustFail: ['WH-STATE-001'], reused: true },
  { defect: 'auth-webhooks-expiry-leeway-hour', area: 'auth', file: W('scoping'), mustFail: ['WH-INV-007', 'WH-SCOPE-002'] },

  { defect: 'sales-issued-reissue', area: 'sales', file: S('state-table'), mustFail: ['SL-OPS-ISSUED-ISSUE'] },
  { defect: 'sales-declined-can-calculate', area: 'sales', file: S('state-table'), mustFail: ['SL-OPS-DECLINED-CALCULATE'] },
  { defect: 'sales-referred-can-calculate', area: 'sales', file: S('state-table'), mustFail: ['SL-OPS-REFERRED-CALCULATE'] },
  { defect: 'sales-referred-can-referral', area: 'sales', file: S('state-table'), mustFail: ['SL-OPS-REFERRED-REFERRAL'] },
  { defect: 'sales-bound-accepts-update', area: 'sales', file: S('state-table'), mustFail: ['SL-OPS-BOUND-UPDATE'] },
  { defect: 'sales-issued-can-decline', area: 'sales', file: S('state-table'), mustFail: ['SL-OPS-ISSUED-DECLINE'] },
  { defect: 'sales-draft-can-bind', area: 'sales', file: S('state-table'), mustFail: ['SL-OPS-DRAFT-BIND', 'SL-INV-004'] },
  { defect: 'sales-bound-actions-unchanged', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-005'] },
  { defect: 'sales-declined-actions-unchanged', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-005'] },
  { defect: 'sales-update-resets-unnamed', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-002'] },
  { defect: 'sales-refused-update-applied', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-002'] },
  { defect: 'sales-get-numbers-as-strings', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-002', 'SL-INV-003'] },
  { defect: 'sales-request-status-regresses', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-001'] },
  { defect: 'sales-request-other-tenant', area: 'sales', file: S('scoping'), mustFail: ['SL-INV-006', 'SL-SCOPE-002'] },
  { defect: 'sales-document-other-tenant', area: 'sales', file: S('scoping'), mustFail: ['SL-INV-006', 'SL-SCOPE-003'] },
  { defect: 'sales-document-first-of-tenant', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-008'] },
  { defect: 'sales-update-other-tenant', area: 'sales', file: S('scoping'), mustFail: ['SL-INV-006', 'SL-SCOPE-001'] },
  { defect: 'auth-sales-expired-token-accepted', area: 'auth', file: S('scoping'), mustFail: ['SL-INV-007', 'SL-SCOPE-004', 'SL-SCOPE-005', 'SL-SCOPE-006'] },

  { defect: 'policies-balance-ignores-termination', area: 'policies', file: P('termination'), mustFail: ['PL-INV-001'] },
  { defect: 'policies-balance-ignores-mta', area: 'policies', file: P('mta'), mustFail: ['PL-INV-001'] },
  { defect: 'policies-balance-ignores-allocation', area: 'policies', file: P('payments'), mustFail: ['PL-INV-001'] },
  { defect: 'policies-invoices-read-moves-premium', area: 'policies', file: P('scoping'), mustFail: ['PL-INV-002'] },
  { defect: 'policies-links-other-tenant', area: 'policies', file: P('scoping'), mustFail: ['SL-INV-006', 'PL-SCOPE-001'] },
  { defect: 'policies-totals-other-tenant', area: 'policies', file: P('scoping'), mustFail: ['SL-INV-006', 'PL-SCOPE-001'] },
  { defect: 'auth-sales-expired-token-accepted', area: 'auth', file: P('scoping'), mustFail: ['PL-SCOPE-002'] },

  // issue 29: real-world data read back (SL-INV-009) and the policy across its views (PL-INV-003..005, PL-VIEW-001)
  { defect: 'sales-text-mojibake', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-009'], explore: false },
  { defect: 'sales-text-nfd', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-009'], explore: false },
  { defect: 'sales-emoji-stripped', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-009'], explore: false },
  { defect: 'sales-long-text-truncated', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-009'], explore: false },
  { defect: 'sales-cents-truncated', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-009'], explore: false },
  { defect: 'sales-amounts-float32', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-009'], explore: false },
  { defect: 'sales-leap-day-rolled', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-009'], explore: false },
  { defect: 'sales-calculation-stale', area: 'sales', file: P('views'), mustFail: ['PL-INV-004'] },
  { defect: 'sales-schedule-stale', area: 'sales', file: P('views'), mustFail: ['PL-INV-004'] },
  { defect: 'sales-calculation-gone-after-recalculation', area: 'sales', file: P('views'), mustFail: ['PL-VIEW-001'], explore: false },
  { defect: 'sales-issue-uses-created-data', area: 'sales', file: P('views'), mustFail: ['PL-INV-003'], explore: false },
  { defect: 'sales-request-policy-number-wrong', area: 'sales', file: P('views'), mustFail: ['PL-INV-003'] },
  { defect: 'policies-renewal-adds-quote', area: 'policies', file: P('views'), mustFail: ['PL-INV-005'] },
  { defect: 'policies-termination-quote-moves-financials', area: 'policies', file: P('views'), mustFail: ['PL-INV-005'] },
  { defect: 'policies-data-change-renumbers', area: 'policies', file: P('technical-change'), mustFail: ['PL-INV-005'] },
  { defect: 'policies-mta-moves-inception', area: 'policies', file: P('mta'), mustFail: ['PL-INV-005'] },
  // issue 29, second round: the agreement of one policy's money views (PL-INV-006)
  { defect: 'policies-links-premium-truncated', area: 'policies', file: P('views'), mustFail: ['PL-INV-006'] },
  { defect: 'policies-invoice-off-by-a-cent', area: 'policies', file: P('views'), mustFail: ['PL-INV-006'] },
  { defect: 'policies-custom-view-other-policy', area: 'policies', file: P('customer-view'), mustFail: ['PL-INV-006'], explore: false },
  // the actions list is final (sales §3 rule 4, SL-INV-010)
  { defect: 'sales-actions-empty-while-locked', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-010'] },
  // issue 29, third round: reads that write, operations changing what they are not for, views disagreeing, credits
  { defect: 'policies-renewal-moves-premium', area: 'policies', file: P('views'), mustFail: ['PL-INV-005'] },
  { defect: 'policies-renewal-books-fee', area: 'policies', file: P('views'), mustFail: ['PL-INV-002'] },
  { defect: 'policies-termination-quote-books-return', area: 'policies', file: P('views'), mustFail: ['PL-INV-002'] },
  { defect: 'policies-custom-view-adds-document', area: 'policies', file: P('views'), mustFail: ['PL-INV-005'] },
  { defect: 'policies-totals-premium-with-fees', area: 'policies', file: P('views'), mustFail: ['PL-INV-006'] },
  { defect: 'sales-calculation-installments-stale', area: 'sales', file: P('views'), mustFail: ['PL-INV-004'] },
  { defect: 'sales-schedule-last-cent-dropped', area: 'sales', file: P('views'), mustFail: ['PL-INV-004'] },
  { defect: 'policies-data-change-moves-inception', area: 'policies', file: P('technical-change'), mustFail: ['PL-INV-005'] },
  { defect: 'policies-data-change-adds-document', area: 'policies', file: P('technical-change'), mustFail: ['PL-INV-005'] },
  { defect: 'policies-data-change-drops-quotes', area: 'policies', file: P('technical-change'), mustFail: ['PL-INV-005'] },
  { defect: 'policies-mta-renumbers', area: 'policies', file: P('mta'), mustFail: ['PL-INV-005'] },
  { defect: 'policies-terminate-renumbers', area: 'policies', file: P('termination'), mustFail: ['PL-INV-005'] },
  { defect: 'policies-terminate-moves-inception', area: 'policies', file: P('termination'), mustFail: ['PL-INV-005'] },
  { defect: 'policies-custom-view-due-dates-shifted', area: 'policies', file: P('customer-view'), mustFail: ['PL-INV-006'] },
  { defect: 'policies-custom-view-premium-in-cents', area: 'policies', file: P('customer-view'), mustFail: ['PL-INV-006'], explore: false },
  { defect: 'policies-credit-reverses-whole-payment', area: 'policies', file: P('payments'), mustFail: ['PL-INV-002'], explore: false },
  { defect: 'policies-allocation-split-booked-to-first-invoice', area: 'policies', file: P('payments'), mustFail: ['PL-INV-002'], explore: false },
  { defect: 'sales-actions-flicker-after-calculate', area: 'sales', file: S('state-table'), mustFail: ['SL-INV-010'] },
]

/** The new defects of one area (the older defects and the auth ones reused above excepted). */
export function modelDefectsOf(area: string, catalogue: Record<string, unknown>): string[] {
  return [...new Set(MODEL_CASES.filter((c) => c.area === area && Object.hasOwn(catalogue, c.defect)).map((c) => c.defect))]
}
