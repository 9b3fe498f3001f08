/**
 * Where every field of every answer comes from (issue 39): for each operation and status, each JSON path of the answer
 * (`*` for an array item, `**` for any leaf below) is one of
 *  - `echo`: what the request sent comes back (per the dialect's merge rules: objects merge, null removes);
 *  - `state`: the model's value for that resource (its id, the id asked for, the tenant, the owner);
 *  - `rule`: arithmetic or derivation (commission and tax from the premium and the percentages, totals, installment
 *    count from the payment frequency, unallocated = amount - allocations), to the cent (the profile's moneyTolerance);
 *  - `agreement`: another answer of the same state shows the same (the calculate answer and the calculation read, a
 *    list item and its single read, the secret in every answer of a subscription);
 *  - `free`: nothing determines it; each such entry quotes what leaves it open.
 * `by` names the invariant that judges the field (helpers/oracle/answer-model.ts and the older rules of the model).
 * The table was made from the answers of a clean full run (the recorder's attachments), not guessed. A field an answer
 * carries that the table does not know is reported once per run as unjudged (a deviation, not a failure).
 * `ledger-conformance list --fields` prints it; docs/fields.md shows it (generated).
 */
export type SourceKind = 'echo' | 'state' | 'rule' | 'agreement' | 'free'

export interface FieldSource {
  kind: SourceKind
  /** What the value must be, in words. */
  what: string
  /** The invariant that judges it. */
  by: string
}

const echo = (what: string, by: string): FieldSource => ({ kind: 'echo', what, by })
const state = (what: string, by: string): FieldSource => ({ kind: 'state', what, by })
const rule = (what: string, by: string): FieldSource => ({ kind: 'rule', what, by })
const agreement = (what: string, by: string): FieldSource => ({ kind: 'agreement', what, by })
const free = (why: string): FieldSource => ({ kind: 'free', what: why, by: '—' })

/** The financials block of a calculated quote or a policy, under `prefix` (the rules of docs/fields.md). */
function financials(prefix: string, by: string, agree: string): Record<string, FieldSource> {
  return {
    [`${prefix}/periodPremium`]: agreement(`the period premium of the calculation (${agree})`, by),
    [`${prefix}/currency`]: echo('the policy.currency written', by),
    [`${prefix}/taxPct`]: agreement(`the tax percentage of the calculation (${agree})`, by),
    [`${prefix}/tax`]: rule('periodPremium × taxPct / 100, to the cent', by),
    [`${prefix}/adminFeeSum`]: agreement(`the administration fee of the calculation (${agree})`, by),
    [`${prefix}/feeVatPct`]: agreement(`the fee VAT percentage of the calculation (${agree})`, by),
    [`${prefix}/brokerCommPct`]: agreement(`the broker commission percentage of the calculation (${agree})`, by),
    [`${prefix}/brokerComm`]: rule('periodPremium × brokerCommPct / 100, to the cent', by),
    [`${prefix}/mgaCommPct`]: agreement(`the MGA commission percentage of the calculation (${agree})`, by),
    [`${prefix}/mgaComm`]: rule('periodPremium × mgaCommPct / 100, to the cent', by),
    [`${prefix}/installments`]: rule(
      'the number of installments of policy.paymentFrequency (annual 1, semi-annual 2, quarterly 4, monthly 12)',
      by,
    ),
    [`${prefix}/total`]: rule('periodPremium + tax + adminFeeSum, to the cent', by),
  }
}

/** Operation and status -> JSON path -> source. */
export const ANSWER_SOURCES: Record<string, Record<string, FieldSource>> = {
  'sales.quote.create 200': {
    '/schema/type': echo('the schema block sent', 'SL-INV-020'),
    '/schema/name': echo('the schema block sent', 'SL-INV-020'),
    '/policy/id': state('a new quote id, no other quote of the run', 'SL-INV-021'),
    '/objects/*/*/id': state('the id the service gives each insured object (kept by later answers)', 'SL-INV-021'),
    '/**': echo('the quote data sent (customer, objects, policy)', 'SL-INV-020'),
  },
  'sales.quote.update 200': {
    '/schema/type': echo('the product of the quote', 'SL-INV-020'),
    '/schema/name': echo('the product of the quote', 'SL-INV-020'),
    '/policy/id': state('the quote id asked for', 'SL-INV-021'),
    '/objects/*/*/id': state('the insured object ids the quote has (unless the update names objects)', 'SL-INV-021'),
    '/**': echo('the quote data last written with this update merged in (objects merge, null removes)', 'SL-INV-020'),
  },
  'sales.quote.calculate 200': {
    '/data/schema/type': echo('the product of the quote', 'SL-INV-020'),
    '/data/schema/name': echo('the product of the quote', 'SL-INV-020'),
    '/data/policy/id': state('the quote id asked for', 'SL-INV-021'),
    '/data/objects/*/*/id': state('the insured object ids the quote has', 'SL-INV-021'),
    ...financials('/data/policy/financials', 'SL-INV-022', 'the calculation read afterwards'),
    '/data/**': echo('the quote data last written', 'SL-INV-020'),
    '/meta/status': agreement("the quote's status in its next read", 'SL-INV-023'),
    '/meta/schemaPath': agreement("the quote's schemaPath in its reads", 'SL-INV-023'),
    '/meta/warnings': free(
      'anchors README (the quote read): meta carries warnings and errors, notices for a person; their content is the ' +
        "service's",
    ),
    '/meta/errors': free(
      'anchors README (the quote read): meta carries warnings and errors, notices for a person; their content is the ' +
        "service's",
    ),
  },
  'sales.quote.get 200': {
    '/data/schema/type': echo('the product of the quote', 'SL-INV-020'),
    '/data/schema/name': echo('the product of the quote', 'SL-INV-020'),
    '/data/policy/id': state('the quote id asked for', 'SL-INV-021'),
    '/data/objects/*/*/id': state('the insured object ids the quote has', 'SL-INV-021'),
    ...financials('/data/policy/financials', 'SL-INV-022', 'the last calculation'),
    '/data/**': echo('the quote data last written (SL-INV-002, SL-INV-009)', 'SL-INV-002'),
    '/meta/status': agreement(
      'the status the calculate answer and the other reads show, until the next write',
      'SL-INV-023',
    ),
    '/meta/version': agreement('the version the previous read showed, until the next write', 'SL-INV-023'),
    '/meta/schemaPath': agreement("the quote's schemaPath in its other answers", 'SL-INV-023'),
    '/meta/warnings': free(
      "anchors README (the quote read): meta.warnings, notices for a person; their content is the service's",
    ),
    '/meta/warnings/*/code': free(
      "anchors README (the quote read): meta.warnings, notices for a person; their content is the service's",
    ),
    '/meta/warnings/*/title': free(
      "anchors README (the quote read): meta.warnings, notices for a person; their content is the service's",
    ),
    '/meta/errors': free(
      "anchors README (the quote read): meta.errors, notices for a person; their content is the service's",
    ),
  },
  'sales.quote.calculation 200': {
    ...financials('/data', 'SL-INV-022', 'the calculate answer'),
    '/installments/*/dueDate': agreement('the installments schedule (PL-INV-004)', 'PL-INV-004'),
    '/installments/*/premium': agreement(
      'the installments schedule; they sum to periodPremium (PL-INV-004)',
      'PL-INV-004',
    ),
    '/fields/*/name': free(
      'anchors README (the calculation read): a list of fields with display titles; which fields it lists is the ' +
        "service's",
    ),
    '/fields/*/title': free('anchors README (the calculation read): display titles of the fields listed'),
  },
  'sales.quote.installments 200': {
    '/instalments/*/dueDate': agreement("the calculation's installments (PL-INV-004)", 'PL-INV-004'),
    '/instalments/*/premium': agreement("the calculation's installments (PL-INV-004)", 'PL-INV-004'),
  },
  'sales.quote.mta 200': {
    '/policy/id': state('a new quote id, no other quote of the run', 'SL-INV-021'),
    '/policy/policyId': echo('the policy.id sent (the policy changed)', 'SL-INV-020'),
    '/schema/type': echo('the product of the policy', 'SL-INV-020'),
    '/schema/name': echo('the product of the policy', 'SL-INV-020'),
    '/objects/*/*/id': state("the policy's insured object ids, or new ones for objects sent", 'SL-INV-021'),
    '/**': echo("the policy's data with the blocks and policy fields sent over it", 'SL-INV-020'),
  },
  'sales.quote.actions 200': {
    '/data/*': agreement('the state of the quote (SL-INV-004, SL-INV-005, SL-INV-010)', 'SL-INV-010'),
    '/data': agreement('the state of the quote (SL-INV-010)', 'SL-INV-010'),
    '/meta/status': agreement('the status the quote reads show, until the next write', 'SL-INV-023'),
    '/links/self': rule('a link naming the quote id', 'SL-INV-021'),
    '/links/quote:changes': rule('a link naming the quote id', 'SL-INV-021'),
  },
  'sales.quote.issue 202': {
    '/requestId': state('a new request id', 'SL-INV-001'),
  },
  'sales.requests.get 200': {
    '/requestId': echo('the request id asked for', 'SL-INV-021'),
    '/status': state('pending, then one terminal status for ever (SL-INV-001)', 'SL-INV-001'),
    '/data/policyId': state('the policy id, for ever (SL-INV-001)', 'SL-INV-001'),
    '/data/policyNo': agreement('the number the policy view shows (PL-INV-003)', 'PL-INV-003'),
    '/data/quoteId': state('the quote that was issued', 'SL-INV-021'),
    '/data/mtaPremium': rule('the MTA adjustment; the period totals move by it (PL-INV-002)', 'PL-INV-002'),
    '/data/dateEffective': echo('the mta.dateEffective sent with the MTA quote', 'SL-INV-020'),
    '/data/code': free("sales §3: a failed request says why; the wording is the service's"),
    '/data/message': free("sales §3: a failed request says why; the wording is the service's"),
  },
  'sales.policy.links 200': {
    '/data/policy/id': state('the policy id asked for', 'PL-INV-021'),
    '/data/policy/policyNo': state(
      'the number the issue request named, for ever (PL-INV-003, PL-INV-005)',
      'PL-INV-005',
    ),
    '/data/policy/status': agreement('meta.status of the same answer', 'PL-INV-023'),
    '/data/policy/dateIssue': state('the day of the issue, for ever', 'PL-INV-005'),
    '/data/policy/dateInception': state('the inception as issued, for ever (PL-INV-003, PL-INV-005)', 'PL-INV-005'),
    '/data/policy/dateExpiry': state('the expiry as issued (PL-INV-003)', 'PL-INV-003'),
    ...financials('/data/policy/financials', 'PL-INV-022', "the issuing quote's calculation"),
    '/data/policy/terminationType': echo('the terminationType of the termination', 'PL-INV-020'),
    '/data/policy/terminationDate': echo('the terminationDate of the termination', 'PL-INV-020'),
    '/data/policy/returnPremium': agreement("the period totals' return premium", 'PL-INV-002'),
    '/data/agent/code': state("the policy's tenant", 'PL-INV-021'),
    '/data/agent/broker': state('the user who made the quote', 'PL-INV-021'),
    '/meta/status': agreement('data.policy.status of the same answer', 'PL-INV-023'),
    '/meta/version': state('the version of the policy', 'PL-INV-005'),
    '/meta/schemaPath': free("sales §4: the schema path names the product's schema; its spelling is the service's"),
    '/links/self': rule('the path of /policies/{id}/links for this policy', 'PL-INV-021'),
    '/links/invoices': rule('the path of /policies/{id}/invoices for this policy', 'PL-INV-021'),
    '/links/periodTotals': rule('the path of /policies/{id}/period-totals for this policy', 'PL-INV-021'),
    '/links/renewal': rule('the path of /policies/{id}/renewal for this policy', 'PL-INV-021'),
    '/links/quotes/*': state("the policy's quotes, among them the quote it was issued from (PL-INV-005)", 'PL-INV-021'),
    '/links/quotes': state("the policy's quotes (PL-INV-005)", 'PL-INV-005'),
    '/links/documents/*': state("the policy's documents (PL-INV-005)", 'PL-INV-005'),
    '/links/documents': state("the policy's documents (PL-INV-005)", 'PL-INV-005'),
    '/data/**': echo('the product data as issued and changed since (PL-INV-003)', 'PL-INV-003'),
  },
  'sales.policy.period-totals 200': {
    '/data/policyId': state('the policy id asked for', 'PL-INV-021'),
    '/data/premium': state('the premium, moved only by money-moving operations (PL-INV-002)', 'PL-INV-002'),
    '/data/adminFee': state('the fees, moved only by money-moving operations (PL-INV-002)', 'PL-INV-002'),
    '/data/paid': state('paid, moved by allocations and credits (PL-INV-002)', 'PL-INV-002'),
    '/data/balance': rule('premium + fees - paid (PL-INV-001)', 'PL-INV-001'),
    '/data/total': rule('premium + adminFee, to the cent', 'PL-INV-022'),
    '/data/currency': agreement("the policy's currency (its view's financials)", 'PL-INV-023'),
    '/data/invoices': agreement('the number of invoices the invoices list shows', 'PL-INV-023'),
    '/data/returnPremium': agreement('the return premium of the termination (0 before)', 'PL-INV-023'),
  },
  'sales.policy.invoices 200': {
    '/*/invoicenumber': state('the invoices of the policy (PL-INV-006)', 'PL-INV-006'),
    '/*/duedate': agreement("the schedule's due dates (PL-INV-006)", 'PL-INV-006'),
    '/*/premium': agreement("sum to the period totals' premium (PL-INV-006)", 'PL-INV-006'),
    '/*/payable': rule(
      'premium + adminfee - what the allocations (less their credits) paid on it, to the cent',
      'PL-INV-022',
    ),
    '/*/adminfee': agreement(
      "sum to the period totals' fees (PL-DATA-002); how the fee is split over the installments is not defined",
      'PL-DATA-002',
    ),
    '/*/brokercomm': free(
      'anchors README (invoices): the commission is named per invoice, its split over the installments is not defined',
    ),
    '/*/mgacomm': free(
      'anchors README (invoices): the commission is named per invoice, its split over the installments is not defined',
    ),
  },
  'sales.termination.premiums 200': {
    '/data/policyId': echo('the policy id asked for', 'PL-INV-020'),
    '/data/terminationType': echo('the policy.terminationType sent', 'PL-INV-020'),
    '/data/terminationDate': echo('the policy.terminationDate sent', 'PL-INV-020'),
    '/data/premium': agreement("the period totals' premium", 'PL-INV-023'),
    '/data/returnPremium': rule(
      'manual: the terminationSum sent; pro-rata: premium × unused days / period days, to the cent',
      'PL-INV-022',
    ),
  },
  'sales.termination.terminate 200': {
    '/event_id': state('a new event id', 'PL-INV-021'),
  },
  'sales.policy.data-change 200': {
    '/data/policyId': echo('the policy id asked for', 'PL-INV-020'),
    '/data/changed/*': echo('the blocks the body named', 'PL-INV-020'),
    '/data/version': state('the version of the policy', 'PL-INV-021'),
  },
  'sales.policy.renewal 200': {
    '/data/schema/type': echo('the product of the policy (PL-REN-002: valid for its schema)', 'PL-REN-002'),
    '/data/schema/name': echo('the product of the policy (PL-REN-002: valid for its schema)', 'PL-REN-002'),
    '/data/policy/dateInception': rule('the day after the expiry (PL-REN-003)', 'PL-REN-003'),
    '/data/policy/dateExpiry': rule('as long a period after the renewal inception (PL-REN-003)', 'PL-REN-003'),
    '/data/customer/**': agreement(
      "the policy's current customer, as its view last showed it (PL-REN-004)",
      'PL-INV-023',
    ),
    '/data/objects/**': agreement(
      "the policy's current insured objects, as its view last showed them (PL-REN-004)",
      'PL-INV-023',
    ),
    '/meta/policyNo': agreement('the number the policy view shows', 'PL-INV-023'),
    '/meta/renewalOf': echo('the policy id asked for', 'PL-INV-020'),
    '/meta/schemaPath': free("sales §4: the schema path names the product's schema; its spelling is the service's"),
    '/data/**': agreement(
      "the policy's product fields as its view last showed them (currency, payment frequency, commission, channel, " +
        'reference)',
      'PL-INV-023',
    ),
  },
  'sales.payments.insert 201': {
    '/data/id': state('a new payment id', 'PL-INV-021'),
    '/data/amount': echo('the amount sent', 'PL-INV-020'),
    '/data/paymentDate': echo('the paymentDate sent', 'PL-INV-020'),
    '/data/reference': echo('the reference sent', 'PL-INV-020'),
    '/data/allocated': rule('0: nothing allocated yet', 'PL-INV-022'),
    '/data/unallocated': rule('the amount: nothing allocated yet', 'PL-INV-022'),
  },
  'sales.payments.allocate 200': {
    '/data/paymentId': echo('the paymentId sent', 'PL-INV-020'),
    '/data/events/*/paymentId': echo('the paymentId sent', 'PL-INV-020'),
    '/data/events/*/invoicenumber': echo('the invoicenumber of the allocation sent, in order', 'PL-INV-020'),
    '/data/events/*/amount': echo('the amount of the allocation sent, in order', 'PL-INV-020'),
    '/data/events/*/eventId': state('a new event id per allocation', 'PL-INV-021'),
    '/data/unallocated': rule("the payment's unallocated amount less the allocations sent", 'PL-INV-022'),
  },
  'sales.invoice.credit 200': {
    '/data/eventId': echo('the event id asked for', 'PL-INV-020'),
    '/data/paymentId': state('the payment of that allocation event', 'PL-INV-021'),
    '/data/invoicenumber': state('the invoice of that allocation event', 'PL-INV-021'),
    '/data/amount': state('the amount of that allocation event', 'PL-INV-021'),
    '/data/credited': rule('the amount of the allocation event (a credit reverses it whole)', 'PL-INV-022'),
    '/data/creditedAt': free(
      "anchors README: the credit operation is not in the public document (the project's shape); when it was " +
        "credited, by the service's clock",
    ),
  },
  'webhooks.subscription.create 201': {
    '/id': state('a new subscription id', 'WH-INV-020'),
    '/event': echo('the event sent (WH-INV-005)', 'WH-INV-005'),
    '/url': echo('the url sent (WH-INV-005)', 'WH-INV-005'),
    '/secret': state('a secret of its own: no other subscription of the run has it', 'WH-INV-020'),
    '/secret/**': state('a secret of its own: no other subscription of the run has it', 'WH-INV-020'),
    '/createdAt': state('the creation time (WH-INV-003 keeps it)', 'WH-INV-003'),
    '/updatedAt': state('the creation time (WH-INV-004 moves it)', 'WH-INV-004'),
  },
  'webhooks.subscription.get 200': {
    '/id': echo('the id asked for', 'WH-INV-020'),
    '/event': agreement('the event last written (WH-INV-005)', 'WH-INV-005'),
    '/url': agreement('the url last written (WH-INV-005)', 'WH-INV-005'),
    '/secret': agreement('the secret the create answer gave', 'WH-INV-021'),
    '/secret/**': agreement('the secret the create answer gave', 'WH-INV-021'),
    '/createdAt': agreement('the createdAt of the create answer (WH-INV-003)', 'WH-INV-003'),
    '/updatedAt': agreement('the updatedAt of the last write (WH-INV-004)', 'WH-INV-004'),
  },
  'webhooks.subscription.update 200': {
    '/id': echo('the id asked for', 'WH-INV-020'),
    '/event': echo('the event sent, else the one before (WH-INV-005)', 'WH-INV-020'),
    '/url': echo('the url sent, else the one before (WH-INV-005)', 'WH-INV-020'),
    '/secret': agreement('the secret the create answer gave (an update does not name it)', 'WH-INV-021'),
    '/secret/**': agreement('the secret the create answer gave (an update does not name it)', 'WH-INV-021'),
    '/createdAt': agreement('the createdAt of the create answer (WH-INV-003)', 'WH-INV-003'),
    '/updatedAt': state('later than before (WH-INV-004)', 'WH-INV-004'),
  },
  'webhooks.subscriptions.list 200': {
    '': state("the caller's live subscriptions (WH-INV-001): an empty list when it has none", 'WH-INV-001'),
    '/*/id': state("the caller's live subscriptions (WH-INV-001)", 'WH-INV-001'),
    '/*/event': agreement('the event last written (WH-INV-001)', 'WH-INV-001'),
    '/*/url': agreement('the url last written (WH-INV-001)', 'WH-INV-001'),
    '/*/secret': agreement('the secret the create answer gave', 'WH-INV-021'),
    '/*/secret/**': agreement('the secret the create answer gave', 'WH-INV-021'),
    '/*/createdAt': agreement('the createdAt of the create answer (WH-INV-001)', 'WH-INV-001'),
    '/*/updatedAt': agreement('the updatedAt of the last write (WH-INV-001)', 'WH-INV-001'),
  },
  // the annotations of JSON Schema's meta-data vocabulary (and $id, $comment) do not change which quotes follow the
  // schema; the value bounds and other validation keywords do (SL-PAY-002..004 judge them). $schema does too (the
  // dialect says how the keywords read): not free
  'sales.schemes.get 200': {
    '/$id': free(
      "sales §2 leaves the schema documents' structure open and §4 names a schema by the type and name of its path; " +
        'no quote depends on the identifier (a $ref that resolves against it is judged by SL-SCH-001 compiling it)',
    ),
    '/**/title': free(
      "sales §2 leaves the schema documents' structure open and §4 binds a quote to what the schema validates; a " +
        'title is an annotation, no quote follows it or breaks it',
    ),
    '/**/description': free(
      "sales §2 leaves the schema documents' structure open and §4 binds a quote to what the schema validates; a " +
        'description is an annotation, no quote follows it or breaks it',
    ),
    '/**/$comment': free(
      "sales §2 leaves the schema documents' structure open; a $comment is for the schema's authors, not for quotes",
    ),
    '/**/examples/**': free(
      "sales §2 leaves the schema documents' structure open; examples illustrate a field and do not validate a quote",
    ),
    '/**/readOnly': free(
      "sales §2 leaves the schema documents' structure open and no clause says what the service does with a value " +
        'the caller sends for a field marked read-only or not; the flag is an annotation that validates nothing (the ' +
        'ids the service gives insured objects are judged in the answers, SL-INV-021)',
    ),
    '/**/writeOnly': free(
      "sales §2 leaves the schema documents' structure open; the flag is an annotation that validates nothing",
    ),
    '/**/deprecated': free(
      "sales §2 leaves the schema documents' structure open and §9 gives no deprecation policy; the flag validates " +
        'nothing',
    ),
    '/**': state(
      'the product schema: a valid JSON Schema the payloads satisfy, restricted per rights, whose bounds the service ' +
        'enforces (the SL-SCH and SL-PAY checks judge it whole)',
      'SL-SCH-001',
    ),
  },
  'webhooks.events.list 200': {
    '/*/eventType': state('the event types of webhooks §3 (the WH-EVT checks)', 'WH-EVT-001'),
    '/*/description': free('webhooks §3 lists the event types; their descriptions are prose'),
    '/*/examplePayload/**': free('webhooks §3: an example payload illustrates an event; its values are examples'),
  },
  'sales.customers.custom-view 200': {
    '/data/policyId': state('the policy of the customer asked for', '(not judged)'),
    '/data/policyNo': agreement('the number the policy view shows', '(not judged)'),
    '/data/installments/*/invoicenumber': agreement("the policy's invoices (PL-INV-006)", 'PL-INV-006'),
    '/data/installments/*/dueDate': agreement("the invoice's due date (PL-INV-006)", 'PL-INV-006'),
    '/data/installments/*/premium': agreement("the invoice's premium (PL-INV-006)", 'PL-INV-006'),
    '/data/installments/*/paid': agreement('the allocations on the invoice less the credits', '(not judged)'),
  },
  'webhooks.subscription.delete 200': {
    '/success': rule('true: the subscription is gone (WH-INV-002)', 'WH-INV-020'),
  },
  // a notification's body (the reference's: id, event, subscriptionId, occurredAt, data); the profile says where its
  // event type and data are
  'webhooks.notification sent': {
    '/event': agreement(
      'the event type of the subscription it went to, one the events list publishes (extensions.webhooks.eventPointer)',
      'WH-DLV-011',
    ),
    '/data/**': free(
      'webhooks §3 gives an example payload per event type, a structure (WH-DLV-011 judges the structure); §6 leaves ' +
        "payload bodies open, so the values are the event's",
    ),
    '/id': free(
      'webhooks §6: notification payload bodies are not shown; the profile names where the event type and the data ' +
        'are, nothing else of the body',
    ),
    '/subscriptionId': free(
      'webhooks §6: notification payload bodies are not shown; the profile names where the event type and the data ' +
        'are, nothing else of the body',
    ),
    '/occurredAt': free(
      'webhooks §6: notification payload bodies are not shown; the profile names where the event type and the data ' +
        'are, nothing else of the body',
    ),
  },
  // every error answer, whatever its operation (status 4xx; the table has no entry for a 5xx either)
  '* 4xx': {
    '/**': free(
      'sales §7 and webhooks §7: error bodies are not shown; the suite judges an error by its status (docs/sales.md: ' +
        'a wrong state is any 4xx)',
    ),
  },
}

/** An answer's pointer as the table spells it: array indexes become `*`. */
export function patternOf(pointer: string, arrays: ReadonlySet<string>): string {
  return pointer
    .split('/')
    .map((seg, i, all) => (i > 0 && /^\d+$/.test(seg) && arrays.has(all.slice(0, i).join('/')) ? '*' : seg))
    .join('/')
}

/** Segments of a pattern (`*` one segment, `**` any number) against those of a pointer pattern. */
function deepMatch(p: string[], path: string[]): boolean {
  if (p.length === 0) return path.length === 0
  const [head, ...rest] = p
  if (head === '**') return path.some((_, i) => deepMatch(rest, path.slice(i))) || deepMatch(rest, [])
  return path.length > 0 && (head === '*' || head === path[0]) && deepMatch(rest, path.slice(1))
}

/**
 * The source of one field of an answer (operation and status), if the table knows it: the exact path, else a pattern
 * with `**` before its last segment (any depth, then `title`), else the nearest `/**`.
 */
export function sourceOf(key: string, pattern: string): FieldSource | undefined {
  const memo = `${key}\u0000${pattern}`
  if (SOURCE_OF.has(memo)) return SOURCE_OF.get(memo)
  const found = lookUpSource(key, pattern)
  if (SOURCE_OF.size < 50_000) SOURCE_OF.set(memo, found)
  return found
}

/**
 * sourceOf's answers so far: the table is a constant, so the answer for an operation and pattern never changes (a run
 * asks for the same few hundred again and again). Bounded: a target's answers cannot make it grow without end.
 */
const SOURCE_OF = new Map<string, FieldSource | undefined>()

function lookUpSource(key: string, pattern: string): FieldSource | undefined {
  const table = ANSWER_SOURCES[key]
  if (!table) return undefined
  const exact = table[pattern]
  if (exact) return exact
  // a pattern with `**` before its last segment (`/**/title`): any depth, then its own segments
  const segs = pattern.split('/')
  for (const [p, s] of Object.entries(table)) if (/\/\*\*\//.test(p) && deepMatch(p.split('/'), segs)) return s
  let best: [number, FieldSource] | undefined
  for (const [p, s] of Object.entries(table)) {
    if (!p.endsWith('/**')) continue
    const base = p.slice(0, -3)
    if ((pattern === base || pattern.startsWith(`${base}/`)) && (!best || base.length > best[0]))
      best = [base.length, s]
  }
  return best?.[1]
}

/** The table as rows: operation and status, path, kind, what, the invariant. */
export function sourceRows(): { answer: string; path: string; source: FieldSource }[] {
  return Object.entries(ANSWER_SOURCES).flatMap(([answer, t]) =>
    Object.entries(t).map(([path, source]) => ({ answer, path, source })),
  )
}
