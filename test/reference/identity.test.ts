import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { foreignSignedToken } from '../../helpers/client/auth/forge'
import { inspectJwt } from '../../helpers/client/auth/jwt'
import { DEMO_PASSWORD } from '../../reference/demo-data'
import { startReference, type RunningReference } from '../../reference/server'

let ref: RunningReference

async function call(
  method: 'GET' | 'POST',
  path: string,
  opts: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await request(`${ref.url}${path}`, {
    method,
    headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  })
  const text = await res.body.text()
  return {
    status: res.statusCode,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, any>) : undefined,
  }
}

async function login(username = 'broker@acme.test', tenant = 'acme') {
  return call('POST', `/api/v1/identifier/login/${tenant}`, { body: { username, password: DEMO_PASSWORD } })
}

beforeAll(async () => {
  ref = await startReference({ port: 0 })
})
afterAll(async () => ref.close())

describe('reference identity service', () => {
  it('login returns a signed JWT with tenant, subject and rights', async () => {
    const r = await login()
    expect(r.status).toBe(200)
    const result = r.body!.authentication_result
    expect(result.token_type).toBe('Bearer')
    expect(result.expires_in).toBe(3600)
    const jwt = inspectJwt(result.access_token)
    expect(jwt.ok && jwt.jwt.payload).toMatchObject({
      sub: 'broker@acme.test',
      tenant: 'acme',
      rights: expect.arrayContaining(['schemes:full']),
    })
  })

  it('bad credentials, an unknown tenant and a missing body get 401/400', async () => {
    expect(
      (await call('POST', '/api/v1/identifier/login/acme', { body: { username: 'broker@acme.test', password: 'x' } }))
        .status,
    ).toBe(401)
    expect((await login('broker@acme.test', 'nope')).status).toBe(401)
    expect((await call('POST', '/api/v1/identifier/login/acme', { body: {} })).status).toBe(400)
  })

  it('the MFA user gets a challenge instead of a token', async () => {
    const r = await login('mfa@acme.test')
    expect(r.body).toMatchObject({ challenge_name: 'SOFTWARE_TOKEN_MFA' })
    expect(r.body!.authentication_result).toBeUndefined()
  })

  it('refresh issues a new access token for the same user only', async () => {
    const r = await login()
    const refresh = r.body!.authentication_result.refresh_token as string
    const ok = await call('POST', '/api/v1/identifier/token/refresh/acme', {
      body: { refresh_token: refresh, username: 'broker@acme.test' },
    })
    expect(ok.status).toBe(200)
    expect(inspectJwt(ok.body!.authentication_result.access_token).ok).toBe(true)
    const wrong = await call('POST', '/api/v1/identifier/token/refresh/acme', {
      body: { refresh_token: refresh, username: 'viewer@acme.test' },
    })
    expect(wrong.status).toBe(401)
  })
})

describe('reference auth guard', () => {
  const path = '/api/v1/ledger/requests/some-id'

  it('a missing, malformed or foreign token gets 401 with WWW-Authenticate', async () => {
    const token = (await login()).body!.authentication_result.access_token as string
    for (const authorization of [
      undefined,
      'Bearer not-a-jwt',
      `Bearer ${await foreignSignedToken(token)}`,
      `Basic ${token}`,
    ]) {
      const r = await call('GET', path, {
        headers: { 'x-tenant-id': 'acme', ...(authorization ? { authorization } : {}) },
      })
      expect(r.status, String(authorization).slice(0, 20)).toBe(401)
      expect(r.headers['www-authenticate']).toMatch(/^Bearer/)
    }
  })

  it('the tenant header is required on sales routes and must match the token', async () => {
    const authorization = `Bearer ${(await login()).body!.authentication_result.access_token as string}`
    expect((await call('GET', path, { headers: { authorization } })).status).toBe(400)
    expect((await call('GET', path, { headers: { authorization, 'x-tenant-id': 'globex' } })).status).toBe(403)
    expect((await call('GET', path, { headers: { authorization, 'x-tenant-id': 'acme' } })).status).not.toBe(401)
  })

  it('webhook routes need a token but no tenant header', async () => {
    const authorization = `Bearer ${(await login()).body!.authentication_result.access_token as string}`
    expect((await call('GET', '/api/webhook/subscriptions')).status).toBe(401)
    expect((await call('GET', '/api/webhook/subscriptions', { headers: { authorization } })).status).not.toBe(401)
  })

  it('an expired token gets 401, also one that was accepted before it expired', async () => {
    const token = (await login('shortlived@acme.test')).body!.authentication_result.access_token as string
    expect(
      (await call('GET', '/api/webhook/subscriptions', { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200)
    await new Promise((r) => setTimeout(r, 2100))
    expect(
      (await call('GET', '/api/webhook/subscriptions', { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(401)
  })

  it('expired@acme.test gets tokens already expired (by 120 s): refused at once by both services', async () => {
    const token = (await login('expired@acme.test')).body!.authentication_result.access_token as string
    const jwt = inspectJwt(token, 0)
    expect(jwt.ok && jwt.jwt.exp <= Date.now() / 1000 - 100).toBe(true)
    const authorization = `Bearer ${token}`
    expect((await call('GET', '/api/webhook/subscriptions', { headers: { authorization } })).status).toBe(401)
    expect(
      (
        await call('GET', '/api/v1/ledger/schemes/policy/regular/home', {
          headers: { authorization, 'x-tenant-id': 'acme' },
        })
      ).status,
    ).toBe(401)
  })

  it(
    'a clock tolerance (expiryLeewaySeconds) and the one-service expiry defects accept expired tokens where they ' +
      'say',
    async () => {
      const lenient = await startReference({ port: 0, expiryLeewaySeconds: 300, defects: [] })
      const salesOnly = await startReference({ port: 0, defects: ['auth-sales-expired-token-accepted'] })
      const hookHour = await startReference({ port: 0, defects: ['auth-webhooks-expiry-leeway-hour'] })
      try {
        const ask = async (r: RunningReference) => {
          const res = await request(`${r.url}/api/v1/identifier/login/acme`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'expired@acme.test', password: DEMO_PASSWORD }),
          })
          const token = ((await res.body.json()) as any).authentication_result.access_token as string
          const status = async (path: string, headers: Record<string, string> = {}) =>
            await request(`${r.url}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } }).then(
              async (x) => (await x.body.text(), x.statusCode),
            )
          return [
            await status('/api/webhook/subscriptions'),
            await status('/api/v1/ledger/schemes/policy/regular/home', { 'x-tenant-id': 'acme' }),
          ]
        }
        expect(await ask(lenient)).toEqual([200, 200]) // 240 s past exp, within 300 s
        expect(await ask(salesOnly)).toEqual([401, 200])
        expect(await ask(hookHour)).toEqual([200, 401])
      } finally {
        await Promise.all([lenient.close(), salesOnly.close(), hookHour.close()])
      }
    },
  )

  it('health answers without a token', async () => {
    expect((await call('GET', '/health')).body).toMatchObject({ status: 'ok' })
  })
})
