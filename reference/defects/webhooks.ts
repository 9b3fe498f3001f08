import type { DefectInfo } from './types'

const D = 'webhook-subscriptions.md'

/**
 * Webhook subscriptions (webhook-subscriptions.md). Each one is caught by a WH-* check
 * (test/webhooks/defects.proof.test.ts).
 */
export const WEBHOOKS_DEFECTS = {
  'webhooks-create-200': {
    area: 'webhooks',
    clause: `${D} §4`,
    description: 'POST /api/webhook/subscription answers 200 instead of 201.',
  },
  'webhooks-updated-at-missing': {
    area: 'webhooks',
    clause: `${D} §2`,
    description: 'Subscriptions are served without updatedAt.',
  },
  'webhooks-created-at-not-date-time': {
    area: 'webhooks',
    clause: `${D} §2`,
    description: 'createdAt is sent as epoch milliseconds (a number), not a date-time string.',
  },
  'webhooks-unknown-id-500': {
    area: 'webhooks',
    clause: `${D} §7`,
    description: 'GET, PUT and DELETE of an unknown subscription id answer 500 instead of 404.',
  },
  'webhooks-delete-success-false': {
    area: 'webhooks',
    clause: `${D} §4`,
    description: 'DELETE deletes but answers {"success": false}.',
  },
  'webhooks-delete-keeps': {
    area: 'webhooks',
    clause: `${D} §4`,
    description: 'DELETE answers {"success": true} but the subscription stays.',
  },
  'webhooks-unknown-event-accepted': {
    area: 'webhooks',
    clause: `${D} §7`,
    description: 'POST with an event type that is not one of the three is accepted (201) instead of 400.',
  },
  'webhooks-missing-url-accepted': {
    area: 'webhooks',
    clause: `${D} §7`,
    description: 'POST without url creates a subscription instead of answering 400.',
  },
  'webhooks-invalid-json-500': {
    area: 'webhooks',
    clause: `${D} §7`,
    description: 'A POST body that is not JSON answers 500 instead of 400.',
  },
  'webhooks-put-invalid-event-applied': {
    area: 'webhooks',
    clause: `${D} §2`,
    description: 'PUT with an unknown event type answers 200 and stores it.',
  },
  'webhooks-put-url-only-refused': {
    area: 'webhooks',
    clause: `${D} §2`,
    description: 'A PUT naming only the url is refused with 400 (as if the event were required).',
  },
  'webhooks-put-event-only-refused': {
    area: 'webhooks',
    clause: `${D} §2`,
    description: 'A PUT naming only the event is refused with 400 (as if the url were required).',
  },
  'webhooks-put-wipes-url': {
    area: 'webhooks',
    clause: `${D} §2`,
    description: 'A partial PUT with only event replaces the whole subscription and wipes url.',
  },
  'webhooks-created-at-changes': { area: 'webhooks', clause: `${D} §2`, description: 'PUT rewrites createdAt.' },
  'webhooks-list-not-scoped': {
    area: 'webhooks',
    clause: `${D} §5`,
    description: "GET /api/webhook/subscriptions lists every caller's subscriptions.",
  },
  'webhooks-get-not-scoped': {
    area: 'webhooks',
    clause: `${D} §5`,
    description: "GET /api/webhook/subscription/{id} serves another caller's subscription.",
  },
  'webhooks-events-missing-type': {
    area: 'webhooks',
    clause: `${D} §6`,
    description: 'GET /api/webhook/events omits validation-success.',
  },
  'webhooks-example-payload-not-object': {
    area: 'webhooks',
    clause: `${D} §2`,
    description: 'examplePayload of each event type is a JSON string, not an object.',
  },
  'webhooks-event-description-empty': {
    area: 'webhooks',
    clause: `${D} §6`,
    description: 'Event types are listed with an empty description.',
  },
  'webhooks-signature-wrong-secret': {
    area: 'webhooks',
    clause: `${D} §6`,
    description: 'Notifications are signed with a key other than the subscription secret.',
  },
  'webhooks-signature-missing': {
    area: 'webhooks',
    clause: `${D} §6`,
    description: 'Notifications carry no signature header.',
  },
  'webhooks-stale-timestamp': {
    area: 'webhooks',
    clause: `${D} §6`,
    description: 'Notifications carry a timestamp an hour old (correctly signed).',
  },
  'webhooks-notification-twice': {
    area: 'webhooks',
    clause: `${D} §6`,
    description: 'Each notification is delivered twice, as two separate deliveries.',
  },
  'webhooks-delivered-after-delete': {
    area: 'webhooks',
    clause: `${D} §6`,
    description: 'Deleted subscriptions keep receiving notifications.',
  },
  'webhooks-wrong-event-delivered': {
    area: 'webhooks',
    clause: `${D} §6`,
    description: 'Every subscription receives every event, whatever its event type.',
  },
  'webhooks-id-reused': {
    area: 'webhooks',
    clause: `${D} §2`,
    description: "A caller's second subscription gets the id of the first (and replaces it).",
  },
  'webhooks-missing-event-defaulted': {
    area: 'webhooks',
    clause: `${D} §7`,
    description: 'POST without event creates a subscription for extracted instead of answering 400.',
  },
  'webhooks-empty-object-accepted': {
    area: 'webhooks',
    clause: `${D} §7`,
    description: 'POST with {} creates an empty subscription instead of answering 400.',
  },
  'webhooks-delete-result-string': {
    area: 'webhooks',
    clause: `${D} §2`,
    description: 'DELETE answers {"success": "true"}: a string, not a boolean.',
  },
  'webhooks-secret-missing': {
    area: 'webhooks',
    clause: `${D} §2`,
    description: 'Subscriptions are served without secret.',
  },
  'webhooks-read-touches-updated-at': {
    area: 'webhooks',
    clause: `${D} §4`,
    description: 'GET of a subscription sets its updatedAt to the time of the read.',
  },
  'webhooks-list-omits-extracted': {
    area: 'webhooks',
    clause: `${D} §4`,
    description: 'The list filters on a stale default: subscriptions to extracted are left out.',
  },
  'webhooks-list-shows-deleted': {
    area: 'webhooks',
    clause: `${D} §4`,
    description: 'Deleted subscriptions stay in the list (soft delete not filtered).',
  },
  'webhooks-no-delivery': {
    area: 'webhooks',
    clause: `${D} §6`,
    description: 'Events are accepted but no notification is ever sent.',
  },
  'webhooks-notifications-follow-old-url': {
    area: 'webhooks',
    clause: `${D} §6`,
    description: 'After a PUT changes the url, notifications still go to the url the subscription was created with.',
  },
  'webhooks-notifications-to-old-and-new-url': {
    area: 'webhooks',
    clause: `${D} §6`,
    description:
      'After a PUT changes the url, each notification goes to the new url and to the url the subscription was ' +
      'created with.',
  },
  'webhooks-notifications-follow-old-event': {
    area: 'webhooks',
    clause: `${D} §6`,
    description:
      'After a PUT changes the event type, the subscription is still notified of the type it was created with, not ' +
      'the new one.',
  },
  'webhooks-duplicate-late': {
    area: 'webhooks',
    clause: `${D} §6`,
    description:
      'Every notification is delivered again (same delivery id) 2 s after the first, although the first was answered ' +
      '204.',
  },
  'webhooks-delivered-after-delete-late': {
    area: 'webhooks',
    clause: `${D} §6`,
    description:
      'For a minute after a delete, events of its type still reach the deleted subscription, 1.5 s late (a stale ' +
      'replica of the subscriptions).',
  },
  // state over time and scoping per resource (issue 14): each caught by an invariant of the model (WH-INV-*)
  'webhooks-list-stale-after-update': {
    area: 'webhooks',
    clause: `${D} §4`,
    description:
      'The subscription list shows each subscription as it was created: updates never reach the list (WH-INV-001).',
  },
  'webhooks-updated-at-frozen': {
    area: 'webhooks',
    clause: `${D} §2`,
    description: 'A successful PUT leaves updatedAt at its creation value (WH-INV-004).',
  },
  'webhooks-refused-update-touches-updated-at': {
    area: 'webhooks',
    clause: `${D} §2`,
    description: 'A PUT refused with 400 still moves updatedAt to now (WH-INV-004).',
  },
  'webhooks-put-resets-event': {
    area: 'webhooks',
    clause: `${D} §2`,
    description:
      'A PUT that names only url resets event to extracted, the first event type (WH-INV-005; invisible when the ' +
      'event already was extracted).',
  },
  'webhooks-list-created-at-is-updated-at': {
    area: 'webhooks',
    clause: `${D} §2`,
    description:
      'The list shows updatedAt as createdAt, so createdAt moves with every update in the list (WH-INV-001).',
  },
  'webhooks-deleted-still-readable': {
    area: 'webhooks',
    clause: `${D} §4`,
    description:
      'A deleted subscription leaves the list but GET /subscription/{id} still answers it with 200 (WH-INV-002).',
  },
  'webhooks-put-other-tenant': {
    area: 'webhooks',
    clause: `${D} §5`,
    description:
      "A PUT on another tenant's subscription is applied and answered 200 (reads are scoped, writes are not; " +
      'WH-INV-006).',
  },
  'webhooks-delete-other-tenant': {
    area: 'webhooks',
    clause: `${D} §5`,
    description: "A DELETE of another tenant's subscription deletes it and answers 200 (WH-INV-006).",
  },
  'webhooks-get-stale-after-update': {
    area: 'webhooks',
    clause: `${D} §2`,
    description:
      'GET /subscription/{id} answers the event as created: the PUT answer shows the new event but reads do not ' +
      '(WH-INV-005).',
  },
  'webhooks-deleted-revived-by-put': {
    area: 'webhooks',
    clause: `${D} §4`,
    description: 'A PUT on a deleted subscription id answers 200 and brings it back (WH-INV-002).',
  },
} as const satisfies Record<string, DefectInfo>
