import { describe, expect, it } from 'vitest'
import {
  distinctFailures,
  distributionLine,
  failureDistribution,
  offClause,
  percentile,
} from '../../scripts/mutation/distribution'
import type { DefectResult } from '../../scripts/mutation/types'

const fc = (id: string, section = '§4', document = 'sales-service.md') => ({ id, document, section })
const defect = (name: string, failures: number, extra: Partial<DefectResult> = {}): DefectResult => ({
  name,
  area: 'sales',
  clause: 'sales-service.md §4',
  description: 'd',
  verdict: 'caught',
  clauseMatched: true,
  wallMs: 1,
  newFailures: Array.from({ length: failures }, (_, i) => fc(`${name}-${i}`)),
  ...extra,
})

describe('failed checks per defect', () => {
  it('takes nearest-rank percentiles', () => {
    const v = [1, 1, 1, 1, 1, 1, 1, 1, 2, 7]
    expect(percentile(v, 50)).toBe(1)
    expect(percentile(v, 90)).toBe(2)
    expect(percentile(v, 100)).toBe(7)
    expect(percentile([], 90)).toBe(0)
  })

  it('counts only the failed checks of caught defects, never the blocked ones, and names the worst', () => {
    const ds = [
      defect('a', 1),
      defect('b', 1),
      defect('c', 2, { blocked: [{ id: 'X' }, { id: 'Y', owner: 'c-0' }] }),
      defect('d', 5),
      defect('stopped', 0, { verdict: 'stopped' }),
      defect('gone', 0, { verdict: 'undetectable' }),
    ]
    const x = failureDistribution(ds, 2)
    expect(x).toMatchObject({ defects: 4, median: 1, p90: 5, max: 5, onClause: 4 })
    expect(x.worst).toEqual([
      { name: 'd', failed: 5, blocked: 0, offClause: [] },
      { name: 'c', failed: 2, blocked: 2, offClause: [] },
    ])
    expect(distributionLine(x)).toBe(
      'failed checks per caught defect (4 defects; blocked checks not counted, a failure that is the same finding as ' +
        'another failed or blocked check counted once): median 1, p90 5, max 5 (every failed check counted, shared ' +
        "findings too: median 1, p90 5, max 5); every failure on the defect's clause for 4/4; worst: d 5, c 2 " +
        '(+2 blocked)',
    )
  })

  it(
    'counts an invariant broken only in the answers of failed checks as those checks, one broken elsewhere on its ' +
      'own',
    () => {
      const same = { ...fc('SL-INV-006', '§5'), sameFindingAs: ['SL-SCOPE-002'] }
      const d = defect('y', 0, { newFailures: [fc('SL-NEG-004'), fc('SL-SCOPE-002', '§5'), same] })
      expect(distinctFailures(d).map((f) => f.id)).toEqual(['SL-NEG-004', 'SL-SCOPE-002'])
      expect(failureDistribution([d]).max).toBe(2)
      expect(failureDistribution([d]).everyFailure).toEqual({ median: 3, p90: 3, max: 3 })
      // the checks it names did not all fail in this run (one also failed on the faithful reference): it counts
      const alone = defect('z', 0, { newFailures: [fc('SL-NEG-004'), { ...same, sameFindingAs: ['SL-SCOPE-009'] }] })
      expect(distinctFailures(alone).map((f) => f.id)).toEqual(['SL-NEG-004', 'SL-INV-006'])
      expect(offClause(alone)).toEqual(['SL-INV-006'])
      // a check blocked in this run (by a failure counted on its own) is the same finding too
      const blocked = defect('w', 0, {
        newFailures: [fc('SL-NEG-004'), { ...same, sameFindingAs: ['SL-NEG-004', 'SL-OPS-BOUND-BIND'] }],
        blocked: [{ id: 'SL-OPS-BOUND-BIND', owner: 'SL-NEG-004' }],
      })
      expect(distinctFailures(blocked).map((f) => f.id)).toEqual(['SL-NEG-004'])
    },
  )

  it("names the failures that do not cite the defect's clause", () => {
    const d = defect('x', 0, { newFailures: [fc('ON'), fc('OFF', '§7')] })
    expect(offClause(d)).toEqual(['OFF'])
    expect(failureDistribution([d]).onClause).toBe(0)
  })
})

describe('blocked checks of a run', () => {
  it(
    "are the checks with status 'blocked' (or, from an older checks.json, a skip noted 'blocked: ...'), never a " +
      'failure',
    async () => {
      const { isBlocked } = await import('../../scripts/mutation/summarize')
      type Outcome = Parameters<typeof isBlocked>[0]
      const c = (o: Partial<Outcome>) =>
        ({
          id: 'X',
          document: 'd',
          section: '§4',
          requirement: 'r',
          title: 't',
          file: 'f',
          status: 'passed',
          durationMs: 0,
          deviations: [],
          ...o,
        }) as Outcome
      expect(isBlocked(c({ status: 'blocked', blocked: { reason: 'setup', owner: 'SL-LIFE-002-home' } }))).toBe(true)
      expect(isBlocked(c({ status: 'skipped', note: 'blocked: earlier step A failed (owner A)' }))).toBe(true)
      expect(isBlocked(c({ status: 'skipped', note: 'not applicable: no referral' }))).toBe(false)
      expect(isBlocked(c({ status: 'failed' }))).toBe(false)
    },
  )
})
