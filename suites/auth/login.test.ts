import { beforeAll, describe } from 'vitest'
import { expiredTokenAnswer, msUntilExpired } from '../../helpers/client/auth/expiry'
import { inspectJwt } from '../../helpers/client/auth/jwt'
import { check, type CheckContext } from '../../helpers/checks/check'
import { invalidOnPurpose } from '../../helpers/client/http/running-check'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import type { UserCredentials, UserRole } from '../../common/config/types'
import { getPointer } from '../../helpers/client/data/json-pointer'
import { useTarget } from '../../helpers/checks/context'
import type { HttpResult } from '../../helpers/client/http/types'

const t = useTarget()
const primary = t.config.users.primary
const leeway = t.config.auth.expiryLeewaySeconds
const ceiling = t.config.auth.maxExpiryLeewaySeconds
const thorough = t.config.thorough === true
/**
 * --thorough waits for a token to be past exp + the ceiling only when it expires within this many seconds of being
 * taken.
 */
const THOROUGH_EXPIRY_WAIT_SECONDS = 60
/** What a token accepted past exp + the ceiling is beyond. */
const BEYOND_CEILING =
  `beyond any acceptable leeway (auth.maxExpiryLeewaySeconds = ${ceiling} s; RFC 7519 §4.1.4: ` +
  `"some small leeway, usually no more than a few minutes")`
/**
 * The note of a run that did not probe past exp + the ceiling (the same text on both checks: one line in the summary).
 */
const NOT_PROBED =
  `expiry beyond the leeway not probed: this run tried expired tokens only within the leeway; run ` +
  `--thorough probes a short-lived token past exp + auth.maxExpiryLeewaySeconds (${ceiling} s) against both services`

/** A token of an expiring user, as its login gave it (it may have expired already: that is the point). */
type Taken = { role: UserRole; user: UserCredentials; result: HttpResult } & (
  | { token: string; exp: number }
  | { error: string }
)

/**
 * The expired-token checks' tokens, taken when the file starts and tried at its end (AUTH-TOKEN-001/002): the
 * short-lived token expires while the other checks run, so its lifetime is not waited for inline, and the leeway
 * never is: beyond-the-leeway uses a user whose tokens are issued already expired (users.expired).
 */
const taken: { tokens?: Promise<Taken[]>; beyond?: Promise<Beyond> } = {}
beforeAll(() => {
  taken.tokens = Promise.all((['shortLived', 'expired'] as const).map((role) => take(role))).then((l) =>
    l.filter((x): x is Taken => x !== undefined),
  )
  taken.tokens.catch(() => undefined) // reported by the checks that await it
  // --thorough: in the background from the file's start (the start of the run), judged by the checks at the file's end
  if (thorough) {
    taken.beyond = taken.tokens.then(probeBeyondCeiling)
    taken.beyond.catch(() => undefined)
  }
})

/** What both services did with a token past exp + the ceiling (--thorough), or why it was not probed. */
type Beyond =
  | { kind: 'probed'; role: UserRole; exp: number; sentAt: number; answers: Record<'webhooks' | 'sales', HttpResult> }
  | { kind: 'not-probed'; reason: string }

/**
 * Waits until the earliest-expiring token is past exp + the ceiling (at most the ceiling plus a minute), then tries it
 * on both services at once.
 */
async function probeBeyondCeiling(tokens: Taken[]): Promise<Beyond> {
  const usable = tokens
    .filter((tk): tk is Extract<Taken, { token: string }> => 'token' in tk)
    .sort((a, b) => a.exp - b.exp)
  const tk = usable[0]
  if (!tk)
    return {
      kind: 'not-probed',
      reason:
        'the profile names no users.shortLived (tokens that expire within seconds) nor users.expired whose login ' +
        'gives a JWT with an exp',
    }
  const wait = msUntilExpired(tk.exp + ceiling, Date.now(), 1000)
  if (wait > (ceiling + THOROUGH_EXPIRY_WAIT_SECONDS) * 1000) {
    return {
      kind: 'not-probed',
      reason:
        `the token of users.${tk.role} lives ${Math.round(wait / 1000) - ceiling} s more; past exp ` +
        `+ ${ceiling} s is beyond what --thorough waits (tokens that expire within ${THOROUGH_EXPIRY_WAIT_SECONDS} ` +
        `s of login: users.shortLived)`,
    }
  }
  if (wait > 0) await new Promise((r) => setTimeout(r, wait))
  const sentAt = Date.now()
  const [webhooks, sales] = await Promise.all([
    t.webhooks.call({ op: 'webhooks.subscriptions.list', bearer: tk.token }),
    t.sales.call({
      op: 'sales.schemes.get',
      params: { type: 'policy', name: t.config.product },
      bearer: tk.token,
      tenant: tk.user.tenant,
    }),
  ])
  return { kind: 'probed', role: tk.role, exp: tk.exp, sentAt, answers: { webhooks, sales } }
}

async function take(role: UserRole): Promise<Taken | undefined> {
  const user = t.user(role)
  if (!user) return undefined
  const outcome = await t.auth.login(user)
  const token = t.config.auth.tokenPointers
    .map((p) => getPointer(outcome.result.body, p))
    .find((v) => typeof v === 'string') as string | undefined
  const jwt = inspectJwt(token, 0)
  return jwt.ok
    ? { role, user, result: outcome.result, token: token!, exp: jwt.jwt.exp }
    : { role, user, result: outcome.result, error: jwt.reason }
}

/**
 * Each expiring user's token, once past its exp, is refused by the service; accepted within the leeway is a deviation.
 */
async function expiredTokensRefused(c: CheckContext, service: 'webhooks' | 'sales'): Promise<void> {
  const tokens = (await taken.tokens) ?? []
  if (tokens.length === 0)
    return c.notApplicable(
      'the profile names no users.shortLived (tokens that expire within seconds) nor users.expired (tokens issued ' +
        'already expired)',
    )
  // whether a token was tried past exp + the ceiling on the way (users.expired issued long expired): no wait needed
  let beyondCeiling = false
  for (const tk of tokens) {
    if ('error' in tk)
      return expectThat(false, { expected: `a JWT with an exp for users.${tk.role}`, actual: tk.error, res: tk.result })
    const wait = msUntilExpired(tk.exp, Date.now())
    expectThat(wait < 20_000, {
      expected: `users.${tk.role}: a token that expires within 20 s`,
      actual: `${Math.round(wait / 1000)} s`,
    })
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    const sentAt = Date.now()
    const res =
      service === 'webhooks'
        ? await t.webhooks.call({ op: 'webhooks.subscriptions.list', bearer: tk.token })
        : await t.sales.call({
            op: 'sales.schemes.get',
            params: { type: 'policy', name: t.config.product },
            bearer: tk.token,
            tenant: tk.user.tenant,
          })
    const a = expiredTokenAnswer(res, tk.exp, sentAt, leeway)
    if (sentAt / 1000 - tk.exp > ceiling) beyondCeiling = true
    if (a.kind === 'within-leeway') {
      await c.deviation({
        id: 'token-expiry-leeway',
        message:
          `the ${service} service accepted a token of users.${tk.role} ${a.pastSeconds} s past its exp, ` +
          `within the leeway of ${leeway} s (auth.expiryLeewaySeconds)`,
        policy: t.config.deviations['token-expiry-leeway'] ?? 'warn',
      })
      continue
    }
    expectThat(a.kind !== 'beyond-leeway', {
      expected:
        a.kind === 'beyond-leeway' && a.pastSeconds > ceiling
          ? `status 401 for a token of users.${tk.role} ${a.pastSeconds} s past its exp, ${BEYOND_CEILING}`
          : `status 401 for a token of users.${tk.role} ${a.kind === 'beyond-leeway' ? a.pastSeconds : ''} s past ` +
            `its exp (beyond the leeway of ${leeway} s)`,
      actual: `status ${res.status}: accepted`,
      status: 401,
      res,
    })
    expectStatus(res, 401)
  }
  if (beyondCeiling) return
  if (!taken.beyond) return c.note(NOT_PROBED)
  const beyond = await taken.beyond
  if (beyond.kind === 'not-probed')
    return c.notApplicable(`expiry beyond the leeway not probed (--thorough): ${beyond.reason}`)
  const res = beyond.answers[service]
  const a = expiredTokenAnswer(res, beyond.exp, beyond.sentAt, ceiling)
  expectThat(a.kind !== 'beyond-leeway', {
    expected:
      `status 401 for a token of users.${beyond.role} ${a.kind === 'beyond-leeway' ? a.pastSeconds : ''} s ` +
      `past its exp, ${BEYOND_CEILING}`,
    actual: `status ${res.status}: accepted`,
    res,
  })
  expectStatus(res, 401)
}

/** --thorough: the expired-token checks wait for the background probe past exp + the ceiling. */
const TOKEN_CHECK_OPTIONS = thorough ? { timeout: (ceiling + THOROUGH_EXPIRY_WAIT_SECONDS + 60) * 1000 } : {}

describe('identity: login (sales-service.md §5)', () => {
  check(
    {
      id: 'AUTH-LOGIN-001',
      spec: 'sales',
      section: '§5',
      requirement:
        'A login with username and password for a tenant returns an access_token that is a JWT with a future exp.',
    },
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
    {
      id: 'AUTH-LOGIN-002',
      spec: 'sales',
      section: '§5',
      requirement: 'A login with a wrong password is rejected with 401 and returns no token.',
    },
    async () => {
      const res = await t.identity.call({
        method: 'POST',
        path: t.config.auth.loginPath,
        params: { tenant: primary.tenant },
        json: { username: primary.username, password: `${primary.password}-wrong` },
        as: 'anonymous',
      })
      expectStatus(res, 401)
      const token = t.config.auth.tokenPointers.map((p) => getPointer(res.body, p)).find((v) => v !== undefined)
      expectThat(token === undefined, { expected: 'no access token in the response', actual: 'an access token', res })
    },
  )

  check(
    {
      id: 'AUTH-LOGIN-003',
      spec: 'sales',
      section: '§5',
      requirement: 'A login for an unknown user is rejected with 401.',
    },
    async () => {
      const res = await t.identity.call({
        method: 'POST',
        path: t.config.auth.loginPath,
        params: { tenant: primary.tenant },
        json: { username: `nobody-${t.config.runId}@example.invalid`, password: primary.password },
        as: 'anonymous',
      })
      expectStatus(res, 401)
    },
  )

  check(
    {
      id: 'AUTH-LOGIN-004',
      spec: 'sales',
      section: '§5',
      requirement: 'The access token from login is accepted as the bearer token of the services.',
    },
    async () => {
      const res = await t.webhooks.call({ op: 'webhooks.events.list' })
      expectThat(res.status !== 401 && res.status !== 403, {
        expected: 'the call to be authorised (not 401/403)',
        actual: `status ${res.status}`,
        res,
      })
    },
  )

  check(
    {
      id: 'AUTH-LOGIN-005',
      spec: 'sales',
      section: '§5',
      requirement:
        'A login response carries the token as a JWT: three base64url parts, a JSON header with alg, a numeric exp.',
    },
    async () => {
      const outcome = await t.auth.login(primary)
      const token =
        outcome.kind === 'token'
          ? outcome.token
          : t.config.auth.tokenPointers.map((p) => getPointer(outcome.result.body, p)).find(Boolean)
      const jwt = inspectJwt(token)
      expectThat(jwt.ok, { expected: 'a well-formed JWT', actual: jwt.ok ? 'ok' : jwt.reason, res: outcome.result })
    },
  )
})

describe('identity: token validity (sales-service.md §5)', () => {
  check(
    {
      id: 'AUTH-TENANT-001',
      spec: 'sales',
      section: '§5',
      requirement:
        "A token issued for one tenant does not open another tenant's sales data (the tenant header names another " +
        'tenant).',
    },
    async (c) => {
      const other = t.user('otherTenant')
      if (!other) return c.notApplicable(t.missingUser('otherTenant'))
      const res = await t.sales.call({
        op: 'sales.schemes.get',
        params: { type: 'policy', name: t.config.product },
        tenant: other.tenant,
      })
      expectStatus(res, [401, 403])
    },
  )

  check(
    {
      id: 'AUTH-TENANT-002',
      spec: 'sales',
      section: '§5',
      requirement: 'A sales request without the tenant header is refused with a 4xx.',
    },
    async () => {
      const res = await invalidOnPurpose('the tenant header is left out', () =>
        t.sales.call({ op: 'sales.schemes.get', params: { type: 'policy', name: t.config.product }, tenant: null }),
      )
      expectStatus(res, '4xx')
    },
  )

  // last in the file: the short-lived token was taken when the file started, so it has (nearly) expired by now
  check(
    {
      id: 'AUTH-TOKEN-001',
      spec: 'sales',
      section: '§5',
      requirement:
        `The webhook service refuses an expired token with 401 (accepted up to auth.expiryLeewaySeconds ` +
        `= ${leeway} s past exp: the deviation token-expiry-leeway; never past exp + auth.maxExpiryLeewaySeconds ` +
        `= ${ceiling} s, probed with --thorough).`,
    },
    (c) => expiredTokensRefused(c, 'webhooks'),
    TOKEN_CHECK_OPTIONS,
  )

  check(
    {
      id: 'AUTH-TOKEN-002',
      spec: 'sales',
      section: '§5',
      requirement:
        `The sales service refuses an expired token with 401 (accepted up to auth.expiryLeewaySeconds ` +
        `= ${leeway} s past exp: the deviation token-expiry-leeway; never past exp + auth.maxExpiryLeewaySeconds ` +
        `= ${ceiling} s, probed with --thorough).`,
    },
    (c) => expiredTokensRefused(c, 'sales'),
    TOKEN_CHECK_OPTIONS,
  )
})
