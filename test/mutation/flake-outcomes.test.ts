import { describe, expect, it } from 'vitest'
import { analyseFlakes, flakeMarkdown, flakePassed, type RunOutcomes } from '../../scripts/mutation/flake-outcomes'

const run = (n: number, outcomes: RunOutcomes['outcomes'], extra: Partial<RunOutcomes> = {}): RunOutcomes => ({
  run: n,
  seed: 100 + n,
  exitCode: 0,
  outcomes,
  errors: {},
  wallMs: 1000,
  ...extra,
})

describe('analyseFlakes', () => {
  it('finds no flake when every run agrees', () => {
    const a = analyseFlakes([
      run(1, { A: 'passed', B: 'not-applicable' }),
      run(2, { A: 'passed', B: 'not-applicable' }),
    ])
    expect(a).toMatchObject({ runs: 2, flaky: [], alwaysFailed: [], brokenRuns: [], checks: 2 })
    expect(flakePassed(a)).toBe(true)
  })
  it('reports a check whose outcome changed, with the runs and seeds where it did not pass', () => {
    const a = analyseFlakes([
      run(1, { A: 'passed', B: 'passed' }),
      run(2, { A: 'failed', B: 'passed' }, { errors: { A: 'expected 200' } }),
      run(3, { A: 'passed' }),
    ])
    expect(a.flaky.map((f) => f.id)).toEqual(['A', 'B'])
    expect(a.flaky[0]).toEqual({
      id: 'A',
      counts: { passed: 2, failed: 1 },
      badRuns: [{ run: 2, seed: 102, status: 'failed', error: 'expected 200' }],
    })
    expect(a.flaky[1]!.counts).toEqual({ passed: 2, absent: 1 })
    expect(flakePassed(a)).toBe(false)
    expect(flakeMarkdown(a, 5000, [])).toMatch(/\| A \| passed ×2, failed ×1 \| #2 \(seed 102\) failed \|/)
  })
  it('separates checks that always fail and runs that stopped', () => {
    const a = analyseFlakes([
      run(1, { A: 'failed' }),
      run(2, {}, { exitCode: 1, stopMessage: 'Target unreachable' }),
      run(3, { A: 'failed' }),
    ])
    expect(a.alwaysFailed).toEqual(['A'])
    expect(a.brokenRuns).toEqual([2])
    expect(a.flaky).toEqual([])
    expect(flakePassed(a)).toBe(false)
    expect(flakeMarkdown(a, 1, [run(2, {}, { stopMessage: 'Target unreachable' })])).toMatch(
      /run 2: Target unreachable/,
    )
  })
})
