import { describe, expect, it } from 'vitest'
import { planBatches } from './defect-batch'

describe('planBatches', () => {
  it('groups the cases by suite file and name pattern, in order, at most size defects to a batch', () => {
    const cases = [
      { defect: 'a', file: 'f1' },
      { defect: 'b', file: 'f2' },
      { defect: 'c', file: 'f1' },
      { defect: 'd', file: 'f1' },
      { defect: 'e', file: 'f1', only: 'X' },
    ]
    expect(planBatches(cases, 2).map((b) => b.map((c) => c.defect))).toEqual([['a', 'c'], ['d'], ['b'], ['e']])
  })

  it('runs a defect named twice for the same file and pattern once, even across batches', () => {
    const cases = ['a', 'b', 'c', 'a', 'c'].map((defect) => ({ defect, file: 'f' }))
    expect(planBatches(cases, 2).map((b) => b.map((c) => c.defect))).toEqual([['a', 'b'], ['c']])
  })
})
