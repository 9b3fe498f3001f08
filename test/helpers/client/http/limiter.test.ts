import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuthSession } from '../../../../helpers/client/auth/session'
import { withRunningCheck } from '../../../../helpers/client/http/running-check'
import { ServiceClient } from '../../../../helpers/client/http/client'
import { Dispatchers } from '../../../../helpers/client/http/dispatchers'
import { RequestLimiter, sharedLimiter } from '../../../../helpers/client/http/limiter'
import { Recorder, type Exchange } from '../../../../helpers/client/http/recorder'
import { send } from '../../../../helpers/client/http/send'
import { DEFAULT_RETRY_POLICY } from '../../../../helpers/client/http/retry'
import { runningCheck } from '../../../../helpers/client/http/running-check'
import { Redactor } from '../../../../helpers/client/evidence/redact'
import { startTestServer, type TestServer } from '../../../support/http-server'

const tick = () => new Promise<void>((r) => setImmediate(r))

describe('RequestLimiter', () => {
  it('never lets more than its limit run at once, and starts the waiting ones in arrival order', async () => {
    const limiter = new RequestLimiter(3)
    let running = 0
    let most = 0
    const started: number[] = []
    const gates: (() => void)[] = []
    const jobs = Array.from({ length: 10 }, (_, i) =>
      limiter.run(async () => {
        started.push(i)
        running += 1
        most = Math.max(most, running)
        await new Promise<void>((r) => gates.push(r))
        running -= 1
        return i
      }),
    )
    await tick()
    expect(started).toEqual([0, 1, 2])
    expect(limiter.queued).toBe(7)
    while (gates.length > 0) {
      gates.shift()!()
      await tick()
      await tick()
    }
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(most).toBe(3)
    expect(limiter.peakInFlight).toBe(3)
    expect(limiter.inFlight).toBe(0)
  })

  it('lets the requests of a dependent chain go before waiting background requests', async () => {
    const limiter = new RequestLimiter(1)
    const order: string[] = []
    let release!: () => void
    const first = limiter.run(() => new Promise<void>((r) => (release = r)))
    const jobs = [
      limiter.run(async () => void order.push('probe 1'), true),
      limiter.run(async () => void order.push('probe 2'), true),
      limiter.run(async () => void order.push('lifecycle step'), false),
    ]
    await tick()
    release()
    await first
    await Promise.all(jobs)
    expect(order).toEqual(['lifecycle step', 'probe 1', 'probe 2'])
  })

  it('gives the slot back when the request fails', async () => {
    const limiter = new RequestLimiter(1)
    await expect(limiter.run(async () => Promise.reject(new Error('reset')))).rejects.toThrow('reset')
    expect(limiter.inFlight).toBe(0)
    expect(await limiter.run(async () => 'next')).toBe('next')
  })

  it('halves the requests in flight on a 429 (once per cool-down), gives slots back after calm answers', async () => {
    const limiter = new RequestLimiter(8, 60_000)
    const answer = (status: number) =>
      limiter.run(
        async () => ({ status }),
        false,
        (r) => r.status === 429,
      )
    await answer(200)
    expect(limiter.currentLimit).toBe(8)
    await answer(429)
    expect(limiter.currentLimit).toBe(4)
    // the 429s of the same burst count once
    await answer(429)
    expect(limiter.currentLimit).toBe(4)
    expect(limiter.throttledTimes).toBe(1)
    // one slot back per run of calm answers as long as the current limit
    for (let i = 0; i < 4; i++) await answer(200)
    expect(limiter.currentLimit).toBe(5)
    for (let i = 0; i < 5 + 6 + 7; i++) await answer(200)
    expect(limiter.currentLimit).toBe(8)
    for (let i = 0; i < 20; i++) await answer(200)
    expect(limiter.currentLimit).toBe(8)
  })

  it('after a 429, lets no more than the halved limit run, then starts the waiting ones', async () => {
    const limiter = new RequestLimiter(4, 60_000)
    let running = 0
    let most = 0
    const gates: (() => void)[] = []
    const job = (status: number) =>
      limiter.run(
        async () => {
          running += 1
          most = Math.max(most, running)
          await new Promise<void>((r) => gates.push(r))
          running -= 1
          return { status }
        },
        false,
        (r) => r.status === 429,
      )
    const first = [job(429), job(200), job(200), job(200)]
    await tick()
    expect(running).toBe(4)
    gates.shift()!()
    await first[0]
    expect(limiter.currentLimit).toBe(2)
    const later = Array.from({ length: 6 }, () => job(200))
    await tick()
    // three still in flight, above the new limit of 2: nothing more starts
    expect(running).toBe(3)
    // one of them answers: two in flight, the new limit, so still nothing more starts
    gates.shift()!()
    await first[1]
    await tick()
    expect(running).toBe(2)
    expect(limiter.queued).toBe(6)
    while (gates.length > 0) {
      gates.shift()!()
      await tick()
      await tick()
    }
    await Promise.all([...first, ...later])
    expect(most).toBe(4)
    expect(limiter.inFlight).toBe(0)
  })

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new RequestLimiter(0)).toThrow(/positive integer/)
    expect(() => new RequestLimiter(2.5)).toThrow(/positive integer/)
  })

  it('is shared per target: the same key gives the same limiter, another target its own', () => {
    expect(sharedLimiter('run-a http://x', 8)).toBe(sharedLimiter('run-a http://x', 8))
    expect(sharedLimiter('run-a http://x', 8)).not.toBe(sharedLimiter('run-a http://y', 8))
  })
})

describe('ServiceClient with a limiter', () => {
  let server: TestServer
  let open = 0
  let mostOpen = 0
  let failFirstA = true
  const order: string[] = []
  const dispatchers = new Dispatchers({ connectTimeoutMs: 1000, headersTimeoutMs: 3000, bodyTimeoutMs: 3000 })
  const user = { tenant: 'acme', username: 'broker@acme.test', password: 'pw' }

  function client(limit: number, seen: Exchange[]): ServiceClient {
    const redactor = new Redactor()
    const recorder = new Recorder({
      runId: 'r',
      redactor,
      sinks: [(x) => void seen.push(x)],
      currentTest: runningCheck,
    })
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
      defaultHeaders: {},
      limiter: new RequestLimiter(limit),
      retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: 150, maxDelayMs: 150 },
    })
  }

  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      order.push(req.url ?? '')
      if (req.url === '/a' && failFirstA) {
        failFirstA = false
        return void res.writeHead(503, { 'content-type': 'application/json' }).end('{}')
      }
      open += 1
      mostOpen = Math.max(mostOpen, open)
      // held a little, so that requests overlap
      setTimeout(() => {
        open -= 1
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url }))
      }, 20)
    })
  })
  afterAll(async () => {
    await dispatchers.close()
    await server.close()
  })

  it('keeps the target at the limit, and files each exchange under the check that sent it', async () => {
    const seen: Exchange[] = []
    const c = client(4, seen)
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        withRunningCheck(`check ${i}`, () => c.call({ path: `/probe/${i}`, bearer: 'not-a-secret' })),
      ),
    )
    expect(results.every((r) => r.status === 200)).toBe(true)
    expect(mostOpen).toBeLessThanOrEqual(4)
    expect(mostOpen).toBeGreaterThan(1)
    expect(seen).toHaveLength(24)
    for (const x of seen) expect(x.test).toBe(`check ${x.url.split('/').at(-1)}`)
  })

  it("does not hold a slot during a retry's backoff: another request goes first", async () => {
    const seen: Exchange[] = []
    const c = client(1, seen)
    order.length = 0
    const a = c.call({ path: '/a', bearer: 'x' })
    await new Promise((r) => setTimeout(r, 40))
    const b = c.call({ path: '/b', bearer: 'x' })
    const [ra, rb] = await Promise.all([a, b])
    expect([ra.status, rb.status]).toEqual([200, 200])
    expect(order).toEqual(['/a', '/b', '/a'])
  })
})
