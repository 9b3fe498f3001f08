import { afterAll, describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { given } from '../../helpers/checks/setup'
import { notifiedEvent } from '../../helpers/checks/webhooks/expected-notifications'
import { WebhookReceiver, type ReceivedNotification } from '../../helpers/checks/webhooks/receiver'
import { secretKey } from '../../helpers/checks/webhooks/secret'
import { verifySignature } from '../../helpers/checks/webhooks/signature'
import { useWebhooks } from '../../helpers/checks/webhooks/use-webhooks'
import { pollUntil } from '../../helpers/client/polling/poll-until'

/**
 * Several subscriptions while events are emitted (issue 40, the exercise model's fan-out cells: docs/exercise.md):
 * three subscriptions of one event type, two more of it at one url, and, while an event is emitted, one subscription's
 * event type changed by an update and another deleted; then a second event. What each subscription receives is held to
 * webhook-subscriptions.md §6: each live one notified once per event of its type, a deleted one of no later event, an
 * updated one of the later events of its new type only.
 */
const { t, settings, subs } = useWebhooks('fan')
const d = settings.delivery
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])
/**
 * The caller: a second user, whose subscriptions no other check's events reach (an event goes to every subscription of
 * the caller that emits it, and the delivery suite emits as the primary user). The volume check's small lists use the
 * restricted user first, this the other tenant's first, so neither sees the other's subscriptions.
 */
const caller = t.user('otherTenant') ?? t.user('restricted')
const state: { receiver?: WebhookReceiver; made: Set<string> } = { made: new Set() }
afterAll(async () => {
  for (const id of state.made)
    await t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id }, as: caller! }).catch(() => undefined)
  await state.receiver?.close()
})

/** Why delivery cannot be watched on this target (as the delivery suite says it), or undefined when it can. */
function notApplicableReason(): string | undefined {
  if (!d.trigger)
    return 'the profile names no way to make the target emit an event (extensions.webhooks.delivery.trigger)'
  if (!caller)
    return (
      'the profile names no second user (users.otherTenant or users.restricted) whose subscriptions no other ' +
      'check notifies'
    )
  const host = new URL(t.config.services.webhookBaseUrl).hostname
  if (!LOOPBACK.has(host) && !d.receiver.publicUrl)
    return (
      'the target is not on this machine and the profile gives no public URL for the local receiver ' +
      '(extensions.webhooks.delivery.receiver.publicUrl)'
    )
  return undefined
}

/** The trigger body with "{event}" filled in every string. */
function fill(value: unknown, event: string): unknown {
  if (typeof value === 'string') return value.split('{event}').join(event)
  if (Array.isArray(value)) return value.map((v) => fill(v, event))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, event)]))
  return value
}

async function emit(event: string): Promise<void> {
  const trigger = d.trigger!
  expectStatus(
    await t.webhooks.call({
      method: trigger.method,
      path: trigger.path,
      json: fill(trigger.body ?? { event: '{event}' }, event),
      as: caller!,
    }),
    '2xx',
    { owner: 'WH-DLV-001' },
  )
}

interface Sub {
  id: string
  key: string
  endpoint: string
}

/**
 * A subscription of an event type notified at a receiver endpoint; `trusted`: the endpoint is its alone (its key
 * verifies at receipt).
 */
async function subscribe(event: string, endpoint: string, trusted: boolean): Promise<Sub> {
  const res = await t.webhooks.call({
    op: 'webhooks.subscription.create',
    json: { event, url: state.receiver!.url(endpoint) },
    as: caller!,
  })
  expectStatus(res, '2xx', { owner: 'WH-LIFE-001' })
  const raw = (res.body as { id?: unknown } | undefined)?.id
  const id = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : undefined
  if (id !== undefined) state.made.add(id)
  const key = secretKey((res.body as { secret?: unknown })?.secret, settings.signature.secretKeyPointer)
  expectThat(id !== undefined && key !== undefined, {
    expected: `an id and a secret key (at ${settings.signature.secretKeyPointer})`,
    actual: res.body,
    res,
  })
  if (trusted) state.receiver!.trust(endpoint, key!)
  return { id: id!, key: key!, endpoint }
}

const eventsAt = (list: ReceivedNotification[]) =>
  list.map((n) => notifiedEvent(n, settings.eventPointer) ?? 'no event type')
const count = (list: ReceivedNotification[], event: string) => eventsAt(list).filter((e) => e === event).length

describe('webhooks: several subscriptions while events are emitted (issue 40; webhook-subscriptions.md §6)', () => {
  check(
    {
      id: 'EX-FAN-001',
      spec: 'webhooks',
      section: '§6',
      requirement:
        'With three subscriptions of one event type, two more of it at one url, and one subscription updated to ' +
        'another event type and one deleted while an event is emitted: each live subscription is notified once ' +
        'per event of its type (the two at one url: two notifications, each signed with its own secret), the ' +
        'deleted one of no later event, the updated one of the later events of its new type only.',
    },
    async (c) => {
      const reason = notApplicableReason()
      if (reason) return c.notApplicable(reason)
      const s = await given(
        'a receiver and eight subscriptions: three of export, two of export at one url, one of extracted, one of ' +
          'export to retype, one of extracted to delete',
        async () => {
          state.receiver = await WebhookReceiver.start({ ...d.receiver, signature: settings.signature })
          const shared = subs.label('shared')
          const [a1, a2, a3, u1, u2, x1, p1, d1] = await Promise.all([
            subscribe('export', subs.label('a1'), true),
            subscribe('export', subs.label('a2'), true),
            subscribe('export', subs.label('a3'), true),
            subscribe('export', shared, false),
            subscribe('export', shared, false),
            subscribe('extracted', subs.label('x1'), true),
            subscribe('export', subs.label('p1'), true),
            subscribe('extracted', subs.label('d1'), true),
          ])
          return { a: [a1!, a2!, a3!], u: [u1!, u2!], shared, x1: x1!, p1: p1!, d1: d1! }
        },
      )
      // an event none of them is for: the target looks up its subscribers before the writes below
      await emit('validation-success')
      // an event of export while p1 is retyped to extracted and d1 deleted: the three writes in flight together
      await Promise.all([
        emit('export'),
        given('subscription p1 retyped to extracted', async () =>
          expectStatus(
            await t.webhooks.call({
              op: 'webhooks.subscription.update',
              params: { id: s.p1.id },
              json: { event: 'extracted' },
              as: caller!,
            }),
            200,
            { owner: 'WH-LIFE-005' },
          ),
        ),
        given('subscription d1 deleted', async () => {
          expectStatus(
            await t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id: s.d1.id }, as: caller! }),
            '2xx',
            { owner: 'WH-LIFE-006' },
          )
          state.made.delete(s.d1.id)
        }),
      ])
      // a later event of extracted: x1 and the retyped p1 are for it, the deleted d1 no longer
      await emit('extracted')
      const r = state.receiver!
      const arrived = () => [
        ...s.a.map((x) => r.signed(x.endpoint).length >= 1),
        r.for(s.shared).length >= 2,
        r.signed(s.x1.endpoint).length >= 1,
        count(r.signed(s.p1.endpoint), 'extracted') >= 1,
      ]
      await pollUntil(
        async () =>
          arrived().every(Boolean)
            ? { state: 'success', value: true, seen: 'all notified' }
            : { state: 'pending', value: false, seen: 'waiting' },
        {
          name: 'fan-out notifications',
          deadlineMs: d.deadlineMs,
          initialDelayMs: 10,
          maxDelayMs: 200,
          minIntervalMs: 10,
        },
      )
      // what must not come can only be seen not to come over the settle window after the last arrival
      const last = () =>
        Math.max(
          0,
          ...[...s.a.map((x) => x.endpoint), s.shared, s.x1.endpoint, s.p1.endpoint, s.d1.endpoint].flatMap((e) =>
            r.for(e).map((n) => n.receivedAt * 1000),
          ),
        )
      for (
        let end = Math.max(Date.now(), last()) + d.settleMs;
        Date.now() < end;
        end = Math.max(end, last() + d.settleMs)
      )
        await new Promise((done) => setTimeout(done, Math.min(250, end - Date.now())))

      const problems: string[] = []
      for (const [i, x] of s.a.entries())
        if (count(r.signed(x.endpoint), 'export') !== 1 || r.signed(x.endpoint).length !== 1)
          problems.push(
            `export subscription ${i + 1}: ${eventsAt(r.signed(x.endpoint)).join(', ') || 'nothing'} (one export ` +
              `wanted)`,
          )
      const atShared = r.for(s.shared)
      const signedBy = s.u.map(
        (u) => atShared.filter((n) => verifySignature(settings.signature, u.key, n.rawBody, n.headers).ok).length,
      )
      if (count(atShared, 'export') !== 2 || atShared.length !== 2 || signedBy.some((n) => n !== 1))
        problems.push(
          `the url of two export subscriptions: ${eventsAt(atShared).join(', ') || 'nothing'}, signed by each ` +
            `subscription's secret ${signedBy.join(' and ')} time(s) (two exports wanted, one signed by each)`,
        )
      if (count(r.signed(s.x1.endpoint), 'extracted') !== 1 || r.signed(s.x1.endpoint).length !== 1)
        problems.push(
          `extracted subscription: ${eventsAt(r.signed(s.x1.endpoint)).join(', ') || 'nothing'} (one extracted wanted)`,
        )
      const p1 = r.signed(s.p1.endpoint)
      if (
        count(p1, 'extracted') !== 1 ||
        count(p1, 'export') > 1 ||
        p1.length !== count(p1, 'extracted') + count(p1, 'export')
      )
        problems.push(
          `the subscription retyped to extracted while export was emitted: ${eventsAt(p1).join(', ') || 'nothing'} ` +
            `(one extracted wanted, and at most the export it overlapped)`,
        )
      if (r.for(s.d1.endpoint).length > 0)
        problems.push(
          `the subscription deleted before extracted was emitted: ${eventsAt(r.for(s.d1.endpoint)).join(', ')} ` +
            `(nothing wanted)`,
        )
      expectThat(problems.length === 0, {
        expected:
          'each live subscription notified once per event of its type, the deleted one of none, the retyped one of ' +
          'its new type',
        actual: problems.join('; '),
      })
    },
  )
})
