import type { TargetConfig, UserCredentials, UserRole } from '../../../common/config/types'
import { getPointer } from '../data/json-pointer'
import { inspectJwt } from './jwt'
import type { AuthSession } from './session'

/** What taking a token needs of a suite's context (helpers/checks/context.ts SuiteContext has it). */
export interface TokenSource {
  config: Pick<TargetConfig, 'auth'>
  auth: Pick<AuthSession, 'login'>
  user(role: UserRole): UserCredentials | undefined
}

/** A token past its exp (plus the leeway), for the scoping probes (never printed). */
export interface ExpiringToken {
  token: string
  /** Expiry, epoch seconds. */
  exp: number
}

/** The leeway past exp within which a target may still accept a token (profile auth.expiryLeewaySeconds). */
export function expiryLeewaySeconds(t: Pick<TokenSource, 'config'>): number {
  const v = t.config.auth.expiryLeewaySeconds
  return typeof v === 'number' && v >= 0 ? v : 0
}

/**
 * A token that is (or soon will be) past its exp plus the leeway: the profile's users.expired (tokens issued already
 * expired, no wait), else users.shortLived (tokens that expire within seconds; taken early, it expires while the file
 * runs). Undefined when the profile names neither or the login gives no token.
 */
export async function takeExpiredToken(t: TokenSource): Promise<ExpiringToken | undefined> {
  for (const role of ['expired', 'shortLived'] as const) {
    const user = t.user(role)
    if (!user) continue
    const outcome = await t.auth.login(user)
    const token = t.config.auth.tokenPointers
      .map((p) => getPointer(outcome.result.body, p))
      .find((v): v is string => typeof v === 'string')
    const jwt = inspectJwt(token, 0)
    if (token && jwt.ok) return { token, exp: jwt.jwt.exp }
  }
  return undefined
}

/** Milliseconds still to wait until the token is past exp plus the leeway (and one second for whole-second clocks). */
export function msUntilExpired(token: ExpiringToken, leewaySeconds: number, now = Date.now()): number {
  return Math.max(0, (token.exp + leewaySeconds + 1) * 1000 - now)
}
