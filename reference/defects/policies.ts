import type { DefectInfo } from './types'

const C = 'sales-service.md §4'
const d = (description: string, clause = C): DefectInfo => ({ area: 'policies', clause, description })

/** Policy data, MTA, technical change, renewal, termination, payments, credit, customers (sales-service.md §1, §4). */
export const POLICIES_DEFECTS = {
  'policies-invoices-not-installments': d(
    'The first invoice created at issue does not carry the premium of its installment (1.00 too much).',
  ),
  'policies-not-tenant-scoped': d(
    "A policy's invoices are served to a caller of another tenant.",
    'sales-service.md §4, §5',
  ),
  'policies-mta-not-applied': d('Issuing an MTA quote succeeds but leaves the policy data and financials unchanged.'),
  'policies-mta-totals-unchanged': d(
    'Issuing an MTA quote changes the policy data but adds no adjustment premium to the totals.',
  ),
  'policies-technical-change-alters-premium': d(
    'A technical data change recalculates the premium (+10 %) of the policy and its invoices.',
  ),
  'policies-data-change-creates-quote': d(
    'A technical data change creates a quote on the policy (listed in its links).',
  ),
  'policies-data-change-accepts-financial': d(
    'A technical data change accepts and applies a change of a financial field.',
  ),
  'policies-renewal-dates-wrong': d('The renewal data keeps the current period dates instead of the next period.'),
  'policies-pro-rata-wrong': d('The pro-rata return premium counts one day too many.'),
  'policies-short-rate-wrong': d(
    'The short-rate return premium ignores the short-rate percentage (returns the pro-rata amount).',
  ),
  'policies-manual-sum-ignored': d(
    'The manual termination premium returns the pro-rata amount instead of the given terminationSum.',
  ),
  'policies-termination-repeatable': d('A terminated policy can be terminated again.'),
  'policies-totals-ignore-return-premium': d('The period totals do not reflect the return premium of a termination.'),
  'policies-payment-double-counted': d('An allocation is counted twice in the paid amount of the period totals.'),
  'policies-over-allocation-accepted': d('An allocation larger than the unallocated part of the payment is accepted.'),
  'policies-credit-reverses-wrong-allocation': d(
    'Crediting an allocation event reverses the earliest live allocation of the payment instead of that event.',
    'sales-service.md §1, §4',
  ),
  'policies-credit-other-tenant': d(
    "A caller of another tenant can credit this tenant's allocation event.",
    'sales-service.md §4, §5',
  ),
  'policies-credit-unknown-event-ok': d('Crediting an unknown allocation event id answers 200.'),
  'policies-custom-view-ignores-identity': d(
    'The customer custom view answers 200 whatever the identity query parameters (even none).',
  ),
  'policies-custom-view-leaks-other-customer': d(
    "The customer custom view accepts any customer's identity of the tenant, not only the policy's customer.",
  ),
  'policies-totals-balance-without-fees': d('The balance of the period totals leaves out the admin fee.'),
  'policies-unknown-policy-empty-200': d(
    'Invoices and period totals of an unknown policy id answer 200 with empty data.',
  ),
  'policies-invoice-field-misspelled': d('Invoices spell the due date dueDate instead of duedate.'),
  'policies-totals-as-strings': d('The period totals send their amounts as strings.'),
  'policies-mta-returns-policy-id': d('The MTA answers with the id of the policy instead of the new quote.'),
  'policies-mta-quote-stays-locked': d(
    'An MTA quote stays locked after creation (actions never unlock).',
    'sales-service.md §3, §4',
  ),
  'policies-mta-issue-fails': d('Issuing an MTA quote ends the request in failure.', 'sales-service.md §3, §4'),
  'policies-mta-unknown-policy-accepted': d('An MTA of an unknown policy id is accepted.'),
  'policies-data-change-refuses-contact-data': d('A technical change refuses a change of the customer contact data.'),
  'policies-data-change-not-applied': d('A technical change answers 2xx but does not store the change.'),
  'policies-data-change-unknown-policy-ok': d('A technical change of an unknown policy id answers 2xx.'),
  'policies-renewal-unwrapped': d('The renewal data is sent without its data wrapper.'),
  'policies-renewal-invalid-data': d(
    'The renewal data carries policy fields the product schema does not allow (id, policyNo).',
  ),
  'policies-renewal-drops-objects': d('The renewal data leaves out the insured objects.'),
  'policies-renewal-unknown-policy-ok': d('Renewal data of an unknown policy id answers 200.'),
  'policies-termination-date-unchecked': d(
    'A return premium for a termination date outside the period is computed instead of refused.',
  ),
  'policies-terminate-no-event-id': d('Terminate answers 200 without an event id.'),
  'policies-termination-not-shown': d('A terminated policy still shows as active, without its termination date.'),
  'policies-payment-id-missing': d('Inserting a payment answers without the payment id.'),
  'policies-credit-not-applied': d(
    'Crediting an allocation event answers 200 but does not reverse the allocation.',
    'sales-service.md §1, §4',
  ),
  'policies-credit-repeatable': d('An allocation event can be credited twice (the second answers 200).'),
  'policies-allocate-unknown-invoice-ok': d('Allocations to unknown invoices are skipped silently with 200.'),
  'policies-custom-view-wrong-installments': d(
    'The custom view shows the first installment with the admin fee added to its premium.',
  ),
  // money and scoping per resource (issue 14): each caught by an invariant of the model (PL-INV-*, SL-INV-006)
  'policies-balance-ignores-termination': d(
    'The balance of the period totals does not follow the premium reduced by a termination (PL-INV-001).',
    'sales-service.md §1, §4',
  ),
  'policies-balance-ignores-mta': d(
    'The balance of the period totals does not follow the premium changed by an MTA (PL-INV-001).',
    'sales-service.md §1, §4',
  ),
  'policies-balance-ignores-allocation': d(
    'An allocation raises paid but the balance of the period totals stays as before (PL-INV-001).',
    'sales-service.md §1, §4',
  ),
  'policies-invoices-read-moves-premium': d(
    'Every read of the invoices adds 1.00 to the premium of the period totals: money moves without a money-moving ' +
      'operation (PL-INV-002).',
    'sales-service.md §1, §4',
  ),
  'policies-links-other-tenant': d(
    "A policy's links (its data and financials) are served to a caller of another tenant (SL-INV-006).",
    'sales-service.md §4, §5',
  ),
  'policies-totals-other-tenant': d(
    "A policy's period totals are served to a caller of another tenant (SL-INV-006).",
    'sales-service.md §4, §5',
  ),
  // the policy across its views (issue 29): each caught by an invariant of the model (PL-INV-003..005) or a generic
  // flow
  'policies-renewal-adds-quote': d(
    'Preparing renewal data (a read) adds a renewal quote to the policy links (PL-INV-005).',
  ),
  'policies-data-change-renumbers': d('A technical change gives the policy a new policy number (PL-INV-005).'),
  'policies-mta-moves-inception': d(
    "Issuing an MTA moves the policy's inception date to the MTA's effective date (PL-INV-005).",
  ),
  // the agreement of one policy's money views (issue 29, PL-INV-006)
  'policies-links-premium-truncated': d(
    'The policy view shows its period premium cut to whole units, while its invoices and totals keep the cents ' +
      '(PL-INV-006).',
  ),
  'policies-invoice-off-by-a-cent': d(
    "The invoices list shows the policy's first invoice one cent above what is booked: the invoices no longer sum to " +
      "the totals' premium (PL-INV-006).",
  ),
  'policies-custom-view-other-policy': d(
    "The customer custom view's installments name the invoices of another policy of the tenant (a cache keyed by " +
      'tenant instead of policy) (PL-INV-006).',
  ),
  'policies-custom-view-matches-first-only': d(
    'The customer custom view requires every identity parameter but compares only the first: a right code with any ' +
      "documentCountry opens it (issue 14's defect; PL-CUST-004).",
    'sales-service.md §4, §5',
  ),
  'policies-termination-quote-moves-financials': d(
    "A termination premium quote (a read) lowers the policy's period premium in its financials by the quoted return " +
      '(PL-INV-005).',
  ),
  // issue 29, third round: each caught by an invariant of the model (PL-INV-002, 005, 006) or a generic flow
  'policies-renewal-moves-premium': d(
    "Preparing renewal data (a read) raises the policy's period premium in its financials by the renewal index (3 %) " +
      '(PL-INV-005).',
  ),
  'policies-renewal-books-fee': d(
    "Preparing renewal data (a read) books a renewal admin fee of 5.00 on the policy: the period totals' fees move " +
      'without a money-moving operation (PL-INV-002).',
    'sales-service.md §1, §4',
  ),
  'policies-termination-quote-books-return': d(
    "A termination premium quote (a read) books the quoted return premium on the policy's invoices: its period " +
      "totals' premium moves (PL-INV-002).",
    'sales-service.md §1, §4',
  ),
  'policies-custom-view-adds-document': d(
    'A read of the customer custom view generates a document (a statement) on the policy: its documents list grows ' +
      'with a read (PL-INV-005).',
  ),
  'policies-totals-premium-with-fees': d(
    "The period totals' premium includes the admin fee (the balance stays right): the invoices' premiums no longer " +
      'sum to it (PL-INV-006).',
    'sales-service.md §1, §4',
  ),
  'policies-data-change-moves-inception': d(
    "A technical change restarts the policy's inception date at the change's date (PL-INV-005).",
  ),
  'policies-data-change-adds-document': d(
    'A technical change generates an endorsement document on the policy (PL-INV-005).',
  ),
  'policies-data-change-drops-quotes': d(
    "A technical change forgets the policy's quotes: its links no longer list the quote it was issued from " +
      '(PL-INV-005).',
  ),
  'policies-mta-renumbers': d('Issuing an MTA gives the policy a new policy number (PL-INV-005).'),
  'policies-terminate-renumbers': d(
    'Terminating a policy gives it a new policy number (a cancellation number) (PL-INV-005).',
  ),
  'policies-terminate-moves-inception': d(
    'Terminating a policy writes the termination date into its inception date (PL-INV-005).',
  ),
  'policies-custom-view-due-dates-shifted': d(
    "The customer custom view shows each installment's due date a day later than its invoice (a time zone slip) " +
      '(PL-INV-006).',
  ),
  'policies-custom-view-premium-in-cents': d(
    "The customer custom view shows each installment's premium in minor units (cents, 5131 for 51.31) while the " +
      'invoices show units (PL-INV-006).',
  ),
  'policies-credit-reverses-whole-payment': d(
    'Crediting one allocation event reverses every live allocation of its payment (PL-INV-002).',
    'sales-service.md §1, §4',
  ),
  'policies-allocation-split-booked-to-first-invoice': d(
    'A payment allocated to several invoices in one request is booked on the first invoice named (the events name ' +
      "the invoices asked for): across two policies, the second policy's allocation lands on the first (PL-INV-002).",
    'sales-service.md §1, §4',
  ),
} as const satisfies Record<string, DefectInfo>
