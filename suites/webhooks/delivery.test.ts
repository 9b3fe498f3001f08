import { afterAll } from 'vitest'
import { lifecycle, type CheckContext } from '../../helpers/checks/check'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { getPointer } from '../../helpers/data/json-pointer'
import { describePoll } from '../../helpers/polling/poll-until'
import { WebhookReceiver, type ReceivedNotification } from '../../helpers/webhooks/receiver'
import { secretKey } from '../../helpers/webhooks/secret'
import { verifySignature, verifyTimestamp } from '../../helpers/webhooks/signature'
import { useWebhooks } from '../../helpers/webhooks/use-webhooks'
import { quietWindow, waitForNotifications } from '../../helpers/webhooks/waits'

const { t, settings, subs } = useWebhooks('dlv')
const EVENTS = ['extracted', 'export', 'validation-success'] as const
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])
const d = settings.delivery

/** Why signed delivery cannot be checked on this target, or undefined when it can. */
function notApplicableReason(): string | undefined {
  if (!d.trigger) return 'the profile names no way to make the target emit an event (extensions.webhooks.delivery.trigger)'
  const host = new URL(t.config.services.webhookBaseUrl).hostname
  if (!LOOPBACK.has(host) && !d.receiver.publicUrl) {
    return 'the target is not on this machine and the profile gives no public URL for the local receiver (extensions.webhooks.delivery.receiver.publicUrl)'
  }
  return undefined
}

/** The trigger body with "{event}" filled in every string. */
function fill(value: unknown, event: string): unknown {
  if (typeof value === 'string') return value.split('{event}').join(event)
  if (Array.isArray(value)) return value.map((v) => fill(v, event))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, event)]))
  return value
}

async function emit(event: string): Promise<void> {
  const trigger = d.trigger!
  const res = await t.webhooks.call({ method: trigger.method, path: trigger.path, json: fill(trigger.body ?? { event: '{event}' }, event) })
  expectStatus(res, '2xx')
}

interface Sub { event: string; id: string; key: string; label: string }
const state: { receiver?: WebhookReceiver; subs: Sub[] } = { subs: [] }
afterAll(async () => state.receiver?.close())

async function subscribe(event: string, label: string): Promise<Sub> {
  const created = await subs.create(event, state.receiver!.url(label))
  expectStatus(created.res, 201)
  const key = secretKey((created.res.body as { secret?: unknown })?.secret, settings.signature.secretKeyPointer)
  expectThat(created.id !== undefined && key !== undefined, {
    expected: `an id and a secret key (a string secret, or an object with the key at ${settings.signature.secretKeyPointer})`,
    actual: created.id === undefined ? 'no id' : 'no usable secret key',
    res: created.res,
  })
  return { event, id: created.id!, key: key!, label }
}

function each(c: (s: Sub, n: ReceivedNotification) => string | undefined): string[] {
  return state.subs.flatMap((s) => state.receiver!.for(s.label).map((n) => c(s, n)).filter((x): x is string => x !== undefined))
}

function guard(c: CheckContext): void {
  const reason = notApplicableReason()
  if (reason) c.notApplicable(reason)
}

lifecycle('webhooks: signed delivery (webhook-subscriptions.md §6)', (step) => {
  step({ id: 'WH-DLV-001', spec: 'webhooks', section: '§6', requirement: 'When an event occurs, every subscriber of that event type is sent a notification.' }, async (c) => {
    guard(c)
    state.receiver = await WebhookReceiver.start(d.receiver)
    for (const e of EVENTS) state.subs.push(await subscribe(e, subs.label(`to-${e}`)))
    for (const e of EVENTS) await emit(e)
    const r = await waitForNotifications(state.receiver, state.subs.map((s) => s.label), d.deadlineMs)
    expectThat(r.outcome === 'success', {
      expected: `a notification for each of ${EVENTS.join(', ')} within ${d.deadlineMs} ms`,
      actual: `none for ${state.subs.filter((s) => state.receiver!.for(s.label).length === 0).map((s) => s.event).join(', ')}`,
      note: describePoll(r),
    })
  })

  step({ id: 'WH-DLV-002', spec: 'webhooks', section: '§6', requirement: `A subscription is notified only of its own event type (the body names it at ${settings.eventPointer}).` }, async (c) => {
    guard(c)
    await quietWindow(d.quietMs)
    const wrong = each((s, n) => {
      let body: unknown
      try {
        body = JSON.parse(n.rawBody.toString('utf8'))
      } catch {
        return `${s.event}: a notification whose body is not JSON`
      }
      const got = getPointer(body, settings.eventPointer)
      return got === s.event ? undefined : `${s.event}: a notification of ${JSON.stringify(got)}`
    })
    expectThat(wrong.length === 0, { expected: 'every notification of the subscription\'s own event type', actual: wrong.join('; ') })
  })

  step({ id: 'WH-DLV-003', spec: 'webhooks', section: '§6', requirement: 'One event is notified exactly once to each subscription (the receiver answered 204 at once: nothing to retry).' }, async (c) => {
    guard(c)
    const counts = state.subs.map((s) => `${s.event}: ${state.receiver!.for(s.label).length}`)
    expectThat(state.subs.every((s) => state.receiver!.for(s.label).length === 1), { expected: 'exactly 1 notification per subscription', actual: counts.join(', ') })
  })

  step({ id: 'WH-DLV-004', spec: 'webhooks', section: '§6', requirement: `Every notification carries ${settings.signature.header}: a valid ${settings.signature.algorithm} HMAC of the raw body, keyed by the subscription's secret.` }, async (c) => {
    guard(c)
    const bad = each((s, n) => {
      const v = verifySignature(settings.signature, s.key, n.rawBody, n.headers)
      return v.ok ? undefined : `${s.event}: ${v.detail}`
    })
    expectThat(bad.length === 0, { expected: 'a valid signature on every notification', actual: bad.join('; ') })
  })

  step({ id: 'WH-DLV-005', spec: 'webhooks', section: '§6', requirement: `Every notification carries a fresh ${settings.signature.timestampHeader ?? 'timestamp'} (within ${settings.signature.toleranceSeconds} s of its receipt), against replay.` }, async (c) => {
    guard(c)
    const bad = each((s, n) => {
      const v = verifyTimestamp(settings.signature, n.headers, n.receivedAt)
      return v.ok ? undefined : `${s.event}: ${v.detail}`
    })
    expectThat(bad.length === 0, { expected: 'a fresh timestamp on every notification', actual: bad.join('; ') })
  })

  step({ id: 'WH-DLV-006', spec: 'webhooks', section: '§6', requirement: 'After a subscription is deleted it receives no further notification, while a live subscription of the same event type still does.' }, async (c) => {
    guard(c)
    const gone = state.subs.find((s) => s.event === 'extracted')!
    const control = await subscribe('extracted', subs.label('control-extracted'))
    const del = await t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id: gone.id } })
    expectStatus(del, 200)
    subs.forget(gone.id)
    const before = state.receiver!.for(gone.label).length
    await emit('extracted')
    const r = await waitForNotifications(state.receiver!, [control.label], d.deadlineMs)
    expectThat(r.outcome === 'success', { expected: 'the live control subscription to be notified (so the event did occur)', actual: 'no notification', note: describePoll(r) })
    await quietWindow(d.quietMs)
    const after = state.receiver!.for(gone.label).length
    expectThat(after === before, { expected: 'no notification to the deleted subscription', actual: `${after - before} notification(s) after its deletion` })
  })
})
