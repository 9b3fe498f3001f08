import type { DefectInfo } from './types'

const C = 'sales-service.md §4'
const d = (description: string, clause = C): DefectInfo => ({ area: 'policies', clause, description })

/** Policy data, MTA, technical change, renewal, termination, payments, credit, customers (sales-service.md §1, §4). */
export const POLICIES_DEFECTS = {
  'policies-invoices-not-installments': d('The first invoice created at issue does not carry the premium of its installment (1.00 too much).'),
  'policies-not-tenant-scoped': d("A policy's invoices are served to a caller of another tenant.", 'sales-service.md §4, §5'),
  'policies-mta-not-applied': d('Issuing an MTA quote succeeds but leaves the policy data and financials unchanged.'),
  'policies-mta-totals-unchanged': d('Issuing an MTA quote changes the policy data but adds no adjustment premium to the totals.'),
  'policies-technical-change-alters-premium': d('A technical data change recalculates the premium (+10 %) of the policy and its invoices.'),
  'policies-data-change-creates-quote': d('A technical data change creates a quote on the policy (listed in its links).'),
  'policies-data-change-accepts-financial': d('A technical data change accepts and applies a change of a financial field.'),
  'policies-renewal-dates-wrong': d('The renewal data keeps the current period dates instead of the next period.'),
  'policies-pro-rata-wrong': d('The pro-rata return premium counts one day too many.'),
  'policies-short-rate-wrong': d('The short-rate return premium ignores the short-rate percentage (returns the pro-rata amount).'),
  'policies-manual-sum-ignored': d('The manual termination premium returns the pro-rata amount instead of the given terminationSum.'),
  'policies-termination-repeatable': d('A terminated policy can be terminated again.'),
  'policies-totals-ignore-return-premium': d('The period totals do not reflect the return premium of a termination.'),
  'policies-payment-double-counted': d('An allocation is counted twice in the paid amount of the period totals.'),
  'policies-over-allocation-accepted': d('An allocation larger than the unallocated part of the payment is accepted.'),
  'policies-credit-reverses-wrong-allocation': d('Crediting an allocation event reverses the earliest live allocation of the payment instead of that event.', 'sales-service.md §1, §4'),
  'policies-credit-other-tenant': d("A caller of another tenant can credit this tenant's allocation event.", 'sales-service.md §4, §5'),
  'policies-credit-unknown-event-ok': d('Crediting an unknown allocation event id answers 200.'),
  'policies-custom-view-ignores-identity': d('The customer custom view answers 200 whatever the identity query parameters (even none).'),
  'policies-custom-view-leaks-other-customer': d("The customer custom view accepts any customer's identity of the tenant, not only the policy's customer."),
} as const satisfies Record<string, DefectInfo>
