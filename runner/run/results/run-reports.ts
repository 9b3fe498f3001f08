import type { RequirementCoverage } from './requirement-coverage'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { OPERATIONS } from '../../../common/operations'
import { safeJson } from '../../../helpers/client/evidence/neutralise'
import type { TrafficLine } from '../../../helpers/client/http/traffic-file'
import { computeVerdict, type RunStop, type RunVerdict, type Selection } from '../verdict'
import { writeAllureVerdict } from './allure-verdict'
import { junitXml } from './junit'
import { writeMatrix } from './matrix-writer'
import { emptyTotals, linesOfRun, type CheckOutcome, type ChecksReport } from './results'
import type { RunInfo } from './run-info'
import { exerciseSummary } from './exercise-coverage'

/** The verdict of one report (its checks, the run's stop, the selection, errors outside the checks). */
export function withVerdict(
  report: ChecksReport,
  stop?: RunStop,
  selection?: Selection,
  runErrors: string[] = [],
  incomplete: string[] = [],
  strictUntested: string[] = [],
  strictUnexercised: string[] = [],
): ChecksReport {
  const ids = (s: CheckOutcome['status']) => report.checks.filter((c) => c.status === s).map((c) => c.id)
  const v = computeVerdict({
    totals: report.totals,
    ids: { failed: ids('failed'), errored: ids('errored'), blocked: ids('blocked'), skipped: ids('skipped') },
    stop,
    selection,
    runErrors,
    incomplete,
    strictUntested,
    strictUnexercised,
  })
  return { ...report, ...verdictFields(v) }
}

function verdictFields(v: RunVerdict): Pick<ChecksReport, 'verdict' | 'exitCode' | 'cause' | 'label' | 'selection'> {
  return {
    verdict: v.verdict,
    exitCode: v.exitCode,
    ...(v.cause ? { cause: v.cause } : {}),
    label: v.label,
    ...(v.selection ? { selection: v.selection } : {}),
  }
}

/** A report with no check: the run stopped (configuration, preflight) before any. */
export function emptyReport(run: RunInfo | undefined): ChecksReport {
  return {
    run,
    totals: emptyTotals(),
    checks: [],
    operations: OPERATIONS.map((op) => ({
      id: op.id,
      service: op.service,
      method: op.method,
      path: op.path,
      calls: 0,
      checks: [],
    })),
  }
}

/**
 * The verdict of several targets together: a failed requirement anywhere, else anything inconclusive, else CONFORMS.
 */
export function combinedVerdict(reports: ChecksReport[], stop?: RunStop): RunVerdict {
  if (stop) return computeVerdict({ totals: emptyTotals(), stop })
  const worst =
    reports.find((r) => r.exitCode === 1) ??
    reports.find((r) => r.exitCode === 2) ??
    reports.find((r) => r.exitCode === 3) ??
    reports[0]
  if (!worst) return computeVerdict({ totals: emptyTotals() })
  const bad = reports.filter((r) => r.exitCode !== 0).length
  const cause =
    bad > 0 ? `${bad} of ${reports.length} target(s) not CONFORMS; first: ${worst.label ?? worst.verdict}` : undefined
  return {
    verdict: worst.verdict ?? 'INCONCLUSIVE',
    exitCode: worst.exitCode ?? 3,
    ...(cause ? { cause } : {}),
    label: cause ? `${worst.verdict} (${cause})` : (worst.label ?? 'CONFORMS'),
  }
}

/** reports/verdict.json: the one file that says how this run ended (the CLI reads its exit code from it). */
export interface VerdictFile extends RunVerdict {
  /** How far each requirement in the run's scope was tested (runner/run/results/requirement-coverage.ts). */
  requirements?: RequirementCoverage[]
  /** What the run did not probe (not failures; ChecksReport.notes). */
  notes?: string[]
  /**
   * The exercise coverage: applicable cells, exercised, percent, those not exercised by reason (checks.json names
   * them).
   */
  exercise?: ReturnType<typeof exerciseSummary>
  runId: string | undefined
  target: string | undefined
  targets?: Record<string, Pick<RunVerdict, 'verdict' | 'exitCode' | 'cause' | 'label'>>
  writtenAt: string
}

/** The notes of every report of a run (a target's prefixed with its key). */
function notesOf(r: RunReports): string[] {
  return r.reports.flatMap(({ key, report }) => (report.notes ?? []).map((n) => (key ? `[${key}] ${n}` : n)))
}

export function readVerdictFile(dir: string): VerdictFile | undefined {
  const p = join(dir, 'verdict.json')
  if (!existsSync(p)) return undefined
  try {
    return JSON.parse(readFileSync(p, 'utf8')) as VerdictFile
  } catch {
    return undefined
  }
}

export interface RunReports {
  dir: string
  /** One report (single target) or one per target key. */
  reports: { key?: string; report: ChecksReport }[]
  /** The whole run's verdict (the single report's own, or the targets' combined). */
  overall: ChecksReport
  traffic: TrafficLine[]
  allureResultsDir?: string
}

/**
 * Writes every report of a run, whatever its outcome, each with the same verdict: checks.json and the matrix
 * (per target), junit.xml, the Allure environment/executor, verdict.json.
 */
export function writeRunReports(r: RunReports): void {
  mkdirSync(r.dir, { recursive: true })
  for (const { key, report } of r.reports) {
    const own = key ? join(r.dir, 'targets', key) : r.dir
    mkdirSync(own, { recursive: true })
    writeFileSync(join(own, 'checks.json'), `${safeJson(report)}\n`)
    writeMatrix(own, report, linesOfRun(r.traffic, report.run?.runId))
  }
  const failedOrErrored = r.reports.reduce((n, { report }) => n + report.totals.failed + report.totals.errored, 0)
  writeFileSync(join(r.dir, 'junit.xml'), junitXml(r.reports, r.overall))
  writeAllureVerdict(r.allureResultsDir ?? join(r.dir, 'allure-results'), r.overall, failedOrErrored)
  const o = r.overall
  const file: VerdictFile = {
    runId: o.run?.runId,
    target: o.run ? `${o.run.profile} ${o.run.salesBaseUrl}` : undefined,
    verdict: o.verdict ?? 'INCONCLUSIVE',
    exitCode: o.exitCode ?? 3,
    ...(o.cause ? { cause: o.cause } : {}),
    label: o.label ?? o.verdict ?? 'INCONCLUSIVE',
    ...(o.selection ? { selection: o.selection } : {}),
    ...(o.requirements ? { requirements: o.requirements } : {}),
    ...(notesOf(r).length > 0 ? { notes: notesOf(r) } : {}),
    ...(o.exercise ? { exercise: exerciseSummary(o.exercise) } : {}),
    ...(r.reports.some((x) => x.key)
      ? {
          targets: Object.fromEntries(
            r.reports.map(({ key, report }) => [
              key,
              {
                verdict: report.verdict ?? 'INCONCLUSIVE',
                exitCode: report.exitCode ?? 3,
                ...(report.cause ? { cause: report.cause } : {}),
                label: report.label ?? '',
              },
            ]),
          ),
        }
      : {}),
    writtenAt: new Date().toISOString(),
  }
  writeFileSync(join(r.dir, 'verdict.json'), `${safeJson(file)}\n`)
}

/**
 * Every report of a run that stopped before vitest ran any check (a configuration error, a failed preflight, an
 * empty selection, vitest ending without a report), with this run's id and target: run.json with the stop, then the
 * same reports as any run. The Allure results folder holds only this run's verdict afterwards.
 */
export function writeStoppedRun(dir: string, run: RunInfo, stop: RunStop, selection?: Selection): ChecksReport {
  mkdirSync(dir, { recursive: true })
  const info = { ...run, stop }
  writeFileSync(join(dir, 'run.json'), `${safeJson(info)}\n`)
  const allure = join(dir, 'allure-results')
  rmSync(allure, { recursive: true, force: true })
  const report = withVerdict(emptyReport(info), stop, selection)
  writeRunReports({ dir, reports: [{ report }], overall: report, traffic: [], allureResultsDir: allure })
  return report
}
