import { lifecycle } from '../../helpers/checks/check'
import { expectStatus } from '../../helpers/checks/expect'
import { useWebhooks } from '../../helpers/checks/webhooks/use-webhooks'

/**
 * A subscription's state over time (webhook-subscriptions.md §2, §4): a sequence of writes and reads. Each step checks
 * its own status; what every answer must show (list, event, url, createdAt, updatedAt, deleted) is judged by the
 * model's invariants WH-INV-001..006 on every answer (helpers/oracle/, docs/model.md), each on its own id: one defect,
 * one failure, whichever step's answer showed it.
 */
const { t, subs } = useWebhooks('state')

lifecycle('webhooks: a subscription over time, judged by the model (webhook-subscriptions.md §2, §4)', (step) => {
  const s: { id?: string } = {}
  const id = () => ({ id: s.id! })

  step(
    {
      id: 'WH-STATE-001',
      spec: 'webhooks',
      section: '§4',
      requirement:
        'A subscription created for an event other than the first is answered 201, then read and listed (200); what ' +
        'they show is judged by WH-INV-001, 002 and 005.',
    },
    async () => {
      const created = await subs.create('export', subs.url('state'))
      expectStatus(created.res, 201)
      s.id = created.id
      expectStatus(await t.webhooks.call({ op: 'webhooks.subscription.get', params: id() }), 200)
      expectStatus(await t.webhooks.call({ op: 'webhooks.subscriptions.list' }), 200)
    },
  )

  step(
    {
      id: 'WH-STATE-002',
      spec: 'webhooks',
      section: '§2',
      requirement:
        'An update naming only the url is answered 200, then the subscription is listed and read (200); that they ' +
        'show the new url and the event unchanged is judged by WH-INV-001 and 005.',
    },
    async () => {
      expectStatus(
        await t.webhooks.call({
          op: 'webhooks.subscription.update',
          params: id(),
          json: { url: subs.url('state-moved') },
        }),
        200,
      )
      expectStatus(await t.webhooks.call({ op: 'webhooks.subscriptions.list' }), 200)
      expectStatus(await t.webhooks.call({ op: 'webhooks.subscription.get', params: id() }), 200)
    },
  )

  step(
    {
      id: 'WH-STATE-003',
      spec: 'webhooks',
      section: '§2',
      requirement:
        'An update naming only the event is answered 200, then the subscription is read and listed (200); that they ' +
        'show the new event and the url unchanged is judged by WH-INV-001 and 005.',
    },
    async () => {
      // an update of the event only is WH-LIFE-005's requirement: the same refusal failing both is one finding
      expectStatus(
        await t.webhooks.call({
          op: 'webhooks.subscription.update',
          params: id(),
          json: { event: 'validation-success' },
        }),
        200,
        { owner: 'WH-LIFE-005' },
      )
      expectStatus(await t.webhooks.call({ op: 'webhooks.subscription.get', params: id() }), 200)
      expectStatus(await t.webhooks.call({ op: 'webhooks.subscriptions.list' }), 200)
    },
  )

  step(
    {
      id: 'WH-STATE-004',
      spec: 'webhooks',
      section: '§7',
      requirement:
        'An update with an unknown event type is refused with a 4xx, and the subscription is then read and listed ' +
        '(200); that nothing changed (updatedAt included) is judged by WH-INV-001, 004 and 005.',
    },
    async () => {
      expectStatus(
        await t.webhooks.call({
          op: 'webhooks.subscription.update',
          params: id(),
          json: { event: 'no-such-event', url: subs.url('state-refused') },
        }),
        '4xx',
      )
      expectStatus(await t.webhooks.call({ op: 'webhooks.subscription.get', params: id() }), 200)
      expectStatus(await t.webhooks.call({ op: 'webhooks.subscriptions.list' }), 200)
    },
  )

  step(
    {
      id: 'WH-STATE-005',
      spec: 'webhooks',
      section: '§4',
      requirement:
        'A deleted subscription is answered 404 to a read, an update and a second delete, and the list is answered ' +
        '200 (that it is no longer listed is judged by WH-INV-002).',
    },
    async () => {
      expectStatus(await t.webhooks.call({ op: 'webhooks.subscription.delete', params: id() }), 200)
      expectStatus(await t.webhooks.call({ op: 'webhooks.subscriptions.list' }), 200)
      // 404 after deletion is WH-LIFE-007's requirement as well: the same answer failing both is one finding
      const gone = { owner: 'WH-LIFE-007' }
      expectStatus(await t.webhooks.call({ op: 'webhooks.subscription.get', params: id() }), 404, gone)
      expectStatus(
        await t.webhooks.call({
          op: 'webhooks.subscription.update',
          params: id(),
          json: { url: subs.url('state-revived') },
        }),
        404,
        gone,
      )
      expectStatus(await t.webhooks.call({ op: 'webhooks.subscription.delete', params: id() }), 404, gone)
    },
  )
})
