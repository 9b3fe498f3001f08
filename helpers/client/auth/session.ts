import type { TargetConfig, UserCredentials } from '../../../common/config/types'
import { getPointer } from '../data/json-pointer'
import type { HttpResult } from '../http/types'
import type { Redactor } from '../evidence/redact'
import { inspectJwt, type JwtInfo } from './jwt'

export type LoginOutcome =
  | { kind: 'token'; token: string; jwt: JwtInfo; pointer: string; result: HttpResult }
  | { kind: 'challenge'; challenge: string; result: HttpResult }
  | { kind: 'rejected'; result: HttpResult }
  | { kind: 'invalid-token'; reason: string; pointer?: string; expired?: true; result: HttpResult }

/** Login did not give a usable token. The message names the user, never the password. */
export class AuthError extends Error {
  constructor(
    message: string,
    readonly outcome: LoginOutcome,
  ) {
    super(message)
    this.name = 'AuthError'
  }
}

/**
 * The options of a session that the target profile gives: where and how to log in, where the token is, when to refresh.
 */
export function profileAuthOptions(
  config: Pick<TargetConfig, 'services' | 'auth'>,
): Pick<AuthSessionOptions, 'authUrl' | 'loginPath' | 'tokenPointers' | 'refreshSkewSeconds'> {
  return {
    authUrl: config.services.authUrl,
    loginPath: config.auth.loginPath,
    tokenPointers: config.auth.tokenPointers,
    refreshSkewSeconds: config.auth.refreshSkewSeconds,
  }
}

export interface AuthSessionOptions {
  authUrl: string
  loginPath: string
  tokenPointers: string[]
  refreshSkewSeconds: number
  redactor: Redactor
  /** Sends the login POST (through the recording client). */
  post: (url: string, json: unknown) => Promise<HttpResult>
  nowSeconds?: () => number
}

interface CachedToken {
  token: string
  exp: number
}

/** Logs in, finds and checks the token, caches it per tenant and user for the run. */
export class AuthSession {
  private readonly cache = new Map<string, Promise<CachedToken>>()
  private readonly now: () => number

  constructor(private readonly options: AuthSessionOptions) {
    this.now = options.nowSeconds ?? (() => Date.now() / 1000)
  }

  loginUrl(tenant: string): string {
    return `${this.options.authUrl}${this.options.loginPath.replace('{tenant}', encodeURIComponent(tenant))}`
  }

  /** One login request, classified. Does not touch the cache. */
  async login(user: UserCredentials): Promise<LoginOutcome> {
    this.options.redactor.addSecret(user.password)
    const result = await this.options.post(this.loginUrl(user.tenant), {
      username: user.username,
      password: user.password,
    })
    const body = result.body as Record<string, unknown> | undefined
    if (result.status >= 400) return { kind: 'rejected', result }
    if (body && typeof body === 'object' && ('challenge_name' in body || 'ChallengeName' in body)) {
      return { kind: 'challenge', challenge: String(body.challenge_name ?? body.ChallengeName), result }
    }
    for (const pointer of this.options.tokenPointers) {
      const token = getPointer(body, pointer)
      if (token === undefined) continue
      this.options.redactor.addSecret(token)
      const check = inspectJwt(token, this.now())
      if (!check.ok)
        return {
          kind: 'invalid-token',
          reason: check.reason,
          pointer,
          ...(check.expired ? { expired: true as const } : {}),
          result,
        }
      const refresh = getPointer(body, pointer.replace(/access_token$/, 'refresh_token'))
      this.options.redactor.addSecret(refresh)
      return { kind: 'token', token: token as string, jwt: check.jwt, pointer, result }
    }
    return { kind: 'invalid-token', reason: `no access token at ${this.options.tokenPointers.join(' or ')}`, result }
  }

  /** A valid token for the user: cached, renewed before exp (minus the skew). */
  async token(user: UserCredentials): Promise<string> {
    const key = `${user.tenant}\u0000${user.username}`
    const cached = this.cache.get(key)
    if (cached) {
      const t = await cached.catch(() => undefined)
      if (t && t.exp - this.options.refreshSkewSeconds > this.now()) return t.token
      if (this.cache.get(key) === cached) this.cache.delete(key)
    }
    const pending = this.fetchToken(user)
    this.cache.set(key, pending)
    pending.catch(() => this.cache.delete(key))
    return (await pending).token
  }

  /** Forgets a token (after a 401) so the next call logs in again. */
  invalidate(user: UserCredentials): void {
    this.cache.delete(`${user.tenant}\u0000${user.username}`)
  }

  private async fetchToken(user: UserCredentials): Promise<CachedToken> {
    const outcome = await this.login(user)
    const who = `user '${user.username}' of tenant '${user.tenant}' at ${this.loginUrl(user.tenant)}`
    switch (outcome.kind) {
      case 'token':
        return { token: outcome.token, exp: outcome.jwt.exp }
      case 'challenge':
        throw new AuthError(
          `Login of ${who} answered with a challenge (${outcome.challenge}) instead of a token; use a user without ` +
            `MFA for the suite`,
          outcome,
        )
      case 'rejected':
        throw new AuthError(
          `Login of ${who} was rejected with HTTP ${outcome.result.status}; check AUTH_USERNAME / AUTH_PASSWORD and ` +
            `TENANT`,
          outcome,
        )
      case 'invalid-token':
        throw new AuthError(`Login of ${who} gave no usable JWT access token: ${outcome.reason}`, outcome)
    }
  }
}
