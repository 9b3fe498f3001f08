import { decodeJwt, decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { foreignSignedToken, tamperedToken, unsignedToken } from '../../../../helpers/client/auth/forge'

async function genuine() {
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  const token = await new SignJWT({ tenant: 'acme' })
    .setProtectedHeader({ alg: 'ES256' })
    .setSubject('u')
    .setExpirationTime('1h')
    .sign(privateKey)
  return { token, publicKey }
}

describe('forged tokens', () => {
  it('a foreign-signed token keeps the claims but fails the issuer key', async () => {
    const g = await genuine()
    const f = await foreignSignedToken(g.token)
    expect(decodeJwt(f)).toEqual(decodeJwt(g.token))
    await expect(jwtVerify(f, g.publicKey)).rejects.toThrow()
    await expect(jwtVerify(g.token, g.publicKey)).resolves.toBeDefined()
  })

  it('an unsigned token has alg none and an empty signature', async () => {
    const g = await genuine()
    const u = unsignedToken(g.token)
    expect(decodeProtectedHeader(u).alg).toBe('none')
    expect(u.endsWith('.')).toBe(true)
  })

  it('a tampered token changes exp and so fails verification', async () => {
    const g = await genuine()
    const t = tamperedToken(g.token)
    expect(decodeJwt(t).exp).not.toBe(decodeJwt(g.token).exp)
    await expect(jwtVerify(t, g.publicKey)).rejects.toThrow()
  })
})
