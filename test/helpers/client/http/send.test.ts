import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Dispatchers } from '../../../../helpers/client/http/dispatchers'
import { send } from '../../../../helpers/client/http/send'
import { TransportError } from '../../../../helpers/client/http/types'
import { startTestServer, type TestServer } from '../../../support/http-server'

let server: TestServer
const dispatchers = new Dispatchers({ connectTimeoutMs: 1000, headersTimeoutMs: 300, bodyTimeoutMs: 300 })

beforeAll(async () => {
  server = await startTestServer((req, res, body) => {
    if (req.url === '/json')
      return void res
        .writeHead(201, { 'content-type': 'application/json; charset=utf-8' })
        .end(JSON.stringify({ echo: body ? JSON.parse(body) : null }))
    if (req.url === '/truncated')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"a": [1, 2')
    if (req.url === '/html')
      return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>')
    if (req.url === '/pdf')
      return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from('%PDF-1.4 binary'))
    if (req.url === '/empty') return void res.writeHead(204).end()
    if (req.url === '/slow') return void setTimeout(() => res.writeHead(200).end('late'), 1000)
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}')
  })
})
afterAll(async () => {
  await dispatchers.close()
  await server.close()
})

describe('send()', () => {
  it('returns status, headers, parsed JSON, raw and timing; sends JSON bodies', async () => {
    const res = await send(dispatchers, { method: 'POST', url: `${server.url}/json`, json: { a: 1 } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ echo: { a: 1 } })
    expect(res.headers['content-type']).toMatch(/application\/json/)
    expect(res.raw.toString()).toBe(res.text)
    expect(res.durationMs).toBeGreaterThan(0)
    expect(server.requests.at(-1)?.headers['content-type']).toBe('application/json')
    expect(res.request).toMatchObject({ method: 'POST', body: '{"a":1}' })
  })

  it(
    'an answer over its budget is neither parsed nor decoded: its size only (the recorder keeps its first ' +
      'characters)',
    async () => {
      const over = await send(dispatchers, {
        method: 'POST',
        url: `${server.url}/json`,
        json: { pad: 'x'.repeat(500) },
        answerBudgetBytes: 100,
      })
      expect(over.status).toBe(201)
      expect(over.overBudget).toBe(over.raw.length)
      expect(over.raw.length).toBeGreaterThan(500)
      expect(over.body).toBeUndefined()
      expect(over.text).toBe('')
      expect(over.parseError).toBeUndefined()
      const within = await send(dispatchers, {
        method: 'POST',
        url: `${server.url}/json`,
        json: { pad: 'x'.repeat(50) },
        answerBudgetBytes: 100,
      })
      expect(within.overBudget).toBeUndefined()
      expect(within.body).toEqual({ echo: { pad: 'x'.repeat(50) } })
    },
  )

  it('never throws on 4xx/5xx', async () => {
    const res = await send(dispatchers, { method: 'GET', url: `${server.url}/missing` })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: 'not found' })
  })

  it('reports a truncated JSON body as such instead of crashing', async () => {
    const res = await send(dispatchers, { method: 'GET', url: `${server.url}/truncated` })
    expect(res.body).toBeUndefined()
    expect(res.parseError).toMatch(/target returned non-JSON \/ truncated body/)
  })

  it('keeps text bodies as text and binary bodies raw', async () => {
    const html = await send(dispatchers, { method: 'GET', url: `${server.url}/html` })
    expect(html.body).toBe('<html>Bad gateway</html>')
    const pdf = await send(dispatchers, { method: 'GET', url: `${server.url}/pdf` })
    expect(pdf.body).toBeUndefined()
    expect(pdf.raw.subarray(0, 4).toString()).toBe('%PDF')
    const empty = await send(dispatchers, { method: 'GET', url: `${server.url}/empty` })
    expect(empty.status).toBe(204)
    expect(empty.body).toBeUndefined()
  })

  it('throws TransportError when nothing listens', async () => {
    const err = await send(dispatchers, { method: 'GET', url: 'http://127.0.0.1:9/x' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TransportError)
    expect((err as TransportError).code).toBe('ECONNREFUSED')
    expect((err as Error).message).toMatch(/connection refused/)
  })

  it('applies the headers timeout', async () => {
    const err = await send(dispatchers, { method: 'GET', url: `${server.url}/slow` }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TransportError)
    expect((err as TransportError).code).toBe('UND_ERR_HEADERS_TIMEOUT')
  })

  it('keeps one pool per origin', () => {
    expect(dispatchers.for(`${server.url}/a`)).toBe(dispatchers.for(`${server.url}/b`))
  })
})
