import { describe } from 'vitest'
import { inspectJwt } from '../../helpers/auth/jwt'
import { check } from '../../helpers/checks/check'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { getPointer } from '../../helpers/data/json-pointer'
import { useTarget } from '../../helpers/context'

const t = useTarget()
const primary = t.config.users.primary

describe('identity: login (sales-service.md §5)', () => {
  check(
    { id: 'AUTH-LOGIN-001', spec: 'sales', section: '§5', requirement: 'A login with username and password for a tenant returns an access_token that is a JWT with a future exp.' },
    async () => {
      const outcome = await t.auth.login(primary)
      expectThat(outcome.kind === 'token', {
        expected: `a JWT access token at ${t.config.auth.tokenPointers.join(' or ')}`,
        actual: outcome.kind === 'invalid-token' ? outcome.reason : outcome.kind,
        res: outcome.result,
      })
    },
  )

  check(
    { id: 'AUTH-LOGIN-002', spec: 'sales', section: '§5', requirement: 'A login with a wrong password is rejected with 401 and returns no token.' },
    async () => {
      const res = await t.identity.call({ method: 'POST', path: t.config.auth.loginPath, params: { tenant: primary.tenant }, json: { username: primary.username, password: `${primary.password}-wrong` }, as: 'anonymous' })
      expectStatus(res, 401)
      const token = t.config.auth.tokenPointers.map((p) => getPointer(res.body, p)).find((v) => v !== undefined)
      expectThat(token === undefined, { expected: 'no access token in the response', actual: 'an access token', res })
    },
  )

  check(
    { id: 'AUTH-LOGIN-003', spec: 'sales', section: '§5', requirement: 'A login for an unknown user is rejected with 401.' },
    async () => {
      const res = await t.identity.call({ method: 'POST', path: t.config.auth.loginPath, params: { tenant: primary.tenant }, json: { username: `nobody-${t.config.runId}@example.invalid`, password: primary.password }, as: 'anonymous' })
      expectStatus(res, 401)
    },
  )

  check(
    { id: 'AUTH-LOGIN-004', spec: 'sales', section: '§5', requirement: 'The access token from login is accepted as the bearer token of the services.' },
    async () => {
      const res = await t.webhooks.call({ op: 'webhooks.events.list' })
      expectThat(res.status !== 401 && res.status !== 403, { expected: 'the call to be authorised (not 401/403)', actual: `status ${res.status}`, res })
    },
  )

  check(
    { id: 'AUTH-LOGIN-005', spec: 'sales', section: '§5', requirement: 'A login response carries the token as a JWT: three base64url parts, a JSON header with alg, a numeric exp.' },
    async () => {
      const outcome = await t.auth.login(primary)
      const token = outcome.kind === 'token' ? outcome.token : t.config.auth.tokenPointers.map((p) => getPointer(outcome.result.body, p)).find(Boolean)
      const jwt = inspectJwt(token)
      expectThat(jwt.ok, { expected: 'a well-formed JWT', actual: jwt.ok ? 'ok' : jwt.reason, res: outcome.result })
    },
  )
})

describe('identity: token validity (sales-service.md §5)', () => {
  check(
    { id: 'AUTH-TOKEN-001', spec: 'sales', section: '§5', requirement: 'An expired token is rejected with 401.' },
    async (c) => {
      const user = t.user('shortLived')
      if (!user) return c.notApplicable('the profile names no users.shortLived (a user whose tokens expire within seconds)')
      const outcome = await t.auth.login(user)
      // the token may already have expired when it is inspected (that is the point): take it as it came
      const token = t.config.auth.tokenPointers.map((p) => getPointer(outcome.result.body, p)).find((v) => typeof v === 'string') as string | undefined
      const jwt = inspectJwt(token, 0)
      expectThat(jwt.ok, { expected: 'a JWT for the short-lived user', actual: jwt.ok ? 'ok' : jwt.reason, res: outcome.result })
      const waitMs = Math.max(0, jwt.jwt.exp * 1000 - Date.now()) + 1100
      expectThat(waitMs < 20_000, { expected: 'a token that expires within 20 s', actual: `${Math.round(waitMs / 1000)} s` })
      await new Promise((r) => setTimeout(r, waitMs))
      const res = await t.webhooks.call({ op: 'webhooks.subscriptions.list', bearer: token! })
      expectStatus(res, 401)
    },
  )

  check(
    { id: 'AUTH-TENANT-001', spec: 'sales', section: '§5', requirement: "A token issued for one tenant does not open another tenant's sales data (the tenant header names another tenant)." },
    async (c) => {
      const other = t.user('otherTenant')
      if (!other) return c.notApplicable('the profile names no users.otherTenant')
      const res = await t.sales.call({ op: 'sales.schemes.get', params: { type: 'policy', name: t.config.product }, tenant: other.tenant })
      expectStatus(res, [401, 403])
    },
  )

  check(
    { id: 'AUTH-TENANT-002', spec: 'sales', section: '§5', requirement: 'A sales request without the tenant header is refused with a 4xx.' },
    async () => {
      const res = await t.sales.call({ op: 'sales.schemes.get', params: { type: 'policy', name: t.config.product }, tenant: null })
      expectStatus(res, '4xx')
    },
  )
})
