import { describe, expect, it } from 'vitest'
import {
  exploreVerdict,
  formatExplore,
  INVARIANT_FAMILIES,
  type ExploreResult,
} from '../../../../runner/commands/explore/explore'
import { EXIT } from '../../../../runner/run/verdict'
import { exerciseCoverage, type Cell } from '../../../../helpers/oracle/exercise-model'

const OPTIONS = { seed: 1, steps: 10, maxSequence: 5, timeLimitMs: 1000, stepsPerSecond: 10 }
const ALL = { 'WH-INV-001': 3, 'SL-INV-002': 4, 'PL-INV-001': 1 }
const result = (o: Partial<ExploreResult> = {}): ExploreResult => ({
  ok: true,
  seed: 1,
  stepsRun: 10,
  sequences: 2,
  evaluated: ALL,
  sequencesPastFirstStep: 2,
  seconds: 1,
  interrupted: false,
  ...o,
})

describe('exploreVerdict: the exit-code rules of a conformance run', () => {
  it('knows the three invariant families', () => {
    expect([...INVARIANT_FAMILIES].sort()).toEqual(['PL-INV', 'SL-INV', 'WH-INV'])
  })

  it('conforms only when no invariant broke, every family judged and the flows got past their first step', () => {
    expect(exploreVerdict(result())).toEqual({ verdict: 'CONFORMS', exit: EXIT.conforms })
    expect(formatExplore(result(), OPTIONS)).toContain('verdict  CONFORMS')
  })

  it('a login answering no usable token: nothing judged, no sequence past its first step, exit 3 (never 0)', () => {
    const v = exploreVerdict(result({ evaluated: {}, sequencesPastFirstStep: 0 }))
    expect(v.exit).toBe(EXIT.inconclusive)
    expect(v.reason).toContain('no sequence got past its first step')
    expect(v.reason).toContain('WH-INV, SL-INV, PL-INV')
    expect(formatExplore(result({ evaluated: {}, sequencesPastFirstStep: 0 }), OPTIONS)).toContain(
      'verdict  INCONCLUSIVE',
    )
  })

  it('one family that judged nothing (lists whose bodies never parsed) is INCONCLUSIVE, naming it', () => {
    const v = exploreVerdict(result({ evaluated: { 'SL-INV-002': 4, 'PL-INV-001': 1, 'WH-INV-007': 0 } }))
    expect(v).toEqual({
      verdict: 'INCONCLUSIVE',
      exit: EXIT.inconclusive,
      reason: 'no invariant of WH-INV judged any answer',
    })
  })

  it('a broken invariant does not conform (1); a tool error is INCONCLUSIVE (3)', () => {
    expect(exploreVerdict(result({ ok: false, broken: ['SL-INV-002'] })).exit).toBe(EXIT.doesNotConform)
    expect(exploreVerdict(result({ ok: false, error: 'boom' })).exit).toBe(EXIT.inconclusive)
  })
})

describe('formatExplore: the exercise cells the exploration reached', () => {
  it('prints the figure in the format of a run, and the cells not reached', () => {
    const cells: Cell[] = [
      {
        id: 'webhooks.subscriptions.list|multiplicity=1',
        operation: 'webhooks.subscriptions.list',
        dimension: 'multiplicity',
        cls: '1',
        write: false,
      },
      {
        id: 'identity.refresh|identity=refresh',
        operation: 'identity.refresh',
        dimension: 'identity',
        cls: 'refresh',
        write: false,
      },
    ]
    const exercise = exerciseCoverage(cells, new Set(['identity.refresh|identity=refresh']), {
      thorough: true,
      readOnly: false,
      partial: false,
    })
    const text = formatExplore(result({ exercise }), OPTIONS)
    expect(text).toContain('exercise 1 of 2 applicable cells (50 %): multiplicity 0/1, identity 1/1')
    expect(text).toContain('not exercised (not reached): 1: webhooks.subscriptions.list|multiplicity=1')
  })
})
