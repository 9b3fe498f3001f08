import type { DefectInfo } from './types'

const d = (clause: string, description: string): DefectInfo => ({
  area: 'sales',
  clause: `sales-service.md ${clause}`,
  description,
})

/**
 * Sales quote lifecycle: schemes, quotes, locks, referral, bind, issue, requests, documents (sales-service.md §3-§4).
 */
export const SALES_DEFECTS = {
  'sales-schema-invalid': d('§4', 'The product schema is not a valid JSON Schema (a "required" that is not an array).'),
  'sales-schema-restricted-full': d('§5', 'A user with restricted rights receives the full product schema.'),
  'sales-schema-unknown-200': d('§4', 'An unknown product answers 200 with an empty schema instead of 404.'),
  'sales-create-accepts-invalid': d('§4', 'Quote creation accepts a body that violates the product schema.'),
  'sales-update-ignored': d('§4', 'A quote update answers success but does not change the quote data.'),
  'sales-actions-never-unlock': d('§3', 'The actions endpoint never releases the lock after a change of quote data.'),
  'sales-calculate-random': d(
    '§4',
    'Calculate is not deterministic: the same data gives a different premium each time.',
  ),
  'sales-installments-sum-wrong': d('§4', 'The installments schedule does not sum to the premium.'),
  'sales-document-wrong-type': d('§4', 'A generated document is served with a wrong content type (text/plain).'),
  'sales-document-empty': d('§4', 'A generated document is served with an empty body.'),
  'sales-referral-no-lock': d('§3', 'Sending to referral does not lock the quote and does not change its state.'),
  'sales-declined-can-bind': d('§3', 'A declined quote can still be bound.'),
  'sales-issue-unbound': d('§3', 'An unbound quote can be issued.'),
  'sales-request-stuck-pending': d('§3', 'An issue request stays pending forever.'),
  'sales-request-always-fails': d('§3', 'Every issue request ends in failure.'),
  'sales-request-unknown-200': d('§4', 'An unknown request id answers 200 instead of 404.'),
  'sales-policy-dates-differ': d('§3', 'The issued policy has other dates than the quote it was issued from.'),
  'sales-tenant-leak': d('§5', 'A quote of one tenant can be read by a user of another tenant.'),
  'sales-validation-no-field': d('§4', 'A validation error (422) does not name the field that broke the schema.'),
  'sales-get-no-schema-path': d('§4', 'Get quote answers without meta.schemaPath.'),
  'sales-schema-2020-12-tuple-items': d(
    '§4',
    'The product schema declares JSON Schema 2020-12 but keeps the draft-07 tuple form of items (an array), which is ' +
      'not valid 2020-12 (prefixItems replaced it).',
  ),
  'sales-schema-unsatisfiable': d(
    '§4',
    'The product schema cannot be satisfied (a required field with minLength above maxLength).',
  ),
  'sales-schema-looser-max-items': d(
    '§4',
    'The product schema publishes each insured-object list with a maxItems one above the bound the service enforces ' +
      'on create.',
  ),
  'sales-schema-looser-bounds': d(
    '§4',
    'The product schema publishes every maximum and maxLength one above, and every minimum and minLength one below, ' +
      'the bounds the service enforces on create.',
  ),
  'sales-schema-stricter-bounds': d(
    '§4',
    'The product schema publishes every minimum and minLength one above the bounds the service enforces on ' +
      'create (it accepts values its schema refuses; its maximum and maxLength are the enforced ones).',
  ),
  'sales-schema-repeats-allowed': d(
    '§4',
    'The product schema publishes its lists of values (the coverages) without uniqueItems, while the service refuses ' +
      'a repeated item.',
  ),
  'sales-schema-open-items': d(
    '§4',
    "The product schema publishes the insured objects' items with additionalProperties: true, while the service " +
      'refuses a key they do not list.',
  ),
  'sales-actions-bad-shape': d(
    '§4',
    'The actions of an unlocked quote come as an object instead of a list of action names.',
  ),
  'sales-actions-ignore-state': d(
    '§3',
    'The actions list ignores the quote state (always the list of a calculated quote).',
  ),
  'sales-error-not-json': d('§7', 'An unknown quote is answered with a plain-text error body.'),
  'sales-unknown-quote-500': d('§4', 'Write operations on an unknown quote id answer 500 instead of a 4xx.'),
  'sales-document-unknown-200': d('§4', 'An unknown document id is answered 200 with an empty document.'),
  'sales-referral-unsupported': d('§4', 'Sending a quote to referral answers 501.'),
  'sales-referred-accepts-update': d(
    '§3',
    'A referred quote accepts updates although the actions list does not offer them.',
  ),
  'sales-declined-can-issue': d('§3', 'A declined quote can still be issued.'),
  'sales-declined-accepts-update': d('§3', 'A declined quote accepts updates.'),
  'sales-premium-zero': d('§4', 'The financials give a premium of 0.'),
  'sales-issue-200': d('§4', 'Issue answers 200 instead of 202 Accepted.'),
  'sales-issue-failure-ignored': d('§3', 'A quote that must not be issued (the failure trigger) is issued anyway.'),
  'sales-request-status-bad-shape': d('§3', 'The request status comes as {id, state} instead of {requestId, status}.'),
  // operation x state, state over time, scoping per resource, data read back (issue 14): each caught by an invariant
  // of the model (SL-INV-*) or the operation x state table (SL-OPS-*)
  'sales-issued-reissue': d('§3', 'An issued quote can be issued again (202 and a second request).'),
  'sales-declined-can-calculate': d('§3', 'A declined quote can still be calculated.'),
  'sales-referred-can-calculate': d(
    '§3',
    'A referred quote can be calculated although its actions list does not offer it.',
  ),
  'sales-referred-can-referral': d('§3', 'A referred quote can be sent to referral again.'),
  'sales-bound-accepts-update': d('§3', 'A bound quote accepts an update of its data.'),
  'sales-issued-can-decline': d('§3', 'An issued quote can be declined.'),
  'sales-draft-can-bind': d('§3', 'A quote that was never calculated (draft) can be bound.'),
  'sales-actions-empty-while-locked': d(
    '§3 rule 4',
    "The first read of a quote's actions after each change is answered 200 with an empty list, as if the quote were " +
      'still locked, instead of 204 (or 423 with long polling): a caller takes "nothing offered" for "done" ' +
      '(SL-INV-010).',
  ),
  'sales-bound-actions-unchanged': d(
    '§3 rule 4',
    'The actions list of a bound quote is still that of a calculated quote (bind offered again).',
  ),
  'sales-declined-actions-unchanged': d(
    '§3 rule 4',
    'The actions list of a declined quote is still that of a calculated quote.',
  ),
  'sales-update-resets-unnamed': d(
    '§4',
    'A partial update that does not name policy.salesChannel resets it to broker, the first value (invisible when it ' +
      'already held it).',
  ),
  'sales-refused-update-applied': d(
    '§3',
    'An update refused because of the quote state (409) is applied to the quote data all the same.',
  ),
  'sales-get-numbers-as-strings': d(
    '§4',
    'Get quote answers the numbers of the insured objects as strings, which the product schema forbids.',
  ),
  'sales-request-status-regresses': d('§3', 'A request that reported success answers pending again on the next reads.'),
  'sales-request-other-tenant': d(
    '§5',
    'The status of an asynchronous request is served to a caller of another tenant.',
  ),
  'sales-document-other-tenant': d('§5', 'A document is downloadable by a caller of another tenant.'),
  'sales-document-first-of-tenant': d(
    '§4',
    "A document download answers the content of the tenant's first generated document, whatever the id.",
  ),
  'sales-update-other-tenant': d(
    '§5',
    'A caller of another tenant can update a quote (reads are scoped, updates are not).',
  ),
  // one cell of the operation x state table each (suites/sales/state-table.test.ts): an operation the quote's actions
  // list offers is refused in that state, or one it does not offer is carried out; the cells no older defect shows
  // failing
  'sales-draft-update-refused': d('§3', 'A draft quote offers update but refuses it (409).'),
  'sales-draft-calculate-refused': d('§3', 'A draft quote offers calculate but refuses it (409).'),
  'sales-draft-decline-refused': d('§3', 'A draft quote offers decline but refuses it (409).'),
  'sales-calculated-update-refused': d('§3', 'A calculated quote offers update but refuses it (409).'),
  'sales-calculated-calculate-refused': d('§3', 'A calculated quote offers calculate (again) but refuses it (409).'),
  'sales-calculated-decline-refused': d('§3', 'A calculated quote offers decline but refuses it (409).'),
  'sales-calculated-bind-refused': d('§3', 'A calculated quote offers bind but refuses it (409).'),
  'sales-calculated-documents-refused': d(
    '§3',
    'A calculated quote offers documents but refuses to generate them (409).',
  ),
  'sales-referred-decline-refused': d('§3', 'A referred quote offers decline but refuses it (409).'),
  'sales-referred-bind-refused': d('§3', 'A referred quote offers bind but refuses it (409).'),
  'sales-referred-documents-refused': d('§3', 'A referred quote offers documents but refuses to generate them (409).'),
  'sales-bound-decline-refused': d('§3', 'A bound quote offers decline but refuses it (409).'),
  'sales-bound-documents-refused': d('§3', 'A bound quote offers documents but refuses to generate them (409).'),
  'sales-issued-documents-refused': d('§3', 'An issued quote offers documents but refuses to generate them (409).'),
  'sales-draft-accepts-issue': d(
    '§3',
    'A draft quote (never calculated or bound) can be issued, although its actions list does not offer issue.',
  ),
  'sales-referred-accepts-issue': d(
    '§3',
    'A referred quote can be issued without being bound, although its actions list does not offer issue.',
  ),
  'sales-declined-accepts-decline': d(
    '§3',
    'A declined quote can be declined again, although its actions list offers nothing.',
  ),
  'sales-bound-accepts-bind': d(
    '§3',
    'A bound quote can be bound again, although its actions list does not offer bind.',
  ),
  'sales-issued-accepts-bind': d(
    '§3',
    'An issued quote can be bound again, although its actions list does not offer bind.',
  ),
  'sales-declined-accepts-documents': d(
    '§3',
    'A declined quote still generates documents, although its actions list offers nothing.',
  ),
  'sales-bound-accepts-calculate': d(
    '§3',
    'A bound quote can be calculated again, although its actions list does not offer calculate.',
  ),
  'sales-issued-accepts-calculate': d(
    '§3',
    'An issued quote can be calculated again, although its actions list does not offer calculate.',
  ),
  // real-world data read back (issue 29): each caught by SL-INV-009 on the generated payloads' real-world values
  'sales-text-mojibake': d(
    '§4',
    'Quote text is stored as its UTF-8 bytes read as Latin-1: non-ASCII text comes back as mojibake (Ã¼ for ü).',
  ),
  'sales-text-nfd': d(
    '§4',
    'Quote text is stored decomposed (Unicode NFD): accented letters come back as other bytes than sent.',
  ),
  'sales-emoji-stripped': d(
    '§4',
    'Characters outside the Basic Multilingual Plane (emoji) are dropped from quote text (a 3-byte UTF-8 column).',
  ),
  'sales-long-text-truncated': d(
    '§4',
    'Quote text is cut at 100 characters although the schema allows more (a narrower column).',
  ),
  'sales-cents-truncated': d('§4', 'Decimal numbers of quote data lose their cents (stored as whole units).'),
  'sales-amounts-float32': d(
    '§4',
    'Decimal numbers of quote data are stored as 32-bit floats and come back as 41.220001220703125 for 41.22.',
  ),
  'sales-leap-day-rolled': d('§4', 'A date on 29 February is stored as 1 March (a date library rolling the day over).'),
  // the quote's views and the policy it becomes (issue 29): caught by PL-INV-003/004 or the views flow (PL-VIEW-001)
  'sales-calculation-stale': d(
    '§4',
    "The calculation endpoint keeps answering the quote's first calculation after the quote was changed and " +
      'calculated again.',
  ),
  'sales-schedule-stale': d(
    '§4',
    "The installments schedule keeps answering the quote's first schedule after the quote was changed and calculated " +
      'again.',
  ),
  'sales-calculation-gone-after-recalculation': d(
    '§4',
    'After a change of a calculated quote and a new calculation, the calculation endpoint answers 409 (not ' +
      'calculated).',
  ),
  'sales-issue-uses-created-data': d(
    '§3',
    "The policy is issued with the quote's data as created, without the updates made since.",
  ),
  'sales-request-policy-number-wrong': d(
    '§3',
    "The success of the issue request names another policy number than the policy's own.",
  ),
  // issue 29, third round: the quote's views after a recalculation (PL-INV-004), the actions list (SL-INV-010)
  'sales-calculation-installments-stale': d(
    '§4',
    "After a change and a new calculation, the calculation shows the new premium with the first calculation's " +
      'installments (they no longer sum to it).',
  ),
  'sales-schedule-last-cent-dropped': d(
    '§4',
    "The installments schedule shows the last installment one cent below the calculation's (the rounding rest " +
      'dropped).',
  ),
  'sales-actions-flicker-after-calculate': d(
    '§3',
    'A calculated quote answers its actions list without bind on every read after the first since the calculation, ' +
      'with no change in between (a replica lagging behind).',
  ),
  // a restricted user's write of a field its schema hides (issue 29): SL-SCH-004, SL-INV-002
  'sales-restricted-write-hidden-applied': d(
    '§5',
    "A quote update is validated against the full schema whatever the caller's rights: a restricted user's write of " +
      'a hidden field is accepted and applied.',
  ),
  'sales-restricted-refused-write-applied': d(
    '§5',
    "A restricted user's write of a hidden field is refused (422) but stored all the same (SL-INV-002).",
  ),
} as const satisfies Record<string, DefectInfo>
