import type { SuiteContext } from '../context'
import { getPointer } from '../data/json-pointer'
import { inspectJwt } from './jwt'

/** A short-lived user's token, taken early in a file and used once it has expired (never printed). */
export interface ExpiringToken {
  token: string
  /** Expiry, epoch seconds. */
  exp: number
}

/** The leeway past exp within which a target may still accept a token (profile auth.expiryLeewaySeconds; default 0). */
export function expiryLeewaySeconds(t: SuiteContext): number {
  const v = (t.config.auth as { expiryLeewaySeconds?: unknown }).expiryLeewaySeconds
  return typeof v === 'number' && v >= 0 ? v : 0
}

/** Logs the profile's users.shortLived in and takes its token; undefined when the profile names no such user or login fails. */
export async function takeShortLivedToken(t: SuiteContext): Promise<ExpiringToken | undefined> {
  const user = t.user('shortLived')
  if (!user) return undefined
  const outcome = await t.auth.login(user)
  const token = t.config.auth.tokenPointers.map((p) => getPointer(outcome.result.body, p)).find((v): v is string => typeof v === 'string')
  const jwt = inspectJwt(token, 0)
  return token && jwt.ok ? { token, exp: jwt.jwt.exp } : undefined
}

/** Milliseconds still to wait until the token is past exp plus the leeway (and one second for whole-second clocks). */
export function msUntilExpired(token: ExpiringToken, leewaySeconds: number, now = Date.now()): number {
  return Math.max(0, (token.exp + leewaySeconds + 1) * 1000 - now)
}
