import { describe, expect, it } from 'vitest'
import { chainFigures } from '../../scripts/bench/chains'
import type { TrafficLine } from '../../helpers/reporting/traffic-file'

const line = (endMs: number, durationMs: number, chain?: string): TrafficLine => ({
  at: new Date(Date.UTC(2026, 0, 1) + endMs).toISOString(),
  runId: 'r',
  method: 'GET',
  template: '/x',
  status: 200,
  durationMs,
  ...(chain ? { chain, test: `${chain} > step` } : {}),
})

describe('bench: the longest dependent chain, from the traffic', () => {
  it("adds up each chain's exchange durations and names the longest; hook exchanges belong to no chain", () => {
    const f = chainFigures([
      line(100, 100, 'lifecycle'),
      line(250, 120, 'lifecycle'),
      line(400, 110, 'lifecycle'),
      line(150, 140, 'probe A'),
      line(160, 150, 'probe B'),
      line(50, 50),
    ])
    expect(f.chains).toBe(3)
    expect(f.longest).toEqual({ chain: 'lifecycle', ms: 330, exchanges: 3 })
    expect(f.next.map((c) => c.chain)).toEqual(['probe B', 'probe A'])
    expect(f.outside).toBe(1)
    // from the first request sent (the hook's, at 0) to the last answer (400)
    expect(f.trafficSpanMs).toBe(400)
  })

  it('has no longest chain without traffic', () => {
    expect(chainFigures([])).toEqual({ chains: 0, next: [], trafficSpanMs: 0, outside: 0 })
  })
})
