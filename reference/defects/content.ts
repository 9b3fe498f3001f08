import type { DefectInfo } from './types'

const sales = (clause: string, description: string): DefectInfo => ({
  area: 'sales',
  clause: `sales-service.md ${clause}`,
  description,
})
const webhooks = (clause: string, description: string): DefectInfo => ({
  area: 'webhooks',
  clause: `webhook-subscriptions.md ${clause}`,
  description,
})

/**
 * What is inside: documents as files, notifications against their published examples, lists against their items (issue
 * 42).
 */
export const CONTENT_DEFECTS = {
  'sales-document-truncated': sales(
    '§4',
    'A generated document is a PDF cut short: it starts %PDF- but its file trailer (startxref, %%EOF) is missing, so ' +
      'it does not open.',
  ),
  'sales-document-of-other-quote': sales(
    '§4',
    "A quote's generated document is made from the quote that had a document before it (the tenant's first, from a " +
      'neighbour number): its text names the other quote.',
  ),
  'webhooks-notification-key-renamed': webhooks(
    '§2, §6',
    "A notification's data renames a key of its event type's examplePayload (documentId becomes document_id).",
  ),
  'webhooks-notification-number-as-string': webhooks(
    '§2, §6',
    'A notification\'s data sends the numbers of its event type\'s examplePayload as strings ("500" for 500).',
  ),
  'webhooks-notification-nesting-flattened': webhooks(
    '§2, §6',
    "A notification's data flattens a nested object of its event type's examplePayload into dotted keys " +
      '(fields.policyNo at the top level instead of fields: {policyNo}).',
  ),
  'webhooks-list-secret-differs': webhooks(
    '§4',
    "The subscription list shows another secret than the subscription's own read (a key of the same length, other " +
      'digits).',
  ),
} as const satisfies Record<string, DefectInfo>
