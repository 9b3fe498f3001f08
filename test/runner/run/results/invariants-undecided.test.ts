import type { TestCase } from 'vitest/node'
import { describe, expect, it } from 'vitest'
import { invariantOutcomes } from '../../../../runner/run/results/invariants'

function tc(id: string, invariants: Record<string, unknown>): TestCase {
  const meta = { check: { id }, invariants }
  return { name: id, meta: () => meta, result: () => ({ state: 'passed' }) } as unknown as TestCase
}

describe('an invariant the linearizability checker could not decide (its budget spent)', () => {
  it('is errored (INCONCLUSIVE) naming the resources, never passed; broken elsewhere it stays failed', () => {
    const outcomes = invariantOutcomes([
      tc('SL-CONC-001', {
        evaluated: { 'SL-INV-050': 3 },
        violated: [],
        undecided: [{ id: 'SL-INV-050', resource: 'quote q1' }],
      }),
    ])
    const o = outcomes.find((x) => x.id === 'SL-INV-050')!
    expect(o.status).toBe('errored')
    expect(o.error).toMatch(/undecided: the linearizability checker ran out of its budget on the history of quote q1/)
    const broken = invariantOutcomes([
      tc('SL-CONC-001', {
        evaluated: { 'SL-INV-050': 1 },
        violated: [],
        undecided: [{ id: 'SL-INV-050', resource: 'quote q1' }],
      }),
      tc('SL-CONC-002', {
        evaluated: { 'SL-INV-050': 1 },
        violated: [{ id: 'SL-INV-050', message: 'broken', operation: 'sales.quote.get' }],
      }),
    ])
    expect(broken.find((x) => x.id === 'SL-INV-050')!.status).toBe('failed')
  })
})
