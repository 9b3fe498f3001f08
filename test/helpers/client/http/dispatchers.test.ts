import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { takeSharedDispatchers } from '../../../../helpers/client/http/dispatchers'
import { send } from '../../../../helpers/client/http/send'
import { startTestServer, type TestServer } from '../../../support/http-server'

let server: TestServer
const OPTIONS = { connectTimeoutMs: 1000, headersTimeoutMs: 1000, bodyTimeoutMs: 1000, maxInFlight: 32 }
const get = (d: { dispatchers: Parameters<typeof send>[0] }, path: string) =>
  send(d.dispatchers, { method: 'GET', url: `${server.url}${path}` })

beforeAll(async () => {
  server = await startTestServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'))
})
afterAll(async () => {
  await server.close()
})

describe('takeSharedDispatchers: one set of connections per target and worker (docs/performance.md)', () => {
  it('gives the files of one target the same dispatchers and closes them when the last gives them back', async () => {
    const a = takeSharedDispatchers('run-1 target-a', OPTIONS)
    const b = takeSharedDispatchers('run-1 target-a', OPTIONS)
    const other = takeSharedDispatchers('run-1 target-b', OPTIONS)
    expect(b.dispatchers).toBe(a.dispatchers)
    expect(other.dispatchers).not.toBe(a.dispatchers)
    expect((await get(a, '/a')).status).toBe(200)
    await a.giveBack()
    await a.giveBack() // a second give-back of the same taking counts once
    expect((await get(b, '/b')).status, 'still usable while a file holds them').toBe(200)
    expect(server.openConnections(), 'their connections kept open for the file that still holds them').toBeGreaterThan(
      0,
    )
    await b.giveBack()
    await vi.waitFor(() => expect(server.openConnections(), 'closed once the last file gave them back').toBe(0))
    const again = takeSharedDispatchers('run-1 target-a', OPTIONS)
    expect(again.dispatchers, 'a later file takes a new set').not.toBe(a.dispatchers)
    await again.giveBack()
    await other.giveBack()
  })

  it('lets the files of a target reuse the same keep-alive connections', async () => {
    const before = server.connections()
    const files = [takeSharedDispatchers('run-2 t', OPTIONS), takeSharedDispatchers('run-2 t', OPTIONS)]
    for (let i = 0; i < 5; i += 1) for (const f of files) expect((await get(f, '/x')).status).toBe(200)
    // undici may open a second connection while the first is released; never one per request or per file and request
    expect(server.connections() - before, '10 requests of two files, one after another').toBeLessThanOrEqual(2)
    for (const f of files) await f.giveBack()
  })
})
