import type { TestCase } from 'vitest/node'
import { exerciseCells, exerciseCoverage, type ExerciseCoverage } from '../../../helpers/oracle/exercise-model'
import type { RunInfo } from './run-info'
import type { Selection } from '../verdict'

/** A run of the read-only suites (smoke): it sends no writes, so the write cells are not its to exercise. */
const READ_ONLY = /read-only/i

/**
 * The exercise coverage of a run (issue 40, docs/exercise.md): the cells of the exercise model that apply to the
 * target's profile (run.json `exercise`, written by the global setup), and those the run's own answered calls
 * exercised,
 * as each check's tally carries them (TaskMeta.exercised, measured by helpers/oracle/exercise-tracker.ts). Undefined
 * when
 * the run recorded no profile (a stopped run).
 */
export function runExerciseCoverage(
  cases: ReadonlyArray<TestCase>,
  run: RunInfo | undefined,
  selection: Selection | undefined,
  env: NodeJS.ProcessEnv,
): ExerciseCoverage | undefined {
  if (!run?.exercise) return undefined
  const exercised = new Set<string>()
  for (const tc of cases) for (const c of tc.meta().exercised ?? []) exercised.add(c)
  return exerciseCoverage(exerciseCells(run.exercise), exercised, {
    thorough: env.LEDGER_THOROUGH === '1',
    readOnly: selection !== undefined && READ_ONLY.test(selection.label),
    partial: selection !== undefined,
  })
}

/** What verdict.json carries of it: the figure and the count of cells not exercised by reason. */
export function exerciseSummary(cov: ExerciseCoverage): {
  applicable: number
  exercised: number
  percent: number
  byDimension: ExerciseCoverage['byDimension']
  notExercised: Record<string, number>
  notApplicable: number
} {
  const notExercised: Record<string, number> = {}
  for (const n of cov.notExercised) notExercised[n.why] = (notExercised[n.why] ?? 0) + 1
  return {
    applicable: cov.applicable,
    exercised: cov.exercised,
    percent: cov.percent,
    byDimension: cov.byDimension,
    notExercised,
    notApplicable: cov.notApplicable.length,
  }
}
