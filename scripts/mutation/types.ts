/** What one conformance run said, reduced to what the mutation and flake harnesses need. */
export interface RunSummary {
  exitCode: number | null
  /** Checks that ran (any status). 0 when the run stopped before any check. */
  checksRun: number
  failed: FailedCheck[]
  /** Checks skipped as blocked (their setup failed; checks.json status 'blocked', or a skip noted 'blocked: ...'). */
  blocked: BlockedCheck[]
  wallMs: number
  /** From the start of the run to the end of the first failed check (allure timestamps). */
  firstFailureMs?: number
  /** The one-line reason when the run stopped before any check (preflight, bad configuration). */
  stopMessage?: string
  /** true when that reason is the suite's own refusal (preflight or configuration), not a crash. */
  stoppedByPreflight?: boolean
  /** Last lines of the run's console, for a run that broke. */
  outputTail: string
}

/** A check that could not reach its assertion, with the check that owns the failed setup's requirement. */
export interface BlockedCheck {
  id: string
  owner?: string
  operation?: string
}

export interface FailedCheck {
  id: string
  document: string
  section: string
  /** The start of the check's failure message (already redacted by the suite). */
  error?: string
  /**
   * A model invariant broken only in the answers of these failed checks: the same finding
   * (runner/run/results/results.ts).
   */
  sameFindingAs?: string[]
}

/**
 * caught: a check failed that did not fail on the faithful reference; stopped: the run refused to start (counted as
 * caught).
 */
export type DefectVerdict = 'caught' | 'stopped' | 'missed' | 'error' | 'undetectable'

export interface DefectResult {
  name: string
  area: string
  clause: string
  description: string
  verdict: DefectVerdict
  /** Failed checks that did not fail on the faithful reference (blocked checks are not failed). */
  newFailures: FailedCheck[]
  /** Checks blocked in that run (their setup failed); not failures, not counted in the distribution. */
  blocked?: BlockedCheck[]
  /** true when one of the new failures cites the defect's clause (document and section). */
  clauseMatched: boolean
  wallMs: number
  firstFailureMs?: number
  stopMessage?: string
  undetectable?: string
  outputTail?: string
}

export type VariationVerdict = 'green' | 'false-alarm' | 'error'

export interface VariationResult {
  name: string
  description: string
  verdict: VariationVerdict
  failed: FailedCheck[]
  checksRun: number
  wallMs: number
  stopMessage?: string
  outputTail?: string
}

export interface Score {
  caught: number
  /** Defects in the score: all minus the ones shown undetectable through the API. */
  scored: number
  undetectable: number
  /** caught / scored, 0..1 (1 when nothing is scored). */
  ratio: number
}

export interface MutationReport {
  startedAt: string
  wallMs: number
  parallel: number
  /** suite: each defect run ran the whole suite; area: only the suites of the defect's area. */
  scope: 'suite' | 'area'
  /** Defects or variations per run (1: each alone); docs/mutation.md "Batches". */
  batch?: number
  bar: number
  baseline: VariationResult
  /**
   * Checks that failed against a batch's faithful control reference: the batch's own doing, never a finding; fails the
   * harness.
   */
  controlFailures?: string[]
  score: Score
  falseAlarms: number
  defects: DefectResult[]
  /** Failed checks per caught defect (median, p90, max, worst): the cascade measure. */
  distribution: FailureDistribution
  variations: VariationResult[]
  passed: boolean
}

/** How many checks one defect fails: the cascade measure of issue 13 (target p90 <= 2). */
export interface FailureDistribution {
  /** Defects counted: those caught by at least one failed check (a preflight stop fails no check). */
  defects: number
  median: number
  p90: number
  max: number
  /** Every failed check counted, each finding shared or not (CheckOutcome.sameFindingAs): what the verdict counts. */
  everyFailure?: { median: number; p90: number; max: number }
  /** Defects whose every failed check cites the defect's clause. */
  onClause: number
  /** The defects with the most failed checks, most first (ties by name). */
  worst: { name: string; failed: number; blocked: number; offClause: string[] }[]
}
