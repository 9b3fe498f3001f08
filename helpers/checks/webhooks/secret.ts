import { getPointer } from '../../client/data/json-pointer'

/** The HMAC key of a subscription: a string secret is the key; an object secret holds it at the pointer. */
export function secretKey(secret: unknown, pointer: string): string | undefined {
  if (typeof secret === 'string') return secret.length > 0 ? secret : undefined
  if (secret !== null && typeof secret === 'object') {
    const v = getPointer(secret, pointer)
    return typeof v === 'string' && v.length > 0 ? v : undefined
  }
  return undefined
}

/** What the secret of a subscription is, against §2 ("declared as object"). */
export type SecretShape = 'object' | 'string' | 'missing' | 'other'

export function secretShape(subscription: unknown): SecretShape {
  if (subscription === null || typeof subscription !== 'object' || !('secret' in subscription)) return 'missing'
  const s = (subscription as { secret: unknown }).secret
  if (typeof s === 'string') return 'string'
  if (s !== null && typeof s === 'object' && !Array.isArray(s)) return 'object'
  return 'other'
}

/**
 * A copy of a subscription (or list of them) where a string secret is replaced by an empty object,
 * so the faithful contract checks everything else; the string secret itself is the named deviation
 * webhook-secret-type, reported by its own check.
 */
export function withoutStringSecrets(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withoutStringSecrets)
  if (body !== null && typeof body === 'object' && typeof (body as { secret?: unknown }).secret === 'string') {
    return { ...(body as object), secret: {} }
  }
  return body
}
