import { describe, expect, it } from 'vitest'
import type { TrafficLine } from '../../helpers/client/http/traffic-file'
import type { TimelineEntry } from '../../reference/chaos/stats'
import { percentile, pollingFigures } from '../../scripts/bench/lag'
import { requestsPerFile } from '../../scripts/bench/per-file'
import type { ChecksReport } from '../../runner/run/results/results'

const e = (
  path: string,
  status: number,
  receivedAt: number,
  sentAt: number,
  op = 'sales.quote.actions',
): TimelineEntry => ({ op, method: 'GET', path, status, receivedAt, sentAt })
const seen = (at: number, durationMs: number, status = 200, operationId = 'sales.quote.actions'): TrafficLine => ({
  at: new Date(at).toISOString(),
  runId: 'r',
  method: 'GET',
  template: '',
  operationId,
  status,
  durationMs,
})

describe('pollingFigures()', () => {
  it('a long poll released at completion: lag from the release to the suite having the answer', () => {
    const f = pollingFigures([e('/q/1', 200, 1000, 1150)], [seen(1153, 155)])
    expect(f.samples).toEqual([{ path: '/q/1', op: 'sales.quote.actions', lagMs: 3, kind: 'held' }])
  })

  it('completion between two polls: upper bound from the previous pending answer', () => {
    const f = pollingFigures([e('/q/2', 423, 0, 2000), e('/q/2', 200, 2050, 2051)], [seen(2052, 3)])
    expect(f.samples[0]).toMatchObject({ lagMs: 52, kind: 'between' })
  })

  it('a resource complete at the first poll is counted apart; the poll rate is the busiest 1 s window', () => {
    const f = pollingFigures(
      [
        e('/q/3', 200, 0, 1),
        e('/r/1', 423, 0, 10, 'sales.requests.get'),
        e('/r/1', 423, 100, 110, 'sales.requests.get'),
        e('/r/1', 423, 200, 210, 'sales.requests.get'),
        e('/r/1', 200, 1500, 1501, 'sales.requests.get'),
      ],
      [],
    )
    expect(f.completeAtFirstPoll).toBe(1)
    expect(f.maxPollsPerSecond).toBe(3)
    expect(f.resources).toBe(2)
  })

  it('percentile()', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3)
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 100], 95)).toBe(100)
  })
})

describe('requestsPerFile()', () => {
  it('attributes traffic to suite files through check titles', () => {
    const report = { checks: [{ title: 'A-1 does a', file: 'suites/a.test.ts' }] } as unknown as ChecksReport
    const t = (test?: string) => ({ ...seen(0, 1), ...(test ? { test } : {}) })
    expect([...requestsPerFile(report, [t('block > A-1 does a'), t('A-1 does a'), t()])]).toEqual([
      ['suites/a.test.ts', 2],
      ['(hooks, outside a check)', 1],
    ])
  })
})
