import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair, type JWTPayload } from 'jose'

/**
 * Tokens the target must refuse, built from a genuine token so that only the property under
 * test differs: signed by a key the target never saw, or unsigned (alg "none").
 */
export async function foreignSignedToken(genuine: string): Promise<string> {
  const payload = decodeJwt(genuine)
  const header = decodeProtectedHeader(genuine)
  const alg = header.alg && ['RS256', 'ES256', 'PS256', 'EdDSA'].includes(header.alg) ? header.alg : 'ES256'
  const { privateKey } = await generateKeyPair(alg)
  return new SignJWT(payload as JWTPayload).setProtectedHeader({ ...header, alg }).sign(privateKey)
}

export function unsignedToken(genuine: string): string {
  const payload = decodeJwt(genuine)
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
  return `${enc({ alg: 'none', typ: 'JWT' })}.${enc(payload)}.`
}

/** A genuine token whose payload was edited (exp pushed a year on): the signature no longer matches. */
export function tamperedToken(genuine: string): string {
  const [h, p, s] = genuine.split('.')
  const payload = JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')) as Record<string, unknown>
  payload.exp = Math.floor(Date.now() / 1000) + 365 * 24 * 3600
  return `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`
}

export const MALFORMED_TOKEN = 'not-a-jwt'
