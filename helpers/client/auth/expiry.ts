import type { HttpResult } from '../http/types'

/**
 * Expired tokens and the clock-skew leeway (RFC 7519 §4.1.4: a token MUST NOT be accepted on or after its exp,
 * "implementers MAY provide for some small leeway"). Never asserts: the checks decide.
 */

/** What a service did with a token past its exp, asked at a known time. */
export type ExpiredTokenAnswer =
  | { kind: 'refused' }
  /** accepted, at most leewaySeconds past exp: the deviation token-expiry-leeway */
  | { kind: 'within-leeway'; pastSeconds: number }
  /** accepted, more than leewaySeconds past exp: a failure */
  | { kind: 'beyond-leeway'; pastSeconds: number }
  /** neither 401 nor 2xx */
  | { kind: 'other'; status: number }

/**
 * Classifies an answer to a request sent at sentAtMs with a token whose exp (epoch seconds) had passed. The time of
 * sending is the earliest the service can have checked the token, so the seconds past exp are never overstated.
 */
export function expiredTokenAnswer(
  res: Pick<HttpResult, 'status'>,
  exp: number,
  sentAtMs: number,
  leewaySeconds: number,
): ExpiredTokenAnswer {
  if (res.status === 401) return { kind: 'refused' }
  if (res.status < 200 || res.status >= 300) return { kind: 'other', status: res.status }
  const pastSeconds = Math.max(0, Math.round((sentAtMs / 1000 - exp) * 10) / 10)
  return pastSeconds <= leewaySeconds ? { kind: 'within-leeway', pastSeconds } : { kind: 'beyond-leeway', pastSeconds }
}

/**
 * How long to wait, from nowMs, until a token with this exp is expired by the issuer's rule (expired when
 * exp <= now), plus a small margin. Zero when it already is. Taken early, a short-lived token needs little or no
 * wait when it is tried late; a target whose clock runs behind may still accept it, which the leeway covers.
 */
export function msUntilExpired(exp: number, nowMs: number, marginMs = 50): number {
  return Math.max(0, exp * 1000 + marginMs - nowMs)
}
