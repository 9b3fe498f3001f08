import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectEqual, expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given, givenOnce } from '../../helpers/checks/setup'
import { getPointer } from '../../helpers/client/data/json-pointer'
import type { UserCredentials } from '../../common/config/types'
import type { HttpResult } from '../../helpers/client/http/types'
import { inspectJwt } from '../../helpers/client/auth/jwt'
import { exerciseSettings } from '../../common/config/exercise-settings'
import { salesSettings } from '../../common/config/sales-settings'
import { webhookSettings } from '../../helpers/checks/webhooks/settings'

/**
 * Identity as a client uses it (issue 40, the exercise model's identity cells: docs/exercise.md): login at every tenant
 * path with every user's credentials, the identity service's refresh (POST {auth_url}/token/refresh/{tenant} with
 * {refresh_token, username}, as the anchors document it), the refreshed token in use, and the token it replaced.
 */
const t = useTarget()
const x = exerciseSettings(t.config)
const ROLES = ['primary', 'restricted', 'otherTenant'] as const
const users = ROLES.flatMap((role) => {
  const u = t.user(role)
  return u && !t.config.unavailableUsers?.[role] ? [{ role, user: u }] : []
})
const tenants = [...new Set(users.map((u) => u.user.tenant))].sort()

function login(user: UserCredentials, tenant: string): Promise<HttpResult> {
  return t.identity.call({
    method: 'POST',
    path: t.config.auth.loginPath,
    params: { tenant },
    json: { username: user.username, password: user.password },
    as: 'anonymous',
  })
}

function at(body: unknown, refresh: boolean): string | undefined {
  for (const p of t.config.auth.tokenPointers) {
    const v = getPointer(body, refresh ? p.replace(/access_token$/, 'refresh_token') : p)
    if (typeof v === 'string') {
      t.redactor.addSecret(v)
      return v
    }
  }
  return undefined
}

/** A login of the primary user, and the refresh of its token: both tokens, never printed. */
async function loginAndRefresh(): Promise<{ access: string; refresh: HttpResult }> {
  const primary = t.config.users.primary
  const res = await login(primary, primary.tenant)
  expectStatus(res, 200, { owner: 'AUTH-LOGIN-001' })
  const access = at(res.body, false)
  const refreshToken = at(res.body, true)
  expectThat(access !== undefined && refreshToken !== undefined, {
    expected:
      `an access token and a refresh token at ${t.config.auth.tokenPointers.join(' or ')} (and its ` +
      `refresh_token sibling)`,
    actual: 'none',
    res,
  })
  const refresh = await t.identity.call({
    method: 'POST',
    path: t.config.auth.refreshPath,
    params: { tenant: primary.tenant },
    json: { refresh_token: refreshToken, username: primary.username },
    as: 'anonymous',
  })
  return { access: access!, refresh }
}

/** One login and refresh shared by the checks that read what the refresh answered. */
const refreshed = givenOnce('a login and a refresh of its token', loginAndRefresh)

const schemaOf = (bearer: string) =>
  t.sales.call({
    op: 'sales.schemes.get',
    params: { type: salesSettings(t.config).schemaType, name: t.config.product },
    bearer,
  })

describe('identity as a client uses it: every tenant path, refresh (issue 40; sales-service.md §5)', () => {
  check(
    {
      id: 'EX-ID-001',
      spec: 'sales',
      section: '§5',
      requirement:
        "A login at another tenant's path with a user's credentials is refused with a 4xx and gives no token, for " +
        "every user and every tenant path of the profile; at its own tenant's path each user logs in.",
    },
    async (c) => {
      if (tenants.length < 2) return c.notApplicable('the profile names users of one tenant only (users.otherTenant)')
      for (const { role, user } of users) {
        await given(`users.${role} logs in at its own tenant's path`, async () =>
          expectStatus(await login(user, user.tenant), 200, { owner: 'AUTH-LOGIN-001' }),
        )
        for (const tenant of tenants.filter((x) => x !== user.tenant)) {
          const res = await login(user, tenant)
          expectStatus(res, '4xx')
          expectThat(at(res.body, false) === undefined, {
            expected: `no access token for users.${role} at tenant ${tenant}'s path`,
            actual: 'an access token',
            res,
          })
        }
      }
    },
  )

  check(
    {
      id: 'EX-ID-002',
      spec: 'sales',
      section: '§5',
      requirement:
        'A refresh (POST {auth_url}/token/refresh/{tenant} with the refresh_token and username of a login) answers a ' +
        'new access token: a JWT with a future exp.',
    },
    async () => {
      const { refresh } = await refreshed()
      expectStatus(refresh, 200)
      const token = at(refresh.body, false)
      const jwt = inspectJwt(token, Date.now() / 1000)
      expectThat(jwt.ok, {
        expected: `a JWT access token with a future exp at ${t.config.auth.tokenPointers.join(' or ')}`,
        actual: jwt.ok ? 'valid' : jwt.reason,
        res: refresh,
      })
    },
  )

  check(
    {
      id: 'EX-ID-003',
      spec: 'sales',
      section: '§5',
      requirement:
        'The refreshed token is the same user with the same tenant and rights: the services answer it as they answer ' +
        'the token it replaced (the schema filtered by the same rights; a subscription made with the replaced ' +
        "token is the refreshed token's own).",
    },
    async () => {
      const { access, refresh } = await refreshed()
      const token = await given('the refreshed token', async () => {
        expectStatus(refresh, 200, { owner: 'EX-ID-002' })
        const v = at(refresh.body, false)
        expectThat(v !== undefined, { expected: 'an access token in the refresh answer', actual: 'none', res: refresh })
        return v!
      })
      const [before, after] = [await schemaOf(access), await schemaOf(token)]
      expectStatus(before, 200)
      expectStatus(after, 200)
      expectEqual(
        after.text,
        before.text,
        "the product schema read with the refreshed token (filtered by the caller's rights) as read with the token " +
          'it replaced',
        after,
      )
      // subscriptions belong to one user of one tenant: one made with the replaced token is the refreshed token's to
      // read
      const made = await given('a subscription made with the token the refresh replaced', async () => {
        const res = await t.webhooks.call({
          op: 'webhooks.subscription.create',
          json: { event: 'export', url: `${webhookSettings(t.config).subscriberUrlBase}/${t.tag('exercise-refresh')}` },
          bearer: access,
        })
        expectStatus(res, 201, { owner: 'WH-LIFE-001' })
        return String((res.body as { id?: unknown }).id)
      })
      try {
        const read = await t.webhooks.call({ op: 'webhooks.subscription.get', params: { id: made }, bearer: token })
        expectStatus(read, 200)
        expectEqual(
          (read.body as { id?: unknown } | undefined)?.id,
          made,
          'the subscription made with the replaced token, read with the refreshed one',
          read,
        )
      } finally {
        await t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id: made }, bearer: token })
      }
    },
  )

  check(
    {
      id: 'EX-ID-004',
      spec: 'sales',
      section: '§5',
      requirement:
        'The access token a refresh replaced is answered as the profile says ' +
        '(extensions.exercise.oldTokenAfterRefresh: accepted until its exp by default, or refused at once).',
    },
    async (c) => {
      if (x.oldTokenAfterRefresh === 'unspecified')
        return c.notApplicable('the profile leaves extensions.exercise.oldTokenAfterRefresh unspecified')
      // a login and refresh of its own, the replaced token used at once: a short token lifetime cannot end it first
      const { access, refresh } = await given('a login and a refresh of its token', loginAndRefresh)
      await given('the refresh succeeded', async () => expectStatus(refresh, 200, { owner: 'EX-ID-002' }))
      const res = await t.webhooks.call({ op: 'webhooks.events.list', bearer: access })
      expectStatus(res, x.oldTokenAfterRefresh === 'accepted' ? 200 : 401)
    },
  )
})
