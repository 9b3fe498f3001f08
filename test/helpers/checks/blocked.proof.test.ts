import { describe, expect, it } from 'vitest'
import { OPERATIONS } from '../../../common/operations'
import { runConformance } from '../../../scripts/harness/run-conformance'

const LIFECYCLE = 'suites/sales/lifecycle.test.ts'
const TERMINATION = 'suites/policies/termination.test.ts'
const TERM = [
  'PL-TERM-001',
  'PL-TERM-002',
  'PL-TERM-003',
  'PL-TERM-004',
  'PL-TERM-005',
  'PL-TERM-006',
  'PL-TERM-007',
  'PL-TERM-008',
]

/**
 * Root cause, not cascade (issue 13): a defect in an operation the termination checks only use to set themselves up
 * (the lock of a new quote is never released) blocks them, naming the operation, the status seen and the owner; the
 * owner's own check fails. Without the owner in the run, the blocked checks keep the run INCONCLUSIVE, never CONFORMS.
 */
describe('a defect in an operation used as setup blocks the dependent checks instead of failing them', () => {
  it(
    'blocks PL-TERM-001..008 with owner SL-LIFE-002-home, which fails: DOES NOT CONFORM with one root ' + 'cause',
    async () => {
      const run = await runConformance({ files: [LIFECYCLE, TERMINATION], defects: ['sales-actions-never-unlock'] })
      expect(run.report, run.output.slice(-3000)).toBeDefined()
      const checks = new Map((run.report?.checks ?? []).map((c) => [c.id, c]))
      expect(checks.get('SL-LIFE-002-home')?.status, run.output.slice(-3000)).toBe('failed')
      for (const id of TERM) {
        const c = checks.get(id)
        expect(c?.status, id).toBe('blocked')
        expect(c?.blocked, id).toMatchObject({ operation: 'sales.quote.actions', owner: 'SL-LIFE-002-home' })
        expect(String(c?.blocked?.status), id).toMatch(/^timeout: /)
      }
      // the failures are the lifecycle's lock checks, nothing of the termination requirements
      expect(run.failedIds.filter((id) => id.startsWith('PL-'))).toEqual([])
      expect(run.verdict?.verdict).toBe('DOES NOT CONFORM')
    },
  )

  it('keeps blocked checks visible when their owner did not run: INCONCLUSIVE, exit 3', async () => {
    const run = await runConformance({ files: [TERMINATION], defects: ['sales-actions-never-unlock'] })
    expect(run.failedIds).toEqual([])
    expect(
      run.report?.checks
        .filter((c) => c.status === 'blocked')
        .map((c) => c.id)
        .sort(),
    ).toEqual(TERM)
    expect(run.verdict?.verdict).toBe('INCONCLUSIVE')
    expect(run.verdict?.exitCode).toBe(3)
  })

  it('names owners that are checks of the catalogue (common/operations.json), for every product', async () => {
    const run = await runConformance({ files: ['suites/sales', 'suites/policies', 'suites/webhooks'] })
    const ids = new Set((run.report?.checks ?? []).map((c) => c.id))
    expect(run.failedIds, run.output.slice(-3000)).toEqual([])
    for (const op of OPERATIONS) {
      const owners = op.owner!.includes('{product}')
        ? ['home', 'travel'].map((p) => op.owner!.replace('{product}', p))
        : [op.owner!]
      for (const owner of owners) expect(ids.has(owner), `${op.id} -> ${owner}`).toBe(true)
    }
  })
})
