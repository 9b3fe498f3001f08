import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { given } from '../../helpers/checks/setup'
import { listed, useWebhooks } from '../../helpers/checks/webhooks/use-webhooks'
import { probesFor } from '../../helpers/checks/probes/requests'

const { t, subs } = useWebhooks('iso')
const other = t.user('otherTenant')
const foreign = probesFor(t).settings.foreignId
const NO_OTHER = t.missingUser('otherTenant')

/** One subscription of the primary user, for the other user to look for (the setup of each check). */
function ours(label: string) {
  return given('a subscription of ours', async () => {
    const created = await subs.create('export', subs.url(label))
    expectStatus(created.res, '2xx')
    expectThat(created.id !== undefined, {
      expected: 'an id in the created subscription',
      actual: created.res.body,
      res: created.res,
    })
    return { id: created.id!, url: created.url }
  })
}

describe('webhooks: isolation between callers (webhook-subscriptions.md §5)', () => {
  check(
    {
      id: 'WH-ISO-001',
      spec: 'webhooks',
      section: '§5',
      requirement: "Another tenant's user does not see our subscriptions in GET /api/webhook/subscriptions.",
    },
    async (c) => {
      if (!other) c.notApplicable(NO_OTHER)
      const mine = await ours('hidden-from-list')
      const res = await t.webhooks.call({ op: 'webhooks.subscriptions.list', as: other })
      expectStatus(res, 200)
      const leaked = listed(res).filter((s) => s.id === mine.id || s.url === mine.url)
      expectThat(leaked.length === 0, { expected: `no entry with id ${mine.id}`, actual: leaked, res })
    },
  )

  check(
    {
      id: 'WH-ISO-002',
      spec: 'webhooks',
      section: '§5',
      requirement:
        `Another tenant's user gets ${foreign.statuses.join(' or ')} for GET ` +
        `/api/webhook/subscription/{id} of our subscription: ${foreign.why}.`,
    },
    async (c) => {
      if (!other) c.notApplicable(NO_OTHER)
      const mine = await ours('hidden-from-get')
      const res = await t.webhooks.call({ op: 'webhooks.subscription.get', params: { id: mine.id }, as: other })
      expectStatus(res, foreign.statuses)
    },
  )
})
