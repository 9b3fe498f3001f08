import { describe, expect, it } from 'vitest'
import { shardSelection, vitestFilterSelection } from '../../../runner/vitest/summary-reporter'
import { vitestFilterOf } from '../../../runner/run/selection/env'
import { computeVerdict, EXIT, exitCodeOf, isRunStop, runStopError } from '../../../runner/run/verdict'

const totals = (
  t: Partial<Record<'passed' | 'failed' | 'errored' | 'blocked' | 'skipped' | 'not-applicable', number>>,
) => ({ passed: 0, failed: 0, errored: 0, blocked: 0, skipped: 0, 'not-applicable': 0, ...t })

describe('computeVerdict()', () => {
  it('CONFORMS only when every selected check ran and none failed or errored', () => {
    expect(computeVerdict({ totals: totals({ passed: 299 }) })).toEqual({
      verdict: 'CONFORMS',
      exitCode: 0,
      label: 'CONFORMS',
    })
    expect(computeVerdict({ totals: totals({ passed: 290, 'not-applicable': 9 }) }).verdict).toBe('CONFORMS')
  })

  it('says a partial selection everywhere it prints the verdict', () => {
    const v = computeVerdict({
      totals: totals({ passed: 22 }),
      selection: { label: '--check SL-LIFE', selected: 22, catalogue: 299 },
    })
    expect(v.label).toBe('CONFORMS (partial: 22 of 299 checks; selection --check SL-LIFE)')
    expect(v.exitCode).toBe(EXIT.conforms)
    expect(
      computeVerdict({ totals: totals({ passed: 299 }), selection: { label: 'x', selected: 299, catalogue: 299 } })
        .label,
    ).toBe('CONFORMS')
  })

  it('a vitest shard is partial, with its share and the catalogue; with a selection, both are said', () => {
    const shard = shardSelection({ index: 1, count: 4 }, 65, undefined, 374)
    expect(computeVerdict({ totals: totals({ passed: 65 }), selection: shard }).label).toBe(
      'CONFORMS (partial: 65 of 374 checks; vitest shard 1/4)',
    )
    const both = shardSelection(
      { index: 2, count: 4 },
      3,
      { label: '--check SL-LIFE', selected: 22, catalogue: 374 },
      374,
    )
    expect(computeVerdict({ totals: totals({ passed: 3 }), selection: both }).label).toBe(
      'CONFORMS (partial: 3 of 374 checks; vitest shard 2/4; selection --check SL-LIFE)',
    )
    // vitest run directly with --shard does not know the catalogue: still partial, never a whole verdict
    expect(
      computeVerdict({
        totals: totals({ passed: 65 }),
        selection: shardSelection({ index: 1, count: 4 }, 65, undefined, undefined),
      }).label,
    ).toBe('CONFORMS (partial: 65 checks; vitest shard 1/4)')
  })

  it(
    "vitest's own filters (--changed, -t, files after --) are partial too, when fewer checks ran than the " +
      'catalogue',
    () => {
      expect(vitestFilterOf(['--changed'])).toBe('--changed')
      expect(vitestFilterOf(['-t', 'AUTH', '--shard=1/4', '--reporter=dot'])).toBe('-t AUTH')
      expect(vitestFilterOf(['suites/auth', '--changed=HEAD~1'])).toBe('suites/auth --changed=HEAD~1')
      expect(vitestFilterOf(['--shard=1/4', '--bail=1'])).toBeUndefined()
      const checks = (n: number, ct = 0) =>
        ({
          checks: [
            ...Array.from({ length: n }, (_, i) => ({ id: `A-${i}` })),
            ...Array.from({ length: ct }, (_, i) => ({ id: `CT-x-${i}` })),
          ],
        }) as never
      const partial = vitestFilterSelection('--changed', checks(12, 3), 379)
      expect(computeVerdict({ totals: totals({ passed: 15 }), selection: partial }).label).toBe(
        'CONFORMS (partial: 12 of 379 checks; vitest filter --changed)',
      )
      // every check of the catalogue ran (the filter matched all of it): a whole verdict
      expect(vitestFilterSelection('--changed', checks(379, 3), 379)).toBeUndefined()
      expect(vitestFilterSelection(undefined, checks(12), 379)).toBeUndefined()
    },
  )

  it('DOES NOT CONFORM when a requirement failed, even with errored or blocked checks beside it', () => {
    const v = computeVerdict({
      totals: totals({ passed: 3, failed: 2, errored: 1, blocked: 4 }),
      ids: { failed: ['A-1', 'A-2'] },
    })
    expect(v).toMatchObject({ verdict: 'DOES NOT CONFORM', exitCode: 1, cause: '2 failed check(s): A-1, A-2' })
  })

  it('DOES NOT CONFORM for a §5 violation before any check (a login answering a non-JWT token)', () => {
    expect(
      computeVerdict({ totals: totals({}), stop: { kind: 'violation', cause: 'sales-service.md §5: not a JWT' } }),
    ).toMatchObject({ verdict: 'DOES NOT CONFORM', exitCode: 1 })
  })

  it('INCONCLUSIVE, never CONFORMS, when the run could not test, naming the cause', () => {
    const cases = [
      computeVerdict({ totals: totals({}), stop: { kind: 'inconclusive', cause: 'Target unreachable' } }),
      computeVerdict({ totals: totals({ passed: 5, errored: 1 }), ids: { errored: ['X-1'] } }),
      computeVerdict({ totals: totals({ passed: 5, blocked: 2 }), ids: { blocked: ['B-1', 'B-2'] } }),
      computeVerdict({ totals: totals({ passed: 5, skipped: 1 }) }),
      computeVerdict({ totals: totals({}) }),
      computeVerdict({ totals: totals({ 'not-applicable': 4 }) }),
      computeVerdict({ totals: totals({ passed: 5 }), runErrors: ['suites/x.test.ts: SyntaxError'] }),
    ]
    for (const v of cases) {
      expect(v.verdict).toBe('INCONCLUSIVE')
      expect(v.exitCode).toBe(EXIT.inconclusive)
      expect(v.cause).toBeTruthy()
      expect(v.label).toContain(v.cause)
    }
    expect(cases[0]!.cause).toBe('Target unreachable')
    expect(cases[1]!.cause).toContain('X-1')
    expect(cases[2]!.cause).toContain('blocked')
  })

  it(
    'a part of the run that could not run (a shard) makes it INCONCLUSIVE with that cause, unless a requirement ' +
      'failed',
    () => {
      expect(
        computeVerdict({
          totals: totals({ passed: 150 }),
          incomplete: ['shard 2/4 could not run: Target unreachable'],
        }),
      ).toMatchObject({ verdict: 'INCONCLUSIVE', exitCode: 3, cause: 'shard 2/4 could not run: Target unreachable' })
      expect(
        computeVerdict({ totals: totals({ passed: 150, failed: 1 }), incomplete: ['shard 2/4 could not run'] }).verdict,
      ).toBe('DOES NOT CONFORM')
    },
  )

  it(
    'a configuration error is exit code 2 and says so: CONFIGURATION ERROR, never INCONCLUSIVE (which is 3) nor ' +
      'CONFORMS',
    () => {
      const v = computeVerdict({
        totals: totals({}),
        stop: { kind: 'configuration', cause: 'users.restricted: cannot log in' },
      })
      expect(v).toMatchObject({
        verdict: 'CONFIGURATION ERROR',
        exitCode: EXIT.usage,
        label: 'CONFIGURATION ERROR (users.restricted: cannot log in)',
      })
      expect(v.label).not.toMatch(/INCONCLUSIVE/)
      // nothing was tested: a selection is not "partial" of anything
      const selected = computeVerdict({
        totals: totals({}),
        stop: { kind: 'configuration', cause: 'x' },
        selection: { label: '--check SL', selected: 3, catalogue: 300 },
      })
      expect(selected.label).toBe('CONFIGURATION ERROR (x)')
    },
  )

  it('maps each verdict to its exit code, as the README table does', () => {
    expect([
      exitCodeOf('CONFORMS'),
      exitCodeOf('DOES NOT CONFORM'),
      exitCodeOf('CONFIGURATION ERROR'),
      exitCodeOf('INCONCLUSIVE'),
    ]).toEqual([0, 1, 2, 3])
  })

  it(
    'the error that ends a stopped run is its cause alone, and is known as such (the console does not print it ' +
      'twice)',
    () => {
      const e = runStopError('Target unreachable: SALES_BASE_URL=http://127.0.0.1:1')
      expect([e.message, e.stack]).toEqual([
        'Target unreachable: SALES_BASE_URL=http://127.0.0.1:1',
        'Target unreachable: SALES_BASE_URL=http://127.0.0.1:1',
      ])
      expect(isRunStop(e)).toBe(true)
      expect([isRunStop(new Error('Target unreachable')), isRunStop(undefined), isRunStop({ message: 'x' })]).toEqual([
        false,
        false,
        false,
      ])
    },
  )
})
