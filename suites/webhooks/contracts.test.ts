import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectContract } from '../../helpers/checks/contract'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { given } from '../../helpers/checks/setup'
import { RepresentedGroups } from '../../helpers/checks/group'
import { secretShape } from '../../helpers/checks/webhooks/secret'
import { contractView, useWebhooks } from '../../helpers/checks/webhooks/use-webhooks'

const { t, subs } = useWebhooks('con')
/**
 * The subscription of §2 answered by POST, GET, the list and PUT is one requirement over four operations: WH-CON-002
 * (POST) represents it; when it fails, WH-CON-003..005 are blocked with it as owner (docs/mutation.md).
 */
const groups = new RepresentedGroups()
const REPRESENTATION = 'subscription-representation'

/**
 * A fresh subscription for one check: its setup. It needs a created subscription with an id (2xx); the exact 201 and
 * the fields of the POST answer are WH-LIFE-001's and WH-CON-002's requirements, so a defect there blocks this check.
 */
function fresh(label: string) {
  return given('a new subscription', async () => {
    const created = await subs.create('validation-success', subs.url(label))
    expectStatus(created.res, '2xx')
    expectThat(created.id !== undefined, {
      expected: 'an id in the created subscription',
      actual: created.res.body,
      res: created.res,
    })
    return { ...created, id: created.id! }
  })
}

describe('webhooks: response contracts (webhook-subscriptions.md §2, §4)', () => {
  check(
    {
      id: 'WH-CON-001',
      spec: 'webhooks',
      section: '§2',
      requirement:
        'GET /api/webhook/events answers an array of event info: eventType string, description string, ' +
        'examplePayload object, all required.',
    },
    async () => {
      const res = await t.webhooks.call({ op: 'webhooks.events.list' })
      expectStatus(res, 200)
      expectContract(t.contracts, res, 'webhooks/event-list')
    },
  )

  check(
    {
      id: 'WH-CON-002',
      spec: 'webhooks',
      section: '§2',
      requirement:
        'The subscription answered by POST has every field of §2 with its type: id, event (one of the three), url, ' +
        'secret, createdAt and updatedAt as date-times.',
    },
    () =>
      groups.representative(REPRESENTATION, 'WH-CON-002', async () => {
        const { res } = await fresh('contract-post')
        expectContract(t.contracts, contractView(res), 'webhooks/subscription')
      }),
  )

  check(
    {
      id: 'WH-CON-003',
      spec: 'webhooks',
      section: '§2',
      requirement:
        'The subscription answered by GET /api/webhook/subscription/{id} has every field of §2 with its type.',
    },
    () =>
      groups.member(REPRESENTATION, 'the subscription as §2 describes it', async () => {
        const { id } = await fresh('contract-get')
        const res = await t.webhooks.call({ op: 'webhooks.subscription.get', params: { id } })
        expectStatus(res, 200)
        expectContract(t.contracts, contractView(res), 'webhooks/subscription')
      }),
  )

  check(
    {
      id: 'WH-CON-004',
      spec: 'webhooks',
      section: '§4',
      requirement:
        'GET /api/webhook/subscriptions answers an array of subscriptions, each with every field of §2 with its type.',
    },
    () =>
      groups.member(REPRESENTATION, 'the subscription as §2 describes it', async () => {
        await fresh('contract-list')
        const res = await t.webhooks.call({ op: 'webhooks.subscriptions.list' })
        expectStatus(res, 200)
        expectContract(t.contracts, contractView(res), 'webhooks/subscription-list')
      }),
  )

  check(
    {
      id: 'WH-CON-005',
      spec: 'webhooks',
      section: '§4',
      requirement: 'The subscription answered by PUT has every field of §2 with its type.',
    },
    () =>
      groups.member(REPRESENTATION, 'the subscription as §2 describes it', async () => {
        const { id } = await fresh('contract-put')
        const res = await t.webhooks.call({
          op: 'webhooks.subscription.update',
          params: { id },
          json: { url: subs.url('contract-put-moved') },
        })
        expectStatus(res, 200)
        expectContract(t.contracts, contractView(res), 'webhooks/subscription')
      }),
  )

  check(
    {
      id: 'WH-CON-006',
      spec: 'webhooks',
      section: '§2',
      requirement: 'DELETE answers the delete result: an object with a boolean success.',
    },
    async () => {
      const { id } = await fresh('contract-delete')
      const res = await t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id } })
      expectStatus(res, 200)
      expectContract(t.contracts, res, 'webhooks/delete-result')
      subs.forget(id)
    },
  )

  check(
    {
      id: 'WH-CON-007',
      spec: 'webhooks',
      section: '§2',
      requirement:
        'The secret of a subscription is an object, as §2 declares it (a string secret is the named deviation ' +
        'webhook-secret-type).',
    },
    async (c) => {
      const { res } = await fresh('contract-secret')
      const shape = secretShape(res.body)
      if (shape === 'string') {
        await c.deviation({
          id: 'webhook-secret-type',
          message:
            'secret is a string; webhook-subscriptions.md §2 declares it as an object. The suite uses the string as ' +
            'the HMAC key.',
          policy: t.config.deviations['webhook-secret-type'] ?? 'warn',
        })
        return
      }
      expectThat(shape === 'object', {
        expected: 'secret an object (or a string, the named deviation webhook-secret-type)',
        actual: `secret ${shape}`,
        res,
      })
    },
  )
})
