import type { DefectInfo } from './types'

const D = 'webhook-subscriptions.md'

/** Webhook subscriptions (webhook-subscriptions.md). Each one is caught by a WH-* check (test/webhooks/defects.proof.test.ts). */
export const WEBHOOKS_DEFECTS = {
  'webhooks-create-200': { area: 'webhooks', clause: `${D} §4`, description: 'POST /api/webhook/subscription answers 200 instead of 201.' },
  'webhooks-updated-at-missing': { area: 'webhooks', clause: `${D} §2`, description: 'Subscriptions are served without updatedAt.' },
  'webhooks-created-at-not-date-time': { area: 'webhooks', clause: `${D} §2`, description: 'createdAt is sent as epoch milliseconds (a number), not a date-time string.' },
  'webhooks-unknown-id-500': { area: 'webhooks', clause: `${D} §7`, description: 'GET, PUT and DELETE of an unknown subscription id answer 500 instead of 404.' },
  'webhooks-delete-success-false': { area: 'webhooks', clause: `${D} §4`, description: 'DELETE deletes but answers {"success": false}.' },
  'webhooks-delete-keeps': { area: 'webhooks', clause: `${D} §4`, description: 'DELETE answers {"success": true} but the subscription stays.' },
  'webhooks-unknown-event-accepted': { area: 'webhooks', clause: `${D} §7`, description: 'POST with an event type that is not one of the three is accepted (201) instead of 400.' },
  'webhooks-missing-url-accepted': { area: 'webhooks', clause: `${D} §7`, description: 'POST without url creates a subscription instead of answering 400.' },
  'webhooks-invalid-json-500': { area: 'webhooks', clause: `${D} §7`, description: 'A POST body that is not JSON answers 500 instead of 400.' },
  'webhooks-put-invalid-event-applied': { area: 'webhooks', clause: `${D} §2`, description: 'PUT with an unknown event type answers 200 and stores it.' },
  'webhooks-put-wipes-url': { area: 'webhooks', clause: `${D} §2`, description: 'A partial PUT with only event replaces the whole subscription and wipes url.' },
  'webhooks-created-at-changes': { area: 'webhooks', clause: `${D} §2`, description: 'PUT rewrites createdAt.' },
  'webhooks-list-not-scoped': { area: 'webhooks', clause: `${D} §5`, description: "GET /api/webhook/subscriptions lists every caller's subscriptions." },
  'webhooks-get-not-scoped': { area: 'webhooks', clause: `${D} §5`, description: "GET /api/webhook/subscription/{id} serves another caller's subscription." },
  'webhooks-events-missing-type': { area: 'webhooks', clause: `${D} §6`, description: 'GET /api/webhook/events omits validation-success.' },
  'webhooks-example-payload-not-object': { area: 'webhooks', clause: `${D} §2`, description: 'examplePayload of each event type is a JSON string, not an object.' },
  'webhooks-event-description-empty': { area: 'webhooks', clause: `${D} §6`, description: 'Event types are listed with an empty description.' },
  'webhooks-signature-wrong-secret': { area: 'webhooks', clause: `${D} §6`, description: 'Notifications are signed with a key other than the subscription secret.' },
  'webhooks-signature-missing': { area: 'webhooks', clause: `${D} §6`, description: 'Notifications carry no signature header.' },
  'webhooks-stale-timestamp': { area: 'webhooks', clause: `${D} §6`, description: 'Notifications carry a timestamp an hour old (correctly signed).' },
  'webhooks-notification-twice': { area: 'webhooks', clause: `${D} §6`, description: 'Each notification is delivered twice, as two separate deliveries.' },
  'webhooks-delivered-after-delete': { area: 'webhooks', clause: `${D} §6`, description: 'Deleted subscriptions keep receiving notifications.' },
  'webhooks-wrong-event-delivered': { area: 'webhooks', clause: `${D} §6`, description: 'Every subscription receives every event, whatever its event type.' },
  'webhooks-id-reused': { area: 'webhooks', clause: `${D} §2`, description: "A caller's second subscription gets the id of the first (and replaces it)." },
  'webhooks-missing-event-defaulted': { area: 'webhooks', clause: `${D} §7`, description: 'POST without event creates a subscription for extracted instead of answering 400.' },
  'webhooks-empty-object-accepted': { area: 'webhooks', clause: `${D} §7`, description: 'POST with {} creates an empty subscription instead of answering 400.' },
  'webhooks-delete-result-string': { area: 'webhooks', clause: `${D} §2`, description: 'DELETE answers {"success": "true"}: a string, not a boolean.' },
  'webhooks-secret-missing': { area: 'webhooks', clause: `${D} §2`, description: 'Subscriptions are served without secret.' },
  'webhooks-read-touches-updated-at': { area: 'webhooks', clause: `${D} §4`, description: 'GET of a subscription sets its updatedAt to the time of the read.' },
  'webhooks-list-omits-extracted': { area: 'webhooks', clause: `${D} §4`, description: 'The list filters on a stale default: subscriptions to extracted are left out.' },
  'webhooks-list-shows-deleted': { area: 'webhooks', clause: `${D} §4`, description: 'Deleted subscriptions stay in the list (soft delete not filtered).' },
  'webhooks-no-delivery': { area: 'webhooks', clause: `${D} §6`, description: 'Events are accepted but no notification is ever sent.' },
} as const satisfies Record<string, DefectInfo>
