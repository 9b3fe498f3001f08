import type { DefectInfo } from './types'

const d = (description: string, clause: string): DefectInfo => ({ area: 'exercise', clause, description })

/**
 * Defects only a run that does what a client does shows (issue 40, the exercise model:
 * helpers/oracle/exercise-model.ts):
 * operations on a terminated policy, re-reads after a change, volume, identity, every caller. Each is caught by a check
 * of
 * suites/exercise/ (test/exercise/exercise-defects.proof.test.ts names which).
 */
export const EXERCISE_DEFECTS = {
  'exercise-mta-on-terminated-accepted': d(
    'An MTA of a terminated policy is accepted (a quote is made on it).',
    'sales-service.md §1, §4',
  ),
  'exercise-data-change-on-terminated-accepted': d(
    'A technical change of a terminated policy is accepted and applied.',
    'sales-service.md §1, §4',
  ),
  'exercise-renewal-stale-after-change': d(
    'The renewal data is prepared from the policy as issued: a technical change or an MTA since is missing from it.',
    'sales-service.md §1, §4',
  ),
  'exercise-links-fail-after-mta': d(
    'The policy view (links) answers 500 once an MTA changed the policy.',
    'sales-service.md §4',
  ),
  'exercise-refresh-not-jwt': d(
    'A refresh answers the refresh token where the access token goes: not a JWT.',
    'sales-service.md §5',
  ),
  'exercise-invoices-gone-after-termination': d(
    'The invoices of a terminated policy answer 404: its money can no longer be read.',
    'sales-service.md §4',
  ),
  'exercise-invoices-capped-at-ten': d(
    'The invoices of a policy are capped at 10 entries: a monthly policy shows 10 of its 12 installments.',
    'sales-service.md §4',
  ),
  'exercise-list-pages-overlap': d(
    'The subscription list pages overlap: each page after the first starts with the last entry of the page before, ' +
      'so one subscription is never listed.',
    'webhook-subscriptions.md §4',
  ),
  'exercise-login-any-tenant-path': d(
    "A login at another tenant's path with this tenant's credentials is accepted (the user is looked up in every " +
      'tenant).',
    'sales-service.md §5',
  ),
  'exercise-refresh-drops-rights': d(
    'A refreshed token carries no rights: the refreshed user can no longer read its full schema.',
    'sales-service.md §5',
  ),
  'exercise-refresh-revokes-old-token': d(
    'A refresh revokes the access token it replaces at once, although the profile says it stays valid until its exp.',
    'sales-service.md §5',
  ),
  'exercise-expired-accepted-on-payments': d(
    'The broker payment routes accept an expired token (their guard checks the signature, not exp).',
    'sales-service.md §5',
  ),
  'exercise-calculate-other-tenant': d(
    "A caller of another tenant can calculate this tenant's quote (the route looks the quote up in every tenant).",
    'sales-service.md §4, §5',
  ),
  'exercise-restricted-create-hidden-accepted': d(
    "A restricted user's create with a field its schema hides is accepted (create validates with the full schema; " +
      'update does not).',
    'sales-service.md §5',
  ),
  'exercise-payment-on-terminated-refused': d(
    'A payment allocated to an invoice of a terminated policy is refused (422), although the premium billed up to ' +
      'the termination is still owed.',
    'sales-service.md §1, §4',
  ),
  'exercise-payment-on-terminated-not-counted': d(
    "A payment allocated to an invoice of a terminated policy is answered 2xx but never booked: the policy's paid " +
      'and balance do not move.',
    'sales-service.md §1, §4',
  ),
  'exercise-fanout-one-per-url': d(
    'An event is notified once per url: of two subscriptions of that event type at one url, one is never notified.',
    'webhook-subscriptions.md §6',
  ),
  'exercise-fanout-subscribers-cached': d(
    "The subscribers of each event type are cached at a caller's first emission and rebuilt only when it creates a " +
      'subscription: one deleted since is still notified, one whose event type an update changed is notified of ' +
      'its old type only.',
    'webhook-subscriptions.md §6',
  ),
} as const satisfies Record<string, DefectInfo>
