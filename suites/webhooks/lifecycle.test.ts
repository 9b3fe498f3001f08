import { lifecycle } from '../../helpers/checks/check'
import { expectEqual, expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import type { HttpResult } from '../../helpers/client/http/types'
import { listed, useWebhooks } from '../../helpers/checks/webhooks/use-webhooks'

const { t, subs } = useWebhooks('life')
const FIELDS = ['id', 'event', 'url', 'secret', 'createdAt', 'updatedAt'] as const
type Sub = Record<string, unknown>

/** The six fields of §2, for comparing two answers about the same subscription. */
function core(s: Sub): Sub {
  return Object.fromEntries(FIELDS.map((f) => [f, s[f]]))
}

function isDateTime(v: unknown): boolean {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v))
}

function subscription(res: HttpResult): Sub {
  const body = expectJsonBody(res)
  expectThat(body !== null && typeof body === 'object' && !Array.isArray(body), {
    expected: 'a subscription object',
    actual: body,
    res,
  })
  return body as Sub
}

lifecycle('webhooks: subscription lifecycle (webhook-subscriptions.md §2, §4, §7)', (step) => {
  const s: { created?: Sub; updated?: Sub; url: string; url2: string } = {
    url: subs.url('main'),
    url2: subs.url('main-moved'),
  }

  step(
    {
      id: 'WH-LIFE-001',
      spec: 'webhooks',
      section: '§4',
      requirement:
        'POST /api/webhook/subscription answers 201 with the full subscription (id, event, url, secret, createdAt, ' +
        'updatedAt), and ids are unique across creates.',
    },
    async () => {
      const first = await subs.create('extracted', s.url)
      expectStatus(first.res, 201)
      const body = subscription(first.res)
      const missing = FIELDS.filter((f) => body[f] === undefined || body[f] === null || body[f] === '')
      expectThat(missing.length === 0, {
        expected: `all of ${FIELDS.join(', ')}`,
        actual: `missing or empty: ${missing.join(', ')}`,
        res: first.res,
      })
      expectThat(typeof body.id === 'string', { expected: 'id a string', actual: typeof body.id, res: first.res })
      expectEqual(body.event, 'extracted', 'event', first.res)
      expectEqual(body.url, s.url, 'url', first.res)
      expectThat(isDateTime(body.createdAt) && isDateTime(body.updatedAt), {
        expected: 'createdAt and updatedAt ISO date-times',
        actual: { createdAt: body.createdAt, updatedAt: body.updatedAt },
        res: first.res,
      })
      s.created = body
      const second = await subs.create('export', subs.url('second'))
      expectStatus(second.res, 201)
      expectThat(second.id !== undefined && second.id !== body.id, {
        expected: `a second create to get an id other than ${String(body.id)}`,
        actual: second.id ?? 'no id',
        res: second.res,
      })
    },
  )

  step(
    {
      id: 'WH-LIFE-002',
      spec: 'webhooks',
      section: '§4',
      requirement: 'GET /api/webhook/subscription/{id} answers 200 with the subscription as it was created.',
    },
    async () => {
      const res = await t.webhooks.call({ op: 'webhooks.subscription.get', params: { id: String(s.created!.id) } })
      expectStatus(res, 200)
      expectEqual(core(subscription(res)), core(s.created!), 'the subscription read back', res)
    },
  )

  step(
    {
      id: 'WH-LIFE-003',
      spec: 'webhooks',
      section: '§4',
      requirement: 'GET /api/webhook/subscriptions lists the new subscription.',
    },
    async () => {
      const res = await t.webhooks.call({ op: 'webhooks.subscriptions.list' })
      expectStatus(res, 200)
      expectThat(Array.isArray(expectJsonBody(res)), { expected: 'a JSON array', actual: res.body, res })
      const mine = listed(res).find((x) => x.id === s.created!.id)
      expectThat(mine !== undefined, {
        expected: `an entry with id ${String(s.created!.id)}`,
        actual: `${listed(res).length} entries without it`,
        res,
      })
      expectEqual(
        { event: mine.event, url: mine.url },
        { event: 'extracted', url: s.url },
        'event and url of the listed entry',
        res,
      )
    },
  )

  step(
    {
      id: 'WH-LIFE-004',
      spec: 'webhooks',
      section: '§4',
      requirement:
        'PUT with a new url answers 200 with the updated subscription: url changed, createdAt unchanged, updatedAt ' +
        'not earlier.',
    },
    async () => {
      const before = s.created!
      const res = await t.webhooks.call({
        op: 'webhooks.subscription.update',
        params: { id: String(before.id) },
        json: { url: s.url2 },
      })
      expectStatus(res, 200)
      const body = subscription(res)
      expectEqual(
        { id: body.id, url: body.url, event: body.event },
        { id: before.id, url: s.url2, event: 'extracted' },
        'id, url and event after the update',
        res,
      )
      expectEqual(body.createdAt, before.createdAt, 'createdAt (unchanged by an update)', res)
      expectThat(
        isDateTime(body.updatedAt) && Date.parse(String(body.updatedAt)) >= Date.parse(String(before.updatedAt)),
        {
          expected: `updatedAt a date-time not earlier than ${String(before.updatedAt)}`,
          actual: body.updatedAt,
          res,
        },
      )
      s.updated = body
    },
  )

  step(
    {
      id: 'WH-LIFE-005',
      spec: 'webhooks',
      section: '§2',
      requirement:
        'A PUT with only event changes the event and keeps the url (both fields of the update input are optional).',
    },
    async () => {
      const id = String(s.created!.id)
      const res = await t.webhooks.call({
        op: 'webhooks.subscription.update',
        params: { id },
        json: { event: 'export' },
      })
      expectStatus(res, 200)
      const body = subscription(res)
      expectEqual(
        { event: body.event, url: body.url },
        { event: 'export', url: s.url2 },
        'event and url after a partial update',
        res,
      )
      const read = await t.webhooks.call({ op: 'webhooks.subscription.get', params: { id } })
      expectStatus(read, 200)
      const stored = subscription(read)
      expectEqual(
        { event: stored.event, url: stored.url },
        { event: 'export', url: s.url2 },
        'event and url stored after a partial update',
        read,
      )
    },
  )

  step(
    {
      id: 'WH-LIFE-006',
      spec: 'webhooks',
      section: '§4',
      requirement: 'DELETE /api/webhook/subscription/{id} answers 200 with {"success": true}.',
    },
    async () => {
      const id = String(s.created!.id)
      const res = await t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id } })
      expectStatus(res, 200)
      const body = expectJsonBody(res) as { success?: unknown }
      expectEqual(body?.success, true, 'success', res)
    },
  )

  step(
    {
      id: 'WH-LIFE-007',
      spec: 'webhooks',
      section: '§7',
      requirement: 'After deletion, GET, PUT and DELETE of the subscription all answer 404.',
    },
    async () => {
      const id = String(s.created!.id)
      const get = await t.webhooks.call({ op: 'webhooks.subscription.get', params: { id } })
      expectStatus(get, 404)
      const put = await t.webhooks.call({ op: 'webhooks.subscription.update', params: { id }, json: { url: s.url } })
      expectStatus(put, 404)
      const del = await t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id } })
      expectStatus(del, 404)
      subs.forget(id)
    },
  )

  step(
    {
      id: 'WH-LIFE-008',
      spec: 'webhooks',
      section: '§4',
      requirement: 'After deletion, GET /api/webhook/subscriptions no longer lists the subscription.',
    },
    async () => {
      const res = await t.webhooks.call({ op: 'webhooks.subscriptions.list' })
      expectStatus(res, 200)
      const still = listed(res).find((x) => x.id === s.created!.id)
      expectThat(still === undefined, { expected: `no entry with id ${String(s.created!.id)}`, actual: still, res })
    },
  )
})
