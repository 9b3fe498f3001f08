import { randomBytes } from 'node:crypto'
import { SignJWT, errors, generateKeyPair, jwtVerify, decodeJwt, type CryptoKey, type JWTPayload } from 'jose'
import type { DefectSet } from './defects/catalogue'
import type { Right } from './demo-data'

export const ISSUER = 'ledger-reference-identity'
export const AUDIENCE = 'ledger-reference'
const ALG = 'ES256'

export interface Principal {
  tenant: string
  username: string
  rights: Right[]
}

export type VerifyResult =
  | { ok: true; principal: Principal }
  | { ok: false; reason: 'malformed' | 'expired' | 'signature' | 'claims' }

/** Signs and verifies the service's JWTs; keeps refresh tokens. One per reference instance. */
export class TokenService {
  private readonly refreshTokens = new Map<string, Principal & { ttl: number; access?: string }>()
  /** Access tokens a refresh revoked (defect exercise-refresh-revokes-old-token). */
  private readonly revoked = new Set<string>()
  /**
   * Tokens whose signature and claims were verified once, or that this service issued, with their payload: a later
   * use only re-checks expiry.
   * An ES256 verification costs more than the rest of a request (a quarter of the service's CPU in a run); the
   * answer for the same token string cannot change except by time. Cleared when it grows past 10 000 tokens.
   */
  private readonly verified = new Map<string, JWTPayload>()

  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    private readonly defects: DefectSet,
  ) {}

  static async create(defects: DefectSet): Promise<TokenService> {
    const { privateKey, publicKey } = await generateKeyPair(ALG)
    return new TokenService(privateKey, publicKey, defects)
  }

  async issue(
    p: Principal,
    ttlSeconds: number,
  ): Promise<{ access_token: string; refresh_token: string; expires_in: number }> {
    const access_token = await new SignJWT({ tenant: p.tenant, rights: p.rights })
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setSubject(p.username)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      // exp is whole seconds: rounded up, a token lives at least its ttl (rounded down, a 1-second token issued at
      // x.999 s expired 1 ms later, and a test that used it at once saw 401 under load)
      .setExpirationTime(Math.ceil(Date.now() / 1000) + ttlSeconds)
      .sign(this.privateKey)
    // a token this service has just signed verifies: its payload is known as verified from the start, so its first use
    // re-checks its expiry only, like every later one (one ES256 verification less per login)
    this.remember(access_token, decodeJwt(access_token))
    const refresh_token = randomBytes(24).toString('base64url')
    this.refreshTokens.set(refresh_token, { ...p, ttl: ttlSeconds, access: access_token })
    return { access_token, refresh_token, expires_in: ttlSeconds }
  }

  refresh(token: string, username: string): (Principal & { ttl: number }) | undefined {
    const p = this.refreshTokens.get(token)
    if (!p || p.username !== username) return undefined
    if (p.access && this.defects.has('exercise-refresh-revokes-old-token')) this.revoked.add(p.access)
    const { access: _access, ...principal } = p
    return principal
  }

  private remember(token: string, payload: JWTPayload): void {
    if (this.verified.size >= 10_000) this.verified.clear()
    this.verified.set(token, payload)
  }

  /**
   * leewaySeconds: how long past exp the token is still accepted (the service's clock tolerance; 0 by default, the
   * expiry-leeway variation and the one-service expiry defects set it).
   */
  async verify(token: string, leewaySeconds = 0): Promise<VerifyResult> {
    if (this.revoked.has(token)) return { ok: false, reason: 'claims' }
    if (this.defects.has('auth-foreign-signature-accepted')) {
      try {
        return toPrincipal(decodeJwt(token))
      } catch {
        return { ok: false, reason: 'malformed' }
      }
    }
    const expiredAccepted = this.defects.has('auth-expired-token-accepted')
    const known = this.verified.get(token)
    if (known) {
      // jose's rule: expired when exp <= now (whole seconds)
      if (
        !expiredAccepted &&
        typeof known.exp === 'number' &&
        known.exp + leewaySeconds <= Math.floor(Date.now() / 1000)
      )
        return { ok: false, reason: 'expired' }
      return toPrincipal(known)
    }
    try {
      const options = {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: [ALG],
        ...(leewaySeconds > 0 ? { clockTolerance: leewaySeconds } : {}),
      }
      const { payload } = await jwtVerify(
        token,
        this.publicKey,
        expiredAccepted ? { ...options, currentDate: new Date(0) } : options,
      )
      this.remember(token, payload)
      return toPrincipal(payload)
    } catch (e) {
      if (e instanceof errors.JWTExpired) return { ok: false, reason: 'expired' }
      if (e instanceof errors.JWSSignatureVerificationFailed) return { ok: false, reason: 'signature' }
      if (e instanceof errors.JWTClaimValidationFailed) return { ok: false, reason: 'claims' }
      return { ok: false, reason: 'malformed' }
    }
  }
}

function toPrincipal(payload: JWTPayload): VerifyResult {
  const tenant = payload.tenant
  const rights = payload.rights
  if (typeof payload.sub !== 'string' || typeof tenant !== 'string' || !Array.isArray(rights))
    return { ok: false, reason: 'claims' }
  return { ok: true, principal: { tenant, username: payload.sub, rights: rights as Right[] } }
}
