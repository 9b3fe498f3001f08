import { createHmac } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { startReference, type RunningReference } from '../../reference/server'
import { startTestServer, type TestServer } from '../support/http-server'

const open: { ref?: RunningReference; server?: TestServer }[] = []
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.server?.close()
    await o.ref?.close()
  }
})

async function reference(options: Parameters<typeof startReference>[0] = {}) {
  const ref = await startReference(options)
  open.push({ ref })
  const login = async (tenant: string, username: string) => {
    const res = await fetch(`${ref.url}/api/v1/identifier/login/${tenant}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'demo-pass-4821' }),
    })
    return ((await res.json()) as { authentication_result: { access_token: string } }).authentication_result
      .access_token
  }
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${ref.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    return { status: res.status, body: (await res.json()) as any }
  }
  return { ref, login, call }
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
}

describe('reference webhooks area', () => {
  it('scopes subscriptions to the caller (tenant + username)', async () => {
    const { login, call } = await reference()
    const acme = await login('acme', 'broker@acme.test')
    const globex = await login('globex', 'broker@globex.test')
    const created = await call(acme, 'POST', '/api/webhook/subscription', {
      event: 'export',
      url: 'http://127.0.0.1:9/x',
    })
    expect(created.status).toBe(201)
    expect((await call(acme, 'GET', '/api/webhook/subscriptions')).body.map((s: { id: string }) => s.id)).toEqual([
      created.body.id,
    ])
    expect((await call(globex, 'GET', '/api/webhook/subscriptions')).body).toEqual([])
    expect((await call(globex, 'GET', `/api/webhook/subscription/${created.body.id}`)).status).toBe(404)
  })

  it('sends the secret as an object by default, as a string with secretFormat string', async () => {
    const a = await reference()
    const ta = await a.login('acme', 'broker@acme.test')
    const obj = await a.call(ta, 'POST', '/api/webhook/subscription', { event: 'export', url: 'http://127.0.0.1:9/x' })
    expect(obj.body.secret).toEqual({ algorithm: 'sha256', key: expect.stringMatching(/^[0-9a-f]{64}$/) })
    const b = await reference({ webhooks: { secretFormat: 'string' } })
    const tb = await b.login('acme', 'broker@acme.test')
    const str = await b.call(tb, 'POST', '/api/webhook/subscription', { event: 'export', url: 'http://127.0.0.1:9/x' })
    expect(str.body.secret).toMatch(/^[0-9a-f]{64}$/)
  })

  it("pre-seeds other clients' subscriptions per caller with preexistingSubscriptions", async () => {
    const { login, call } = await reference({ webhooks: { preexistingSubscriptions: 3 } })
    const acme = await login('acme', 'broker@acme.test')
    const list = await call(acme, 'GET', '/api/webhook/subscriptions')
    expect(list.body).toHaveLength(3)
  })

  it('signs a notification as documented and retries a failed delivery with backoff', async () => {
    const server = await startTestServer((_req, res) => {
      res.statusCode = server.requests.length === 1 ? 500 : 204
      res.end()
    })
    const r = await reference()
    open.push({ server })
    const token = await r.login('acme', 'broker@acme.test')
    const sub = await r.call(token, 'POST', '/api/webhook/subscription', {
      event: 'extracted',
      url: `${server.url}/hook`,
    })
    const emitted = await r.call(token, 'POST', '/__reference/webhooks/emit', { event: 'extracted' })
    expect(emitted).toEqual({ status: 202, body: { event: 'extracted', deliveries: 1 } })
    await until(() => server.requests.length >= 2)
    expect(server.requests).toHaveLength(2)
    const [first, second] = server.requests
    expect(second!.headers['x-webhook-id']).toBe(first!.headers['x-webhook-id'])
    const ts = String(second!.headers['x-webhook-timestamp'])
    const mac = createHmac('sha256', sub.body.secret.key).update(`${ts}.${second!.body}`).digest('hex')
    expect(second!.headers['x-webhook-signature']).toBe(`sha256=${mac}`)
    expect(JSON.parse(second!.body)).toMatchObject({ event: 'extracted', subscriptionId: sub.body.id })
  })

  it('the emit control route needs a valid token and a known event type', async () => {
    const { ref, login, call } = await reference()
    const res = await fetch(`${ref.url}/__reference/webhooks/emit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"event":"extracted"}',
    })
    expect(res.status).toBe(401)
    const token = await login('acme', 'broker@acme.test')
    expect((await call(token, 'POST', '/__reference/webhooks/emit', { event: 'form.submitted' })).status).toBe(400)
  })

  it('with notificationDelayMs (late-single-notifications) sends each notification once, after the delay', async () => {
    const server = await startTestServer((_req, res) => {
      res.statusCode = 204
      res.end()
    })
    open.push({ server })
    const r = await reference({ webhooks: { notificationDelayMs: 300 } })
    const token = await r.login('acme', 'broker@acme.test')
    await r.call(token, 'POST', '/api/webhook/subscription', { event: 'export', url: `${server.url}/late` })
    await r.call(token, 'POST', '/__reference/webhooks/emit', { event: 'export' })
    expect(server.requests).toHaveLength(0)
    await until(() => server.requests.length >= 1)
    await new Promise((done) => setTimeout(done, 400))
    expect(server.requests.map((q) => q.url)).toEqual(['/late'])
  })
})
