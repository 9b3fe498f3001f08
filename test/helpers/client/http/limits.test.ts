import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Dispatchers } from '../../../../helpers/client/http/dispatchers'
import { InFlight, REQUEST_BACKSTOP_MS, withInFlight } from '../../../../helpers/client/http/in-flight'
import { jsonDepthBeyond } from '../../../../helpers/client/data/json-depth'
import { send } from '../../../../helpers/client/http/send'
import { ResponseTooLarge, TransportError } from '../../../../helpers/client/http/types'
import { startTestServer, type TestServer } from '../../../support/http-server'

let server: TestServer
const timers: NodeJS.Timeout[] = []
// generous idle timeouts: only the hard limits stop these requests
const dispatchers = new Dispatchers({
  connectTimeoutMs: 1000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  exchangeDeadlineMs: 600,
  maxResponseBytes: 64 * 1024,
  maxJsonDepth: 32,
})

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const json = { 'content-type': 'application/json' }
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      const chunk = Buffer.alloc(16 * 1024, 120)
      const pump = () => {
        while (res.write(chunk)) if (res.writableLength > 1e6) break
        if (!res.destroyed) timers.push(setTimeout(pump, 1))
      }
      return pump()
    }
    if (req.url === '/declared')
      return void res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) }).write('x')
    if (req.url === '/trickle') {
      res.writeHead(200, { 'content-type': 'application/json' })
      const drip = () => {
        if (res.destroyed) return
        res.write(' ')
        timers.push(setTimeout(drip, 100))
      }
      return drip()
    }
    if (req.url === '/processing') {
      const flood = () => {
        if (res.destroyed) return
        res.writeProcessing()
        timers.push(setTimeout(flood, 100))
      }
      return flood()
    }
    if (req.url === '/silent') return
    if (req.url === '/deep') return void res.writeHead(200, json).end(`${'['.repeat(30_000)}${']'.repeat(30_000)}`)
    if (req.url === '/deep-in-string') return void res.writeHead(200, json).end(JSON.stringify({ s: '['.repeat(1000) }))
    if (req.url === '/utf8')
      return void res
        .writeHead(200, json)
        .end(Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]))
    if (req.url === '/proto')
      return void res
        .writeHead(200, json)
        .end('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')
    res.writeHead(404).end()
  })
})
afterAll(async () => {
  for (const t of timers) clearTimeout(t)
  await dispatchers.close()
  await server.close()
})

async function transportError(path: string): Promise<TransportError> {
  const e = await send(dispatchers, { method: 'GET', url: `${server.url}${path}` }).then(
    () => undefined,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(TransportError)
  return e as TransportError
}

describe('the hard limits of an exchange', () => {
  it('refuses a body past the size cap while it streams, naming the request', async () => {
    const e = await transportError('/huge')
    expect(e).toBeInstanceOf(ResponseTooLarge)
    expect(e.message).toBe(
      `response of GET ${server.url}/huge exceeds 65536 bytes (profile http.maxResponseBytes); the connection was ` +
        `dropped`,
    )
  })

  it('refuses a declared Content-Length past the cap before reading the body', async () => {
    expect((await transportError('/declared')).code).toBe('LC_RESPONSE_TOO_LARGE')
  })

  it('ends a trickling body at the exchange deadline (the idle timeout never fires)', async () => {
    const e = await transportError('/trickle')
    expect(e.code).toBe('LC_EXCHANGE_DEADLINE')
    expect(e.message).toContain('exchange deadline of 600 ms')
  })

  it('ends a flood of 102 Processing at the exchange deadline', async () => {
    expect((await transportError('/processing')).code).toBe('LC_EXCHANGE_DEADLINE')
  })

  it('aborts the requests of a unit of work when it is aborted, and names them while they wait', async () => {
    const tracker = new InFlight()
    const pending = withInFlight(tracker, () =>
      send(dispatchers, { method: 'GET', url: `${server.url}/silent`, deadlineMs: 5000 }),
    )
    await new Promise((r) => setTimeout(r, 50))
    expect(tracker.describe()).toMatch(new RegExp(`^GET ${server.url}/silent, in flight for \\d+ ms$`))
    tracker.abort(new Error('the check did not finish'))
    const e = await pending.then(
      () => undefined,
      (err: unknown) => err as TransportError,
    )
    expect(e?.code).toBe('LC_ABORTED')
    expect(tracker.describe()).toBeUndefined()
  })

  it(
    "leaves a unit's deadline to the unit: a request of it stops on its own only a backstop past that " + 'deadline',
    async () => {
      const tracker = new InFlight(Date.now() + 200)
      expect(tracker.requestBudgetMs() - tracker.remainingMs()).toBe(REQUEST_BACKSTOP_MS)
      // nobody stops the unit here: the request's own timer ends it, after the unit's deadline, not at it
      const began = Date.now()
      const e = await withInFlight(tracker, () =>
        send(dispatchers, { method: 'GET', url: `${server.url}/silent`, deadlineMs: 5000 }),
      ).then(
        () => undefined,
        (err: unknown) => err as TransportError,
      )
      expect(e?.code).toBe('LC_EXCHANGE_DEADLINE')
      expect(Date.now() - began).toBeGreaterThanOrEqual(200 + REQUEST_BACKSTOP_MS - 20)
    },
  )

  it('reports JSON nested past the limit as a garbage response, without parsing it', async () => {
    const res = await send(dispatchers, { method: 'GET', url: `${server.url}/deep` })
    expect(res.body).toBeUndefined()
    expect(res.parseError).toContain('nested deeper than 32 levels')
    const fine = await send(dispatchers, { method: 'GET', url: `${server.url}/deep-in-string` })
    expect(fine.parseError).toBeUndefined()
  })

  it('reports invalid UTF-8 in a JSON body as a garbage response (RFC 8259)', async () => {
    const res = await send(dispatchers, { method: 'GET', url: `${server.url}/utf8` })
    expect(res.body).toBeUndefined()
    expect(res.parseError).toContain('invalid UTF-8')
  })

  it('keeps __proto__ and constructor keys as data, polluting nothing', async () => {
    const res = await send(dispatchers, { method: 'GET', url: `${server.url}/proto` })
    expect(Object.keys(res.body as object)).toEqual(['__proto__', 'constructor'])
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
  })

  it('measures depth outside strings only', () => {
    expect(jsonDepthBeyond('{"a":"[[[[[[[[[[\\"[[[["}', 3)).toBeUndefined()
    expect(jsonDepthBeyond('[[[[1]]]]', 3)).toBe(4)
  })
})

describe('closing', () => {
  it('never waits on a hung request', async () => {
    const own = new Dispatchers({
      connectTimeoutMs: 1000,
      headersTimeoutMs: 60_000,
      bodyTimeoutMs: 60_000,
      exchangeDeadlineMs: 60_000,
    })
    const hung = send(own, { method: 'GET', url: `${server.url}/silent` }).catch((e: unknown) => e)
    await new Promise((r) => setTimeout(r, 50))
    const started = Date.now()
    await own.close()
    expect(Date.now() - started).toBeLessThan(5000)
    expect(await hung).toBeInstanceOf(TransportError)
  })
})
