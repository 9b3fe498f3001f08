import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuthSession } from '../../../../helpers/client/auth/session'
import { ServiceClient } from '../../../../helpers/client/http/client'
import { Dispatchers } from '../../../../helpers/client/http/dispatchers'
import { Recorder, type Exchange } from '../../../../helpers/client/http/recorder'
import {
  DEFAULT_RETRY_POLICY,
  decideRetry,
  retryPolicyFrom,
  withRetry,
  type RetryPolicy,
} from '../../../../helpers/client/http/retry'
import { TransportError, type HttpResult } from '../../../../helpers/client/http/types'
import { Redactor } from '../../../../helpers/client/evidence/redact'
import { startTestServer, type TestServer } from '../../../support/http-server'

const P: RetryPolicy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxDelayMs: 5 }
const half = () => 0.5

describe('decideRetry()', () => {
  it('retries 429/502/503/504 on idempotent methods, within the bound', () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE']) {
      for (const status of [429, 502, 503, 504]) expect(decideRetry(P, { method, attempt: 1, status }).retry).toBe(true)
    }
    expect(decideRetry(P, { method: 'GET', attempt: P.maxAttempts, status: 503 })).toMatchObject({ retry: false })
  })

  it('stops retrying when the next wait would take the waits of one request beyond maxTotalDelayMs', () => {
    const p = { ...P, maxTotalDelayMs: 2500 }
    expect(
      decideRetry(p, { method: 'GET', attempt: 2, status: 503, retryAfter: '1', waitedMs: 1000 }, half),
    ).toMatchObject({ retry: true, delayMs: 1000 })
    const refused = decideRetry(p, { method: 'GET', attempt: 3, status: 503, retryAfter: '1', waitedMs: 2000 }, half)
    expect(refused.retry).toBe(false)
    expect(refused.reason).toContain('total wait of 2500 ms')
  })

  it('never retries a final status', () => {
    for (const status of [200, 201, 204, 400, 401, 404, 409, 423, 500, 501]) {
      expect(decideRetry(P, { method: 'GET', attempt: 1, status }).retry).toBe(false)
    }
  })

  it('never resends a POST that answered, whatever the status', () => {
    for (const status of [429, 502, 503, 504])
      expect(decideRetry(P, { method: 'POST', attempt: 1, status }).retry).toBe(false)
  })

  it('never resends a POST after a reset or a timeout: it may have reached the server', () => {
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
      expect(decideRetry(P, { method: 'POST', attempt: 1, transportCode: code }).retry).toBe(false)
    }
  })

  it('resends a POST refused before connecting, unless the profile forbids it', () => {
    expect(decideRetry(P, { method: 'POST', attempt: 1, transportCode: 'ECONNREFUSED' }).retry).toBe(true)
    expect(decideRetry(P, { method: 'POST', attempt: 1, transportCode: 'UND_ERR_CONNECT_TIMEOUT' }).retry).toBe(true)
    expect(
      decideRetry({ ...P, retryPostWhenNotSent: false }, { method: 'POST', attempt: 1, transportCode: 'ECONNREFUSED' })
        .retry,
    ).toBe(false)
  })

  it('retries idempotent requests after transient transport faults only', () => {
    expect(decideRetry(P, { method: 'GET', attempt: 1, transportCode: 'ECONNRESET' }).retry).toBe(true)
    expect(decideRetry(P, { method: 'PUT', attempt: 2, transportCode: 'UND_ERR_SOCKET' }).retry).toBe(true)
    expect(decideRetry(P, { method: 'GET', attempt: 1, transportCode: 'ENOTFOUND' }).retry).toBe(false)
  })

  it('honours Retry-After (seconds and HTTP date) and refuses one beyond the bound', () => {
    const d = decideRetry(P, { method: 'GET', attempt: 1, status: 503, retryAfter: '1' }, half)
    expect(d).toMatchObject({ retry: true, delayMs: 1000 })
    const now = Date.parse('2026-01-01T00:00:00Z')
    const date = decideRetry(
      P,
      { method: 'GET', attempt: 1, status: 503, retryAfter: 'Thu, 01 Jan 2026 00:00:02 GMT' },
      half,
      now,
    )
    expect(date).toMatchObject({ retry: true, delayMs: 2000 })
    expect(decideRetry(P, { method: 'GET', attempt: 1, status: 503, retryAfter: '60' })).toMatchObject({
      retry: false,
      reason: expect.stringMatching(/exceeds the bound/),
    })
  })

  it('backs off exponentially up to the cap', () => {
    const p = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 300, maxAttempts: 10 }
    const delays = [1, 2, 3, 4].map(
      (attempt) => (decideRetry(p, { method: 'GET', attempt, status: 503 }, () => 1) as { delayMs: number }).delayMs,
    )
    expect(delays).toEqual([100, 200, 300, 300])
  })

  it('takes the profile block over the defaults', () => {
    expect(retryPolicyFrom({ reliability: { retry: { maxAttempts: 2, statuses: [503] } } })).toMatchObject({
      maxAttempts: 2,
      statuses: [503],
      baseDelayMs: 50,
    })
    expect(retryPolicyFrom(undefined)).toEqual({
      ...DEFAULT_RETRY_POLICY,
      statuses: [...DEFAULT_RETRY_POLICY.statuses],
    })
  })
})

describe('withRetry()', () => {
  const result = (status: number, headers: Record<string, string> = {}) =>
    ({ status, headers }) as unknown as HttpResult
  const refused = () => new TransportError({ method: 'GET', url: 'http://x/', headers: {} }, 'ECONNRESET', 'reset', 1)

  it('returns the first final answer and sleeps the decided delays', async () => {
    const slept: number[] = []
    const answers = [result(503, { 'retry-after': '0' }), result(502), result(200)]
    const res = await withRetry(P, 'GET', async (n) => answers[n - 1]!, {
      sleep: async (ms) => void slept.push(ms),
      random: half,
    })
    expect(res.status).toBe(200)
    expect(slept).toHaveLength(2)
  })

  it('gives up after maxAttempts and returns the last answer', async () => {
    let calls = 0
    const res = await withRetry(P, 'GET', async () => (calls++, result(503)), { sleep: async () => undefined })
    expect(res.status).toBe(503)
    expect(calls).toBe(P.maxAttempts)
  })

  it('gives up when the waits add up to maxTotalDelayMs, before maxAttempts', async () => {
    const slept: number[] = []
    const p = { ...P, maxAttempts: 10, maxTotalDelayMs: 2500 }
    const res = await withRetry(p, 'GET', async () => result(503, { 'retry-after': '1' }), {
      sleep: async (ms) => void slept.push(ms),
      random: half,
    })
    expect(res.status).toBe(503)
    expect(slept).toEqual([1000, 1000])
  })

  it('rethrows the last transport error; a POST is attempted once', async () => {
    let calls = 0
    await expect(
      withRetry(
        P,
        'POST',
        async () => {
          calls++
          throw refused()
        },
        { sleep: async () => undefined },
      ),
    ).rejects.toBeInstanceOf(TransportError)
    expect(calls).toBe(1)
  })
})

describe('ServiceClient retries, recorded per attempt', () => {
  let server: TestServer
  const exchanges: Exchange[] = []
  const dispatchers = new Dispatchers({ connectTimeoutMs: 1000, headersTimeoutMs: 2000, bodyTimeoutMs: 2000 })
  const counters = new Map<string, number>()
  let client: ServiceClient

  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      const n = (counters.get(req.url ?? '') ?? 0) + 1
      counters.set(req.url ?? '', n)
      if (req.url === '/flaky' && n <= 2)
        return void res
          .writeHead(503, { 'retry-after': '0', 'content-type': 'application/json' })
          .end('{"message":"busy"}')
      if (req.url === '/reset' && n === 1) return void req.socket.destroy()
      if (req.url === '/post-reset') return void req.socket.destroy()
      if (req.url === '/post-503') return void res.writeHead(503, { 'retry-after': '0' }).end()
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
    const redactor = new Redactor()
    const recorder = new Recorder({ runId: 'r', redactor, sinks: [(x) => void exchanges.push(x)] })
    const auth = new AuthSession({
      authUrl: server.url,
      loginPath: '/login',
      tokenPointers: ['/t'],
      refreshSkewSeconds: 0,
      redactor,
      post: async () => {
        throw new Error('no login here')
      },
    })
    client = new ServiceClient({
      baseUrl: server.url,
      dispatchers,
      recorder,
      auth,
      defaultUser: { tenant: 't', username: 'u', password: 'p' },
      defaultHeaders: {},
      retry: P,
    })
  })
  afterAll(async () => {
    await dispatchers.close()
    await server.close()
  })

  it('a GET answered 503 twice succeeds on the third attempt; each attempt is recorded', async () => {
    const res = await client.call({ path: '/flaky', as: 'anonymous' })
    expect(res.status).toBe(200)
    const mine = exchanges.filter((x) => x.url.endsWith('/flaky'))
    expect(mine.map((x) => [x.status, x.attempt])).toEqual([
      [503, 1],
      [503, 2],
      [200, 3],
    ])
  })

  it('a GET whose connection is reset is resent', async () => {
    const res = await client.call({ path: '/reset', as: 'anonymous' })
    expect(res.status).toBe(200)
    expect(counters.get('/reset')).toBe(2)
  })

  it('a POST whose connection is reset is sent exactly once and fails with the transport error', async () => {
    await expect(
      client.call({ method: 'POST', path: '/post-reset', json: {}, as: 'anonymous' }),
    ).rejects.toBeInstanceOf(TransportError)
    expect(counters.get('/post-reset')).toBe(1)
  })

  it('a POST answered 503 is returned as it is, sent once', async () => {
    const res = await client.call({ method: 'POST', path: '/post-503', json: {}, as: 'anonymous' })
    expect(res.status).toBe(503)
    expect(counters.get('/post-503')).toBe(1)
  })
})
