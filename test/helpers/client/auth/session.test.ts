import { describe, expect, it } from 'vitest'
import { AuthError, AuthSession } from '../../../../helpers/client/auth/session'
import type { HttpResult } from '../../../../helpers/client/http/types'
import { Redactor } from '../../../../helpers/client/evidence/redact'

const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
const jwt = (exp: number, n = 0) => `${enc({ alg: 'ES256' })}.${enc({ sub: 'u', exp, n })}.c2ln`
const user = { tenant: 'acme', username: 'broker@acme.test', password: 'demo-pass-4821' }

function reply(status: number, body: unknown): HttpResult {
  const text = JSON.stringify(body)
  return {
    status,
    headers: {},
    body,
    raw: Buffer.from(text),
    text,
    contentType: 'application/json',
    durationMs: 1,
    request: { method: 'POST', url: 'http://x', headers: {} },
  }
}

function session(
  replies: (() => HttpResult)[],
  now = () => 1000,
  pointers = ['/authentication_result/access_token', '/access_token'],
) {
  const calls: { url: string; json: unknown }[] = []
  const redactor = new Redactor()
  const s = new AuthSession({
    authUrl: 'http://id.test/api/v1/identifier',
    loginPath: '/login/{tenant}',
    tokenPointers: pointers,
    refreshSkewSeconds: 30,
    redactor,
    nowSeconds: now,
    post: async (url, json) => {
      calls.push({ url, json })
      return replies[Math.min(calls.length - 1, replies.length - 1)]!()
    },
  })
  return { s, calls, redactor }
}

describe('AuthSession', () => {
  it('logs in at {authUrl}/login/{tenant} and finds the token at the first matching pointer', async () => {
    const { s, calls } = session([() => reply(200, { access_token: jwt(5000) })])
    expect(await s.token(user)).toBe(jwt(5000))
    expect(calls[0]).toEqual({
      url: 'http://id.test/api/v1/identifier/login/acme',
      json: { username: user.username, password: user.password },
    })
  })

  it('caches the token per tenant and user, and logs in again before exp', async () => {
    let now = 1000
    const { s, calls } = session(
      [() => reply(200, { authentication_result: { access_token: jwt(2000, calls.length) } })],
      () => now,
    )
    const a = await s.token(user)
    expect(await s.token(user)).toBe(a)
    expect(calls).toHaveLength(1)
    await s.token({ ...user, tenant: 'globex' })
    expect(calls).toHaveLength(2)
    now = 1980 // within the 30 s skew of exp
    expect(await s.token(user)).not.toBe(a)
    expect(calls).toHaveLength(3)
  })

  it('logs in again after invalidate (used on a 401)', async () => {
    const { s, calls } = session([() => reply(200, { access_token: jwt(5000, calls.length) })])
    await s.token(user)
    s.invalidate(user)
    await s.token(user)
    expect(calls).toHaveLength(2)
  })

  it('reports a challenge instead of a token as such', async () => {
    const { s } = session([() => reply(200, { challenge_name: 'SOFTWARE_TOKEN_MFA', challenge_parameters: {} })])
    const err = await s.token(user).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AuthError)
    expect((err as Error).message).toMatch(/answered with a challenge \(SOFTWARE_TOKEN_MFA\) instead of a token/)
  })

  it('reports a rejected login without the password', async () => {
    const { s } = session([() => reply(401, { message: 'invalid credentials' })])
    const err = (await s.token(user).catch((e: unknown) => e)) as Error
    expect(err.message).toMatch(/rejected with HTTP 401/)
    expect(err.message).not.toContain(user.password)
  })

  it('refuses a token that is not a JWT or has expired, naming the pointer', async () => {
    const { s } = session([() => reply(200, { access_token: 'opaque-token' })])
    await expect(s.token(user)).rejects.toThrow(/no usable JWT access token: a JWT has 3 dot-separated parts/)
    const expired = session([() => reply(200, { access_token: jwt(10) })])
    await expect(expired.s.token(user)).rejects.toThrow(/expired/)
    const missing = session([() => reply(200, { token: jwt(5000) })])
    await expect(missing.s.token(user)).rejects.toThrow(
      /no access token at \/authentication_result\/access_token or \/access_token/,
    )
  })

  it('uses the profile pointer when given', async () => {
    const { s } = session([() => reply(200, { data: { jwt: jwt(5000) } })], () => 1000, ['/data/jwt'])
    expect(await s.token(user)).toBe(jwt(5000))
  })

  it('registers the password and tokens as secrets', async () => {
    const { s, redactor } = session([
      () => reply(200, { authentication_result: { access_token: jwt(5000), refresh_token: 'refresh-abc-123' } }),
    ])
    await s.token(user)
    expect(redactor.text(`x ${user.password} refresh-abc-123`)).toBe('x [REDACTED] [REDACTED]')
  })
})
