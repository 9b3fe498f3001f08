import { beforeAll, describe } from 'vitest'
import {
  expiryLeewaySeconds,
  msUntilExpired,
  takeExpiredToken,
  type ExpiringToken,
} from '../../helpers/client/auth/expiring-token'
import { check } from '../../helpers/checks/check'
import { given } from '../../helpers/checks/setup'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { useWebhooks } from '../../helpers/checks/webhooks/use-webhooks'

/**
 * Every subscription operation probed from another tenant and with an expired token (webhook-subscriptions.md §5).
 * The refusals are this file's checks; the model's invariants (WH-INV-006 scoping, WH-INV-007 expiry, WH-INV-005 the
 * subscription unchanged) judge every answer as well.
 */
const { t, subs } = useWebhooks('scope')
const other = t.user('otherTenant')
// taken at the start of the file: it expires while the other checks run (no wait on the run's critical path)
const st: { token?: ExpiringToken } = {}
beforeAll(async () => {
  st.token = await takeExpiredToken(t)
})

/** A subscription of ours: setup, blocking the check when it cannot be made. */
function ours(label: string): Promise<string> {
  return given('a subscription of ours', async () => {
    const created = await subs.create('export', subs.url(label))
    expectStatus(created.res, 201)
    expectThat(created.id !== undefined, {
      expected: 'an id in the created subscription',
      actual: created.res.body,
      res: created.res,
    })
    return created.id!
  })
}

describe(
  'webhooks: every subscription operation scoped to its tenant and to a live token (webhook-subscriptions.md ' + '§5)',
  () => {
    check(
      {
        id: 'WH-SCOPE-001',
        spec: 'webhooks',
        section: '§5',
        requirement:
          "Another tenant's user cannot read, update or delete our subscription (4xx), and it can still read it " +
          '(that it is unchanged is judged by WH-INV-005).',
      },
      async (c) => {
        if (!other) c.notApplicable('the profile names no user of another tenant (users.otherTenant)')
        const id = await ours('scope-tenant')
        expectStatus(await t.webhooks.call({ op: 'webhooks.subscription.get', params: { id }, as: other }), '4xx')
        expectStatus(
          await t.webhooks.call({
            op: 'webhooks.subscription.update',
            params: { id },
            as: other,
            json: { url: subs.url('scope-stolen'), event: 'extracted' },
          }),
          '4xx',
        )
        expectStatus(await t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id }, as: other }), '4xx')
        expectStatus(await t.webhooks.call({ op: 'webhooks.subscription.get', params: { id } }), 200)
        expectStatus(await t.webhooks.call({ op: 'webhooks.subscriptions.list' }), 200)
      },
    )

    check(
      {
        id: 'WH-SCOPE-002',
        spec: 'webhooks',
        section: '§5',
        requirement:
          'An expired token is refused with 401 by every subscription operation (list, create, read, update, delete).',
      },
      async (c) => {
        const id = await ours('scope-expired')
        if (!st.token)
          c.notApplicable('the profile names no users.expired nor users.shortLived, or their login gave no token')
        const token = st.token!
        const wait = msUntilExpired(token, expiryLeewaySeconds(t))
        expectThat(wait < 20_000, {
          expected: 'a token that expires within 20 s (plus the leeway)',
          actual: `${Math.round(wait / 1000)} s`,
        })
        await new Promise((r) => setTimeout(r, wait))
        expectStatus(await t.webhooks.call({ op: 'webhooks.subscriptions.list', bearer: token.token }), 401)
        expectStatus(
          await t.webhooks.call({
            op: 'webhooks.subscription.create',
            bearer: token.token,
            json: { event: 'export', url: subs.url('scope-expired-create') },
          }),
          401,
        )
        expectStatus(
          await t.webhooks.call({ op: 'webhooks.subscription.get', params: { id }, bearer: token.token }),
          401,
        )
        expectStatus(
          await t.webhooks.call({
            op: 'webhooks.subscription.update',
            params: { id },
            bearer: token.token,
            json: { url: subs.url('scope-expired-put') },
          }),
          401,
        )
        expectStatus(
          await t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id }, bearer: token.token }),
          401,
        )
        expectStatus(await t.webhooks.call({ op: 'webhooks.subscription.get', params: { id } }), 200)
      },
    )
  },
)
