import type { DefectInfo } from './types'

const d = (clause: string, description: string): DefectInfo => ({ area: 'sales', clause: `sales-service.md ${clause}`, description })

/** Sales quote lifecycle: schemes, quotes, locks, referral, bind, issue, requests, documents (sales-service.md §3-§4). */
export const SALES_DEFECTS = {
  'sales-schema-invalid': d('§4', 'The product schema is not a valid JSON Schema (a "required" that is not an array).'),
  'sales-schema-restricted-full': d('§5', 'A user with restricted rights receives the full product schema.'),
  'sales-schema-unknown-200': d('§4', 'An unknown product answers 200 with an empty schema instead of 404.'),
  'sales-create-accepts-invalid': d('§4', 'Quote creation accepts a body that violates the product schema.'),
  'sales-update-ignored': d('§4', 'A quote update answers success but does not change the quote data.'),
  'sales-actions-never-unlock': d('§3', 'The actions endpoint never releases the lock after a change of quote data.'),
  'sales-calculate-random': d('§4', 'Calculate is not deterministic: the same data gives a different premium each time.'),
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
} as const satisfies Record<string, DefectInfo>
