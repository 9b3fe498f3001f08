import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuthSession } from '../../../../helpers/client/auth/session'
import { ServiceClient } from '../../../../helpers/client/http/client'
import { Dispatchers } from '../../../../helpers/client/http/dispatchers'
import { Recorder, type Exchange } from '../../../../helpers/client/http/recorder'
import { send } from '../../../../helpers/client/http/send'
import { Redactor } from '../../../../helpers/client/evidence/redact'
import { startTestServer, type TestServer } from '../../../support/http-server'

const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
const jwt = (n: number) =>
  `${enc({ alg: 'ES256' })}.${enc({ sub: 'u', exp: Math.floor(Date.now() / 1000) + 3600, n })}.c2ln`
const user = { tenant: 'acme', username: 'broker@acme.test', password: 'pw-secret-1' }

let server: TestServer
let logins = 0
let rejectNext = 0
const dispatchers = new Dispatchers({ connectTimeoutMs: 1000, headersTimeoutMs: 2000, bodyTimeoutMs: 2000 })
const seen: Exchange[] = []

function client(): ServiceClient {
  const redactor = new Redactor()
  const recorder = new Recorder({ runId: 'r', redactor, sinks: [(x) => void seen.push(x)] })
  const auth = new AuthSession({
    authUrl: `${server.url}/id`,
    loginPath: '/login/{tenant}',
    tokenPointers: ['/access_token'],
    refreshSkewSeconds: 30,
    redactor,
    post: async (url, json) => send(dispatchers, { method: 'POST', url, json }),
  })
  return new ServiceClient({
    baseUrl: server.url,
    dispatchers,
    recorder,
    auth,
    defaultUser: user,
    tenantHeader: 'X-TENANT-ID',
    defaultHeaders: { 'accept-language': 'en' },
  })
}

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.url?.startsWith('/id/login/')) {
      logins += 1
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: jwt(logins) }))
    }
    if (rejectNext > 0) {
      rejectNext -= 1
      return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"expired"}')
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        auth: req.headers.authorization ?? null,
        tenant: req.headers['x-tenant-id'] ?? null,
        lang: req.headers['accept-language'],
        url: req.url,
      }),
    )
  })
})
afterAll(async () => {
  await dispatchers.close()
  await server.close()
})

describe('ServiceClient', () => {
  it('builds the URL from the operation catalogue and sends token, tenant and language', async () => {
    const res = await client().call({
      op: 'sales.requests.get',
      params: { requestId: 'r 1' },
      query: { longPolling: true, skip: undefined },
    })
    expect(res.body).toMatchObject({
      tenant: 'acme',
      lang: 'en',
      url: '/api/v1/ledger/requests/r%201?longPolling=true',
    })
    expect((res.body as { auth: string }).auth).toMatch(/^Bearer eyJ/)
    expect(seen.at(-1)?.operationId).toBe('sales.requests.get')
    expect(res.exchange?.operationId).toBe('sales.requests.get')
  })

  it('sends no Authorization as anonymous, a given bearer as is, and omits the tenant header on request', async () => {
    const c = client()
    expect((await c.call({ op: 'webhooks.events.list', as: 'anonymous' })).body).toMatchObject({ auth: null })
    expect((await c.call({ op: 'webhooks.events.list', bearer: 'not-a-jwt' })).body).toMatchObject({
      auth: 'Bearer not-a-jwt',
    })
    expect((await c.call({ op: 'webhooks.events.list', tenant: null })).body).toMatchObject({ tenant: null })
  })

  it('logs in once per user, and again once after a 401', async () => {
    const c = client()
    const before = logins
    await c.call({ op: 'webhooks.events.list' })
    await c.call({ op: 'webhooks.events.list' })
    expect(logins - before).toBe(1)
    rejectNext = 1
    const res = await c.call({ op: 'webhooks.events.list' })
    expect(res.status).toBe(200)
    expect(logins - before).toBe(2)
  })

  it('does not resend a given bearer after a 401', async () => {
    rejectNext = 1
    const res = await client().call({ op: 'webhooks.events.list', bearer: 'x' })
    expect(res.status).toBe(401)
  })
})
