import { describe, expect, it } from 'vitest'
import { chainFigures, limitBoundMs, runPhases } from '../../scripts/bench/chains'
import type { TrafficLine } from '../../helpers/client/http/traffic-file'

const line = (endMs: number, durationMs: number, chain?: string, queuedMs?: number): TrafficLine => ({
  at: new Date(Date.UTC(2026, 0, 1) + endMs).toISOString(),
  runId: 'r',
  method: 'GET',
  template: '/x',
  status: 200,
  durationMs,
  ...(chain ? { chain, test: `${chain} > step` } : {}),
  ...(queuedMs ? { queuedMs } : {}),
})

describe('bench: the longest dependent chain, from the traffic', () => {
  it(
    'measures each chain from its first request to its last answer, waits between them included; hook exchanges ' +
      'belong to no chain',
    () => {
      const f = chainFigures([
        line(100, 100, 'lifecycle'),
        // 30 ms between the answer at 100 and this request (a poll's wait, the suite's work): part of the chain
        line(250, 120, 'lifecycle'),
        line(400, 110, 'lifecycle'),
        line(150, 140, 'probe A'),
        line(160, 150, 'probe B'),
        line(50, 50),
      ])
      expect(f.chains).toBe(3)
      expect(f.longest).toEqual({ chain: 'lifecycle', ms: 400, requestMs: 330, exchanges: 3 })
      expect(f.next.map((c) => c.chain)).toEqual(['probe B', 'probe A'])
      expect(f.outside).toBe(1)
      // from the first request sent (the hook's, at 0) to the last answer (400)
      expect(f.trafficSpanMs).toBe(400)
    },
  )

  it(
    'leaves out the time a chain only waited for a slot at the limiter, not the time a request of it was in ' +
      'flight',
    () => {
      const f = chainFigures([
        line(100, 100, 'steps'),
        // queued 200 ms after the first answer, then sent: 100..300 is the limiter's, not the chain's
        line(400, 100, 'steps', 200),
        // two requests side by side; one queued while the other was in flight: the chain was not idle
        line(650, 250, 'side', 0),
        line(600, 100, 'side', 100),
      ])
      expect(f.longest).toEqual({ chain: 'side', ms: 250, requestMs: 350, exchanges: 2 })
      expect(f.next[0]).toEqual({ chain: 'steps', ms: 200, requestMs: 200, exchanges: 2 })
    },
  )

  it('has no longest chain without traffic', () => {
    expect(chainFigures([])).toEqual({ chains: 0, next: [], trafficSpanMs: 0, outside: 0 })
  })
})

describe('bench: the phases of a run and the request limit bound', () => {
  it('splits a run into its start, its requests and its end, from the traffic', () => {
    const t0 = Date.UTC(2026, 0, 1)
    // the first request is sent at 100 ms (it ends at 200 after 100 ms), the last answer comes at 900
    expect(runPhases([line(200, 100, 'a'), line(900, 300, 'b'), line(500, 50)], t0 - 3000, t0 + 1400)).toEqual({
      startMs: 3100,
      requestsMs: 800,
      endMs: 500,
    })
    expect(runPhases([], t0, t0 + 10)).toBeUndefined()
  })

  it('bounds the requests by their number, mean duration and the limit', () => {
    const traffic = [line(100, 100), line(200, 120), line(300, 140), line(400, 120)]
    expect(limitBoundMs(traffic, 2)).toEqual({ meanMs: 120, boundMs: 240 })
    expect(limitBoundMs([], 16)).toEqual({ meanMs: 0, boundMs: 0 })
  })
})
