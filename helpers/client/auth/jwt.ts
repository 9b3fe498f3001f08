export interface JwtInfo {
  header: Record<string, unknown>
  payload: Record<string, unknown>
  /** Expiry in epoch seconds. */
  exp: number
}

/** expired: a well-formed JWT whose exp has passed (any other reason: not a well-formed JWT). */
export type JwtInspection = { ok: true; jwt: JwtInfo } | { ok: false; reason: string; expired?: true }

const B64URL = /^[A-Za-z0-9_-]+$/

function decodePart(part: string, name: string): Record<string, unknown> | string {
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return `the ${name} is not a JSON object`
    return v as Record<string, unknown>
  } catch {
    return `the ${name} is not base64url-encoded JSON`
  }
}

/**
 * Checks that a value is a JWT: three base64url parts, a JSON header with alg,
 * a JSON payload with a numeric exp in the future. The signature is not verified
 * (only the issuer can). Reasons never include the token itself.
 */
export function inspectJwt(token: unknown, nowSeconds = Date.now() / 1000): JwtInspection {
  if (typeof token !== 'string' || token.length === 0)
    return { ok: false, reason: 'the access token is not a non-empty string' }
  const parts = token.split('.')
  if (parts.length !== 3) return { ok: false, reason: `a JWT has 3 dot-separated parts, this has ${parts.length}` }
  if (!parts.every((p, i) => (i === 2 ? p === '' || B64URL.test(p) : B64URL.test(p))))
    return { ok: false, reason: 'a part is not base64url' }
  const header = decodePart(parts[0]!, 'header')
  if (typeof header === 'string') return { ok: false, reason: header }
  if (typeof header.alg !== 'string') return { ok: false, reason: 'the header has no alg' }
  const payload = decodePart(parts[1]!, 'payload')
  if (typeof payload === 'string') return { ok: false, reason: payload }
  if (typeof payload.exp !== 'number') return { ok: false, reason: 'the payload has no numeric exp' }
  if (payload.exp <= nowSeconds)
    return { ok: false, reason: `the token expired at ${new Date(payload.exp * 1000).toISOString()}`, expired: true }
  return { ok: true, jwt: { header, payload, exp: payload.exp } }
}
