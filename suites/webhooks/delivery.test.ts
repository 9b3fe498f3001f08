import { afterAll } from 'vitest'
import { lifecycle, type CheckContext } from '../../helpers/checks/check'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { given } from '../../helpers/checks/setup'
import { describePoll } from '../../helpers/client/polling/poll-until'
import {
  describeFinding,
  ExpectedNotifications,
  notifiedEvent,
  type Finding,
  type FindingKind,
} from '../../helpers/checks/webhooks/expected-notifications'
import { describeShapeDifference, shapeDifferences } from '../../helpers/oracle/example-shape'
import { getPointer } from '../../helpers/client/data/json-pointer'
import { WebhookReceiver, type ReceivedNotification } from '../../helpers/checks/webhooks/receiver'
import { secretKey } from '../../helpers/checks/webhooks/secret'
import { verifySignature, verifyTimestamp } from '../../helpers/checks/webhooks/signature'
import { useWebhooks } from '../../helpers/checks/webhooks/use-webhooks'
import { waitForNotifications, waitSettled } from '../../helpers/checks/webhooks/waits'

const { t, settings, subs } = useWebhooks('dlv')
const EVENTS = ['extracted', 'export', 'validation-success'] as const
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])
const d = settings.delivery

/** Why signed delivery cannot be checked on this target, or undefined when it can. */
function notApplicableReason(): string | undefined {
  if (!d.trigger)
    return 'the profile names no way to make the target emit an event (extensions.webhooks.delivery.trigger)'
  const host = new URL(t.config.services.webhookBaseUrl).hostname
  if (!LOOPBACK.has(host) && !d.receiver.publicUrl) {
    return (
      'the target is not on this machine and the profile gives no public URL for the local receiver ' +
      '(extensions.webhooks.delivery.receiver.publicUrl)'
    )
  }
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

/**
 * The run's subscriptions, what they must receive (the model of their state over time) and the receiver.
 * Every state change and every event happens in the first step; the later steps read what arrived, and those that
 * check for notifications that must NOT come wait for the settle window, which runs from the events on.
 */
interface Sub {
  id: string
  key: string
  name: string
}
const state: {
  receiver?: WebhookReceiver
  subs: Map<string, Sub>
  keys: Map<string, string>
  model: ExpectedNotifications
  settled?: Promise<number>
} = {
  subs: new Map(),
  keys: new Map(),
  model: new ExpectedNotifications(settings.eventPointer),
}
afterAll(async () => state.receiver?.close())
/** The target's notifications at an endpoint: those signed by its subscription's secret (verified at receipt). */
const received = (endpoint: string): ReceivedNotification[] => state.receiver?.signed(endpoint) ?? []

async function emit(event: string): Promise<void> {
  const trigger = d.trigger!
  const res = await t.webhooks.call({
    method: trigger.method,
    path: trigger.path,
    json: fill(trigger.body ?? { event: '{event}' }, event),
  })
  expectStatus(res, '2xx')
  state.model.emitted(event)
}

/** Subscribes the receiver endpoint `name` to an event type: a setup (its failure blocks the delivery checks). */
function subscribe(event: string, name: string): Promise<Sub> {
  return given(`a subscription of ${name} to ${event}`, () => subscribeNow(event, name))
}

async function subscribeNow(event: string, name: string): Promise<Sub> {
  const endpoint = subs.label(name)
  const created = await subs.create(event, state.receiver!.url(endpoint))
  expectStatus(created.res, '2xx')
  const key = secretKey((created.res.body as { secret?: unknown })?.secret, settings.signature.secretKeyPointer)
  expectThat(created.id !== undefined && key !== undefined, {
    expected:
      `an id and a secret key (a string secret, or an object with the key ` +
      `at ${settings.signature.secretKeyPointer})`,
    actual: created.id === undefined ? 'no id' : 'no usable secret key',
    res: created.res,
  })
  state.model.created(created.id!, event, endpoint)
  state.keys.set(endpoint, key!)
  state.receiver!.trust(endpoint, key!)
  const sub = { id: created.id!, key: key!, name }
  state.subs.set(name, sub)
  return sub
}

async function update(sub: Sub, change: { event?: string; name?: string }): Promise<void> {
  const endpoint = change.name ? subs.label(change.name) : undefined
  const json = {
    ...(change.event ? { event: change.event } : {}),
    ...(endpoint ? { url: state.receiver!.url(endpoint) } : {}),
  }
  const res = await t.webhooks.call({ op: 'webhooks.subscription.update', params: { id: sub.id }, json })
  expectStatus(res, 200)
  state.model.updated(sub.id, { ...(change.event ? { event: change.event } : {}), ...(endpoint ? { endpoint } : {}) })
  if (endpoint) {
    state.keys.set(endpoint, sub.key)
    state.receiver!.trust(endpoint, sub.key)
  }
}

async function remove(sub: Sub): Promise<void> {
  const del = await t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id: sub.id } })
  expectStatus(del, 200)
  subs.forget(sub.id)
  state.model.deleted(sub.id)
}

function nameOf(id: string): string {
  return [...state.subs.values()].find((s) => s.id === id)?.name ?? id
}

/** The findings of some kinds once the settle window is over (the first caller waits the rest of it). */
async function settledFindings(...kinds: FindingKind[]): Promise<Finding[]> {
  state.settled ??= waitSettled(state.model, received, { settleMs: d.settleMs, deadlineMs: d.deadlineMs })
  await state.settled
  return state.model.assess(received).findings.filter((f) => kinds.includes(f.kind))
}

/**
 * Every request that reached the run's endpoints (their paths are secret: only the target was given them), signed
 * or not, with the secret key of the subscription the endpoint is of.
 */
function everyNotification(): { endpoint: string; key: string; n: ReceivedNotification }[] {
  return [...state.keys].flatMap(([endpoint, key]) =>
    (state.receiver?.for(endpoint) ?? []).map((n) => ({ endpoint, key, n })),
  )
}

function guard(c: CheckContext): void {
  const reason = notApplicableReason()
  if (reason) c.notApplicable(reason)
}

const WINDOW = `over the settle window (${d.settleMs} ms after the last notification)`

lifecycle('webhooks: signed delivery (webhook-subscriptions.md §6)', (step) => {
  step(
    {
      id: 'WH-DLV-001',
      spec: 'webhooks',
      section: '§6',
      requirement: 'When an event occurs, every subscriber of that event type is sent a notification.',
    },
    async (c) => {
      guard(c)
      state.receiver = await WebhookReceiver.start({ ...d.receiver, signature: settings.signature })
      // independent requests side by side, so the events (and the settle window after them) come as early as they can
      const [moved, retyped, gone] = await Promise.all([
        subscribe('extracted', 'moved-from'),
        subscribe('export', 'retyped'),
        subscribe('extracted', 'deleted'),
        ...EVENTS.map((e) => subscribe(e, `to-${e}`)),
      ])
      // state changes before the events: a moved url, a changed event type, a deleted subscription (WH-DLV-006..008)
      // setup: an update or delete refused blocks the deliveries, owner the lifecycle check of that update or delete
      await Promise.all([
        given('the url of a subscription moved', () => update(moved!, { name: 'moved-to' })),
        given('the event of a subscription changed', () => update(retyped!, { event: 'validation-success' }), {
          owner: 'WH-LIFE-005',
        }),
        given('a subscription deleted', () => remove(gone!)),
      ])
      await Promise.all(EVENTS.map((e) => emit(e)))
      const plain = EVENTS.map((e) => subs.label(`to-${e}`))
      const r = await waitForNotifications(state.receiver, plain, d.deadlineMs)
      expectThat(r.outcome === 'success', {
        expected: `a notification for each of ${EVENTS.join(', ')} within ${d.deadlineMs} ms`,
        actual:
          `none ` +
          `for ${EVENTS.filter((e) => (state.receiver?.for(subs.label(`to-${e}`)) ?? []).length === 0).join(', ')}`,
        note: describePoll(r),
      })
    },
  )

  // the signatures right after the arrivals: the later steps count only signed notifications (an unsigned one is
  // never the target's), so a signing defect is named here rather than as a missing notification further on
  step(
    {
      id: 'WH-DLV-004',
      spec: 'webhooks',
      section: '§6',
      requirement:
        `Every notification carries ${settings.signature.header}: a valid ${settings.signature.algorithm} ` +
        `HMAC of the raw body, keyed by the subscription's secret.`,
    },
    async (c) => {
      guard(c)
      const bad = everyNotification().flatMap(({ endpoint, key, n }) => {
        const v = verifySignature(settings.signature, key, n.rawBody, n.headers)
        return v.ok ? [] : [`${endpoint}: ${v.detail}`]
      })
      expectThat(bad.length === 0, { expected: 'a valid signature on every notification', actual: bad.join('; ') })
    },
  )

  step(
    {
      id: 'WH-DLV-005',
      spec: 'webhooks',
      section: '§6',
      requirement:
        `Every notification carries a fresh ${settings.signature.timestampHeader ?? 'timestamp'} ` +
        `(within ${settings.signature.toleranceSeconds} s of its receipt), against replay.`,
    },
    async (c) => {
      guard(c)
      const bad = everyNotification().flatMap(({ endpoint, n }) => {
        const v = verifyTimestamp(settings.signature, n.headers, n.receivedAt)
        return v.ok ? [] : [`${endpoint}: ${v.detail}`]
      })
      expectThat(bad.length === 0, { expected: 'a fresh timestamp on every notification', actual: bad.join('; ') })
    },
  )

  step(
    {
      id: 'WH-DLV-002',
      spec: 'webhooks',
      section: '§6',
      requirement:
        `A subscription is notified only of its own event type (the body names it ` +
        `at ${settings.eventPointer}), ${WINDOW}.`,
    },
    async (c) => {
      guard(c)
      const wrong = await settledFindings('wrong-event')
      expectThat(wrong.length === 0, {
        expected: "every notification of the subscription's own event type",
        actual: wrong.map((f) => describeFinding(f, nameOf)).join('; '),
      })
    },
  )

  step(
    {
      id: 'WH-DLV-007',
      spec: 'webhooks',
      section: '§6',
      requirement:
        `After a PUT changes a subscription's url, its notifications go to the new url only: none to the ` +
        `old url, ${WINDOW}.`,
    },
    async (c) => {
      guard(c)
      const from = subs.label('moved-from')
      const r = await waitForNotifications(state.receiver!, [subs.label('moved-to')], d.deadlineMs, () =>
        received(from).length > 0 ? 'a notification at the old url' : undefined,
      )
      const old = await settledFindings('old-url')
      expectThat(r.outcome === 'success' && old.length === 0, {
        expected: 'the event notified at the url the PUT set, and nothing at the url it replaced',
        actual:
          `${received(subs.label('moved-to')).length} notification(s) at the new url, ${received(from).length} ` +
          `at the old url`,
        note: describePoll(r),
      })
    },
  )

  step(
    {
      id: 'WH-DLV-008',
      spec: 'webhooks',
      section: '§6',
      requirement:
        `After a PUT changes a subscription's event type, it is notified of the new type only: none of ` +
        `the old type, ${WINDOW}.`,
    },
    async (c) => {
      guard(c)
      const endpoint = subs.label('retyped')
      const r = await waitForNotifications(state.receiver!, [endpoint], d.deadlineMs)
      const mine = (await settledFindings('old-event', 'missing')).filter((f) => f.endpoint === endpoint)
      expectThat(r.outcome === 'success' && mine.length === 0, {
        expected:
          'one notification of validation-success (the type the PUT set), none of export (the type it replaced)',
        actual:
          mine.length > 0
            ? mine.map((f) => describeFinding(f, nameOf)).join('; ')
            : `${received(endpoint).length} notification(s)`,
        note: describePoll(r),
      })
    },
  )

  step(
    {
      id: 'WH-DLV-006',
      spec: 'webhooks',
      section: '§6',
      requirement:
        `After a subscription is deleted it receives no notification, ${WINDOW}, while a live ` +
        `subscription of the same event type does.`,
    },
    async (c) => {
      guard(c)
      const after = await settledFindings('after-delete')
      expectThat(received(subs.label('to-extracted')).length > 0, {
        expected: 'the live subscription of the same event type notified (so the event did occur)',
        actual: 'no notification',
      })
      expectThat(after.length === 0, {
        expected: 'no notification to the deleted subscription',
        actual: after.map((f) => describeFinding(f, nameOf)).join('; '),
      })
    },
  )

  step(
    {
      id: 'WH-DLV-003',
      spec: 'webhooks',
      section: '§6',
      requirement:
        `One event is notified exactly once to each subscription, ${WINDOW}: no duplicate, however late ` +
        `(the receiver answered 204 at once: nothing to retry).`,
    },
    async (c) => {
      guard(c)
      const dup = await settledFindings('duplicate')
      expectThat(dup.length === 0, {
        expected: 'exactly 1 notification per event per subscription',
        actual: dup.map((f) => describeFinding(f, nameOf)).join('; '),
      })
    },
  )

  step(
    {
      id: 'WH-DLV-011',
      spec: 'webhooks',
      section: '§2, §6',
      requirement:
        `Every notification's data (at ${settings.dataPointer || 'the body'}) has the structure of its ` +
        `event type's published examplePayload (GET /api/webhook/events, read in the same run): the same keys at ` +
        `every level and the same JSON types, arrays by their items; keys the example does not have ` +
        `are ${
          settings.extraDataKeys === 'allow' ? 'allowed and reported (deviation notification-extra-keys)' : 'a failure'
        }.`,
    },
    async (c) => {
      guard(c)
      const events = await given('the event types and their examples (GET /api/webhook/events)', async () => {
        const res = await t.webhooks.call({ op: 'webhooks.events.list' })
        expectStatus(res, 200)
        expectThat(res.overBudget === undefined, {
          expected: 'the events list read whole',
          actual: `${res.overBudget} bytes, over its answer budget`,
          res,
        })
        return res
      })
      const examples = new Map<string, unknown>()
      for (const info of Array.isArray(events.body) ? events.body : []) {
        const i = info as { eventType?: unknown; examplePayload?: unknown }
        if (typeof i.eventType === 'string') examples.set(i.eventType, i.examplePayload)
      }
      const wrong: string[] = []
      const extra: string[] = []
      for (const endpoint of state.keys.keys()) {
        for (const n of received(endpoint)) {
          const where =
            `${nameOf(state.model.subscriptionAt(endpoint) ?? endpoint)} ` +
            `(${notifiedEvent(n, settings.eventPointer) ?? 'no event type'})`
          let body: unknown
          try {
            body = JSON.parse(n.rawBody.toString('utf8'))
          } catch {
            wrong.push(`${where}: the body is not JSON`)
            continue
          }
          const event = getPointer(body, settings.eventPointer)
          if (typeof event !== 'string' || !examples.has(event)) {
            wrong.push(`${where}: event type ${JSON.stringify(event)} has no published example`)
            continue
          }
          const data = settings.dataPointer === '' ? body : getPointer(body, settings.dataPointer)
          const differences = shapeDifferences(examples.get(event), data)
          wrong.push(
            ...differences.filter((x) => x.kind !== 'extra').map((x) => `${where}: data${describeShapeDifference(x)}`),
          )
          extra.push(
            ...differences.filter((x) => x.kind === 'extra').map((x) => `${where}: data${describeShapeDifference(x)}`),
          )
        }
      }
      const failing = settings.extraDataKeys === 'fail' ? [...wrong, ...extra] : wrong
      const besides =
        settings.extraDataKeys === 'allow' && extra.length > 0
          ? `; besides, keys not in the example: ${[...new Set(extra)].join('; ')}`
          : ''
      expectThat(failing.length === 0, {
        expected: "every notification's data structured as its event type's examplePayload",
        actual: `${[...new Set(failing)].join('; ')}${besides}`,
        res: events,
      })
      if (extra.length > 0) {
        await c.deviation({
          id: 'notification-extra-keys',
          message:
            `notification data carries keys its event type's examplePayload does not ` +
            `have: ${[...new Set(extra)].join('; ')}`,
          policy: t.config.deviations['notification-extra-keys'] ?? 'warn',
        })
      }
    },
  )
})
