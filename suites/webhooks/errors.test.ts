import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { invalidOnPurpose } from '../../helpers/client/http/running-check'
import { expectEqual, expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import { given } from '../../helpers/checks/setup'
import { RepresentedGroups } from '../../helpers/checks/group'
import type { CallOptions } from '../../helpers/client/http/client'
import { listed, useWebhooks } from '../../helpers/checks/webhooks/use-webhooks'
import { probesFor } from '../../helpers/checks/probes/requests'

const { t, settings, subs } = useWebhooks('err')
/**
 * A subscription id of the target's id type (a UUID by default, as the public document shows) that no target hands out
 * (helpers/checks/probes).
 */
const NEVER = probesFor(t).missing('webhooks')
const groups = new RepresentedGroups()
const UNKNOWN_ID = 'unknown-id-404'

/**
 * Sends a POST that must be refused and returns the new list entries that it may have created:
 * entries absent before the POST whose url is the one sent, or missing or empty (other clients'
 * subscriptions made meanwhile carry their own url and are ignored). A subscription this file made by another create
 * the target answered (the model knows it), or one of another event than the POST sent, is not this POST's, even when
 * an update emptied its url meanwhile.
 */
async function refusedCreate(
  label: string,
  request: Pick<CallOptions, 'json' | 'body' | 'headers'>,
  url: string | undefined,
) {
  const first = await t.webhooks.call({ op: 'webhooks.subscriptions.list' })
  expectStatus(first, 200)
  const before = new Set(listed(first).map((s) => s.id))
  const res = await invalidOnPurpose(`the body is invalid: ${label}`, () =>
    t.webhooks.call({ op: 'webhooks.subscription.create', ...request }),
  )
  const after = await t.webhooks.call({ op: 'webhooks.subscriptions.list' })
  expectStatus(after, 200)
  const own = (res.body as { id?: unknown } | undefined)?.id
  const othersOfRun = (id: unknown) => id !== own && t.model.webhooks.subscriptions.has(String(id))
  // what the POST would have made carries the event it sent (or none): another file's subscription of another event,
  // whose url an update emptied meanwhile, is not this POST's
  const sent = (request.json as { event?: unknown } | undefined)?.event
  const itsEvent = (e: unknown) => sent === undefined || e === undefined || e === null || e === sent
  const stray = listed(after).filter(
    (s) =>
      !before.has(s.id) &&
      !othersOfRun(s.id) &&
      itsEvent(s.event) &&
      (s.url === url || s.url === undefined || s.url === null || s.url === ''),
  )
  for (const s of stray) if (typeof s.id === 'string') subs.track(s.id)
  return { res, after, stray, label }
}

const POST_CASES: {
  id: string
  what: string
  request: Pick<CallOptions, 'json' | 'body' | 'headers'>
  url?: string
}[] = [
  { id: 'WH-ERR-001', what: 'a body without url', request: { json: { event: 'extracted' } } },
  {
    id: 'WH-ERR-002',
    what: 'a body without event',
    request: { json: { url: subs.url('no-event') } },
    url: subs.url('no-event'),
  },
  { id: 'WH-ERR-003', what: 'an empty JSON object', request: { json: {} } },
  {
    id: 'WH-ERR-004',
    what: 'an event type that is not one of the three',
    request: { json: { event: 'form.submitted', url: subs.url('bad-event') } },
    url: subs.url('bad-event'),
  },
  {
    id: 'WH-ERR-005',
    what: 'a body that is not JSON',
    request: { body: '{"event": "extracted", "url": ', headers: { 'content-type': 'application/json' } },
  },
]

describe('webhooks: errors (webhook-subscriptions.md §7)', () => {
  for (const c of POST_CASES) {
    check(
      {
        id: c.id,
        spec: 'webhooks',
        section: '§7',
        requirement: `POST /api/webhook/subscription with ${c.what} answers 400 and creates nothing.`,
      },
      async () => {
        const r = await refusedCreate(c.id, c.request, c.url)
        expectStatus(r.res, 400)
        expectThat(r.stray.length === 0, { expected: 'no new subscription in the list', actual: r.stray, res: r.after })
      },
    )
  }

  for (const [n, op, method] of [
    ['006', 'webhooks.subscription.get', 'GET'],
    ['007', 'webhooks.subscription.update', 'PUT'],
    ['008', 'webhooks.subscription.delete', 'DELETE'],
  ] as const) {
    // one requirement (§7: an unknown id is 404) over three operations: GET (006) represents it (docs/mutation.md)
    const probe = async () => {
      const res = await t.webhooks.call({
        op,
        params: { id: NEVER },
        ...(method === 'PUT' ? { json: { url: subs.url('never') } } : {}),
      })
      expectStatus(res, 404)
    }
    check(
      {
        id: `WH-ERR-${n}`,
        spec: 'webhooks',
        section: '§7',
        requirement: `${method} /api/webhook/subscription/{id} of an id that never existed answers 404.`,
      },
      () =>
        n === '006'
          ? groups.representative(UNKNOWN_ID, 'WH-ERR-006', probe)
          : groups.member(UNKNOWN_ID, 'a 404 for an id that never existed', probe),
    )
  }

  check(
    {
      id: 'WH-ERR-009',
      spec: 'webhooks',
      section: '§2',
      requirement:
        `PUT with an event type that is not one of the three is refused ` +
        `(${settings.invalidUpdateStatuses.join(' or ')}) and leaves the subscription unchanged.`,
    },
    async () => {
      const created = await given('a new subscription', async () => {
        const c = await subs.create('extracted', subs.url('put-invalid'))
        expectStatus(c.res, '2xx')
        expectThat(c.id !== undefined, {
          expected: 'an id in the created subscription',
          actual: c.res.body,
          res: c.res,
        })
        return { ...c, id: c.id! }
      })
      const id = created.id
      const res = await t.webhooks.call({
        op: 'webhooks.subscription.update',
        params: { id },
        json: { event: 'form.submitted' },
      })
      expectStatus(res, settings.invalidUpdateStatuses)
      const read = await t.webhooks.call({ op: 'webhooks.subscription.get', params: { id } })
      expectStatus(read, 200)
      const stored = expectJsonBody(read) as Record<string, unknown>
      expectEqual(
        { event: stored.event, url: stored.url },
        { event: 'extracted', url: created.url },
        'event and url of the stored subscription',
        read,
      )
    },
  )
})
