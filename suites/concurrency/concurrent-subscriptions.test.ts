import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { given } from '../../helpers/checks/setup'
import type { HttpResult } from '../../helpers/client/http/types'
import { useWebhooks } from '../../helpers/checks/webhooks/use-webhooks'
import { CheckHistory, expectLinearizable, untilOverlapped } from '../../helpers/checks/concurrency/history'
import {
  subscriptionModel,
  type SubscriptionInput,
  type SubscriptionOutput,
} from '../../helpers/oracle/linearizability/models'

/**
 * Concurrent clients on one subscription (issue 41; webhook-subscriptions.md §2, §4): an update and a delete at once,
 * then reads, judged together by the linearizability checker. Either may go first; after the delete the subscription
 * is gone whatever the update answered, and an update answered 200 must fit before the delete.
 */
const { t, subs } = useWebhooks('concurrency')

const output = (res: HttpResult): SubscriptionOutput | undefined => {
  if (res.status === 404) return { status: 'not-found' }
  if (res.status >= 400 && res.status < 500) return { status: 'refused' }
  if (res.status < 200 || res.status >= 300) return undefined
  const b = (res.body ?? {}) as { event?: unknown; url?: unknown }
  return {
    status: 'ok',
    ...(typeof b.event === 'string' ? { event: b.event } : {}),
    ...(typeof b.url === 'string' ? { url: b.url } : {}),
  }
}
/** A write's answer: its body is not a subscription (a delete answers {success}), so only its status counts. */
const writeOutput = (res: HttpResult): SubscriptionOutput | undefined => {
  const o = output(res)
  return o?.status === 'ok' ? { status: 'ok' } : o
}

describe('concurrency: an update and a delete of one subscription at once (webhook-subscriptions.md §2, §4)', () => {
  check(
    {
      id: 'WH-CONC-001',
      spec: 'webhooks',
      section: '§4',
      requirement:
        'An update and a delete of one subscription overlapping: both are answered (200 or 404), the subscription is ' +
        'gone afterwards (404 to a read and to a later update), and an update answered 200 fits before the delete.',
    },
    async (c) => {
      const url = subs.url('conc')
      const moved = subs.url('conc-moved')
      const {
        id,
        history,
        writes: [ru, rd],
      } = await untilOverlapped(c, async () => {
        const created = await given('a subscription', async () => {
          const made = await subs.create('export', url)
          expectStatus(made.res, 201)
          return made
        })
        const id = created.id!
        const history = new CheckHistory<SubscriptionInput, SubscriptionOutput>()
        const writes = await Promise.all([
          history.run(
            'updater',
            { kind: 'update', fields: { url: moved } },
            () => t.webhooks.call({ op: 'webhooks.subscription.update', params: { id }, json: { url: moved } }),
            writeOutput,
          ),
          history.run(
            'deleter',
            { kind: 'delete' },
            () => t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id } }),
            writeOutput,
          ),
        ])
        return { id, history, writes }
      })
      for (const [res, what] of [
        [ru!, 'the update'],
        [rd!, 'the delete'],
      ] as const)
        expectThat(res.status === 200 || res.status === 404, {
          expected: `${what}: 200 or 404`,
          actual: `status ${res.status}`,
          res,
        })
      const read = await history.run(
        'reader',
        { kind: 'get' },
        () => t.webhooks.call({ op: 'webhooks.subscription.get', params: { id } }),
        output,
      )
      const late = subs.url('conc-late')
      await history.run(
        'reader',
        { kind: 'update', fields: { url: late } },
        () => t.webhooks.call({ op: 'webhooks.subscription.update', params: { id }, json: { url: late } }),
        writeOutput,
      )
      await expectLinearizable(
        [{ resource: `subscription ${id}`, model: subscriptionModel({ event: 'export', url }), history }],
        { requirement: 'an update and a delete of one subscription', res: read },
      )
    },
  )
})
