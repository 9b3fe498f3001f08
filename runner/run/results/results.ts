import type { FailureFields } from './failure-fields'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { RunInfo } from './run-info'
import type { TrafficLine } from '../../../helpers/client/http/traffic-file'
import type { RunVerdict } from '../verdict'

/**
 * - failed: the check's requirement was violated by the target (an assertion helper or a failing deviation)
 * - errored: the check could not finish (a tool error, no response, a timeout): the run is INCONCLUSIVE
 * - blocked: the check's setup failed (TaskMeta.blocked): it could not reach its assertion
 * - not-applicable: the target lacks the feature or the profile the user (with the reason)
 * - skipped: skipped with no reason given (a run that skips a selected check is INCONCLUSIVE)
 */
export type CheckStatus = 'passed' | 'failed' | 'errored' | 'blocked' | 'skipped' | 'not-applicable'

export const CHECK_STATUSES: readonly CheckStatus[] = [
  'passed',
  'failed',
  'errored',
  'blocked',
  'skipped',
  'not-applicable',
]

export type Totals = Record<CheckStatus, number> & { deviations: number }

export function emptyTotals(): Totals {
  return { passed: 0, failed: 0, errored: 0, blocked: 0, skipped: 0, 'not-applicable': 0, deviations: 0 }
}

/** One check's outcome, as written to reports/checks.json. */
export interface CheckOutcome {
  id: string
  document: string
  section: string
  requirement: string
  title: string
  file: string
  /** The line of the check's `check(...)` or `step(...)` call in `file` (an invariant: of its declaration). */
  line?: number
  status: CheckStatus
  durationMs: number
  error?: string
  /**
   * A failed or errored check's message as fields: clause, requirement, expected, actual, request, response, reproduce
   * (runner/run/results/failure-fields.ts).
   */
  failure?: FailureFields
  note?: string
  /**
   * A contract check's (CT-*) first finding as data: what came back, the exchanges, the document's pointer
   * (runner/run/results/contract-checks.ts).
   */
  contract?: { actual: string; exchange: string; pointer: string }
  /** Set when status is 'blocked': what failed in the setup (helpers/checks/check.ts TaskMeta.blocked). */
  blocked?: { reason: string; operation?: string; status?: number | string; owner?: string }
  /** The operations the requirement is about (common/operations.json ids; see docs/reports.md). */
  about?: string[]
  deviations: { id: string; message: string; policy: string }[]
  /**
   * What the check did not probe in this run, and how to have it probed (not a failure; e.g. expiry beyond the leeway).
   */
  notes?: string[]
  /**
   * A failure that is the same finding as these failed checks (their ids), not another requirement broken:
   * - a model invariant whose every breach was in the answers of checks that failed (or were blocked by a failure);
   * - a check that failed on the same answer as the check owning that requirement, or as the same check of another
   *   product (runner/run/results/findings.ts).
   * Counted once, as those checks, by the mutation harness's failures-per-defect (scripts/mutation/distribution.ts);
   * the verdict counts it as any failure.
   */
  sameFindingAs?: string[]
}

export interface ChecksReport extends Partial<Omit<RunVerdict, 'label'>> {
  run: RunInfo | undefined
  /** The verdict's one line (also in every other report), e.g. "CONFORMS (partial: 22 of 299 checks; ...)". */
  label?: string
  totals: Totals
  checks: CheckOutcome[]
  operations: { id: string; service: string; method: string; path: string; calls: number; checks: string[] }[]
  /** How far each requirement in the run's scope was tested: covered, partially, untested (requirement-coverage.ts). */
  requirements?: RequirementCoverage[]
  /**
   * What the run did not probe, each with the checks that say so: "expiry beyond the leeway not probed (...):
   * AUTH-TOKEN-001, AUTH-TOKEN-002". Not failures: the verdict is unchanged (docs/reports.md).
   */
  notes?: string[]
  /**
   * Exchanges validated against the target's published documents (profile `openapi`), measured from traffic; absent
   * when none was.
   */
  contracts?: { validated: number; notDescribed?: Record<string, number> }
  /**
   * Real-world data class -> leaves of that class the run wrote (SL-INV-009, helpers/oracle/real-world.ts); absent when
   * none.
   */
  realWorldData?: Record<string, number>
  /**
   * The exercise model's cells: applicable, exercised by the run's traffic, and those not with why
   * (runner/run/results/exercise-coverage.ts).
   */
  exercise?: import('../../../helpers/oracle/exercise-model').ExerciseCoverage
}

export function readRunInfo(dir: string): RunInfo | undefined {
  const p = join(dir, 'run.json')
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as RunInfo) : undefined
}

/** run.json when it is this run's (its id is `runId`, or no id is given), else undefined: never an earlier run's. */
export function readOwnRunInfo(dir: string, runId: string | undefined): RunInfo | undefined {
  const run = readRunInfo(dir)
  return run && (!runId || run.runId === runId) ? run : undefined
}

/** All traffic lines of a run, measured (reports/traffic/*.jsonl). */
export function readTraffic(dir: string, runId?: string): TrafficLine[] {
  if (!existsSync(dir)) return []
  const lines: TrafficLine[] = []
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.jsonl')) continue
    for (const l of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (!l.trim()) continue
      try {
        const t = JSON.parse(l) as TrafficLine
        if (!runId || t.runId === runId) lines.push(t)
      } catch {
        // a torn line from an interrupted worker is skipped
      }
    }
  }
  return lines
}

/** The lines of one run among traffic lines of several (all of them when the run id is unknown). */
export function linesOfRun(lines: TrafficLine[], runId: string | undefined): TrafficLine[] {
  return runId ? lines.filter((t) => t.runId === runId) : lines
}

/**
 * Removes the run reports a harness reads (checks.json, targets/) from a reports folder that is used again, so that a
 * run which stops before writing its own is never read as the earlier run's outcome.
 */
export function clearRunReports(dir: string): void {
  for (const f of RUN_REPORT_FILES) rmSync(join(dir, f), { force: true })
  for (const f of RUN_REPORT_FOLDERS) rmSync(join(dir, f), { recursive: true, force: true })
}

/**
 * The files of one run in a reports folder: removed before a run, so an earlier run's are never read as its own, nor
 * left beside the new run's (issue #37: acceptance.json of an earlier acceptance after a plain run; the screenshots of
 * `report --check`). The Allure results and the traffic go by run id; the Allure history is kept on purpose (trends),
 * one line per run (runner/commands/report/history.ts).
 */
export const RUN_REPORT_FILES = [
  'run.json',
  'checks.json',
  'verdict.json',
  'conformance.md',
  'conformance.html',
  'junit.xml',
  'acceptance.json',
  'allure-report.png',
  'conformance.png',
]

/**
 * The folders of one run in a reports folder, removed with RUN_REPORT_FILES: a multi-target run's, and the HTML report
 * of an earlier run (`report`).
 */
export const RUN_REPORT_FOLDERS = ['targets', 'allure-report']

/** A multi-target run's reports (<dir>/<key>/checks.json under reports/targets), by target key. */
export function readTargetReports(dir: string): Record<string, ChecksReport> {
  const out: Record<string, ChecksReport> = {}
  for (const key of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const file = join(dir, key, 'checks.json')
    if (existsSync(file)) out[key] = JSON.parse(readFileSync(file, 'utf8')) as ChecksReport
  }
  return out
}

/** The totals of several reports added up. */
export function sumTotals(reports: readonly ChecksReport[]): Totals {
  const all = emptyTotals()
  for (const r of reports) for (const k of Object.keys(all) as (keyof Totals)[]) all[k] += r.totals[k] ?? 0
  return all
}

/** The run's notes: each distinct note of its checks once, with the ids of the checks that gave it. */
export function runNotes(checks: readonly CheckOutcome[]): string[] {
  const by = new Map<string, string[]>()
  for (const c of checks) for (const n of c.notes ?? []) by.set(n, [...(by.get(n) ?? []), c.id])
  return [...by.entries()].map(([n, ids]) => `${n}: ${ids.join(', ')}`)
}

/** How far one requirement in the run's scope was tested (computed by requirement-coverage.ts). */
export interface RequirementCoverage {
  id: string
  document: string
  section: string
  paraphrase: string
  status: 'covered' | 'partial' | 'untested' | 'not-applicable'
  /** Checks of the run that judged it / that cover it. */
  judged: number
  checks: number
  enable: string[]
}
