import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BreakerOpen, openBreakerCauses } from '../../../../helpers/client/http/breaker'
import { Dispatchers } from '../../../../helpers/client/http/dispatchers'
import { send } from '../../../../helpers/client/http/send'
import { TransportError } from '../../../../helpers/client/http/types'
import { startTestServer, type TestServer } from '../../../support/http-server'

/**
 * The run-wide circuit breaker (helpers/client/http/breaker.ts): an origin that lets N exchanges in a row pass their
 * deadline
 * gets no more requests; the refusal names the last operations without an answer; an answer in between resets the
 * count; a dispatcher not configured from a profile has no breaker.
 */
let dir: string
let previous: string | undefined
const servers: TestServer[] = []
const dispatchers: Dispatchers[] = []

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lc-breaker-'))
  previous = process.env.REPORTS_DIR
  process.env.REPORTS_DIR = dir
})
afterAll(async () => {
  for (const d of dispatchers) await d.close()
  for (const s of servers) await s.close()
  if (previous === undefined) delete process.env.REPORTS_DIR
  else process.env.REPORTS_DIR = previous
  rmSync(dir, { recursive: true, force: true })
})

/** A server that answers /ok and never answers anything else; counts what reached it. */
async function server(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = []
  const s = await startTestServer((req, res) => {
    seen.push(req.url ?? '')
    if (req.url === '/ok') res.end('{}')
  })
  servers.push(s)
  return { url: s.url, seen }
}

// the deadline is long enough for /ok to answer on a busy machine (150 ms was passed there), short enough for the rest
function client(breakerExpiries?: number): Dispatchers {
  const d = new Dispatchers({
    connectTimeoutMs: 1000,
    headersTimeoutMs: 10_000,
    bodyTimeoutMs: 10_000,
    exchangeDeadlineMs: 1000,
    ...(breakerExpiries !== undefined ? { breakerExpiries, breakerSilenceMs: 600_000 } : {}),
  })
  dispatchers.push(d)
  return d
}

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'answered',
    (e: unknown) => (e instanceof BreakerOpen ? 'breaker' : e instanceof TransportError ? e.code : String(e)),
  )

describe('run-wide circuit breaker', () => {
  it(
    'opens after N consecutive expiries: no further request is sent, the refusal names the last ' + 'operations',
    async () => {
      const s = await server()
      const d = client(2)
      expect(await outcome(send(d, { method: 'GET', url: `${s.url}/api/v1/ledger/schemes/policy/home` }))).toBe(
        'LC_EXCHANGE_DEADLINE',
      )
      expect(await outcome(send(d, { method: 'GET', url: `${s.url}/second` }))).toBe('LC_EXCHANGE_DEADLINE')
      const third = send(d, { method: 'GET', url: `${s.url}/ok` })
      await expect(third).rejects.toThrow(BreakerOpen)
      await expect(third).rejects.toThrow(
        /stopped answering: 2 exchanges in a row .*the last without an answer: GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/ledger\/schemes\/policy\/home; GET http:\/\/127\.0\.0\.1:\d+\/second/,
      )
      expect(s.seen).toEqual(['/api/v1/ledger/schemes/policy/home', '/second'])
      // a thread that starts later reads it from the run's traffic folder
      expect(openBreakerCauses(join(dir, 'traffic')).some((c) => c.includes(s.url))).toBe(true)
    },
  )

  it('an answer in between resets the count', async () => {
    const s = await server()
    const d = client(2)
    expect(await outcome(send(d, { method: 'GET', url: `${s.url}/a` }))).toBe('LC_EXCHANGE_DEADLINE')
    expect(await outcome(send(d, { method: 'GET', url: `${s.url}/ok` }))).toBe('answered')
    expect(await outcome(send(d, { method: 'GET', url: `${s.url}/b` }))).toBe('LC_EXCHANGE_DEADLINE')
    expect(await outcome(send(d, { method: 'GET', url: `${s.url}/ok` }))).toBe('answered')
  })

  it('a dispatcher not configured from a profile has no breaker', async () => {
    const s = await server()
    const d = client()
    for (const path of ['/a', '/b', '/c'])
      expect(await outcome(send(d, { method: 'GET', url: `${s.url}${path}` }))).toBe('LC_EXCHANGE_DEADLINE')
    expect(await outcome(send(d, { method: 'GET', url: `${s.url}/ok` }))).toBe('answered')
  })
})
