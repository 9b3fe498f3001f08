import { existsSync } from 'node:fs'
import { safeText } from '../../helpers/client/evidence/neutralise'
import { openBreakerCauses } from '../../helpers/client/http/breaker'
import { totalsLine } from '../run/results/totals-line'
import { relative } from 'node:path'
import type { SerializedError } from 'vitest'
import type { TestCase, TestModule } from 'vitest/node'
import type { Reporter } from 'vitest/reporters'
import { OPERATIONS } from '../../common/operations'
import { suiteFileOf } from '../run/targets/entries'
import { callerPath, reportsDir, targetReportsDir, trafficDir } from '../../common/report-paths'
import {
  emptyTotals,
  linesOfRun,
  readOwnRunInfo,
  readRunInfo,
  readTraffic,
  runNotes,
  sumTotals,
  type CheckOutcome,
  type CheckStatus,
  type ChecksReport,
} from '../run/results/results'
import type { TrafficLine } from '../../helpers/client/http/traffic-file'
import { combinedVerdict, emptyReport, withVerdict, writeRunReports } from '../run/results/run-reports'
import { catalogueSizeFromEnv, selectionFromEnv } from '../run/selection/env'
import { plannedStrict, plannedVitestFilter } from '../../common/run-plan'
import type { RunInfo } from '../run/results/run-info'
import type { RunStop, Selection } from '../run/verdict'
import { aboutOperations } from '../run/selection/about'
import { consoleLines, fit } from '../run/results/console-lines'
import { readRequirements } from '../../common/requirements'
import { coverageLines, requirementCoverage } from '../run/results/requirement-coverage'
import { runExerciseCoverage } from '../run/results/exercise-coverage'
import { exerciseLines } from '../../helpers/oracle/exercise-model'

function statusOf(tc: TestCase): CheckStatus | undefined {
  const meta = tc.meta()
  const r = tc.result()
  if (r.state === 'passed') return 'passed'
  // a failure of the requirement (assertion helpers, failing deviation) as opposed to a check that could not finish:
  // the check's record says which (helpers/checks/task-meta.ts FailureRecord); a failure without one is vitest's or a
  // hook's
  if (r.state === 'failed') return meta.failure?.kind === 'failed' ? 'failed' : 'errored'
  // a test vitest did not run because a filter (-t, .skip) left it out is not part of the run's selection
  if (tc.options.mode === 'skip' || tc.options.mode === 'todo') return undefined
  if (meta.blocked) return 'blocked'
  if (meta.notApplicable !== undefined) return 'not-applicable'
  if (r.state === 'skipped' && /^blocked\b/i.test(r.note ?? '')) return 'blocked'
  return 'skipped'
}
/**
 * A failed or errored check's `error` (the text of its record: helpers/checks/failure.ts renderFailure) and `failure`
 * (its fields): both from the one record. A check that failed outside the check library (vitest's timeout, a hook) has
 * vitest's message.
 */
function failureOf(
  record: FailureRecord | undefined,
  message: string | undefined,
  check: { document: string; section: string; requirement: string },
): Pick<CheckOutcome, 'error' | 'failure'> {
  const error = record ? renderFailure(record) : message
  if (error === undefined) return {}
  return {
    error,
    failure: failureFields(
      record?.clause ?? `${check.document} ${check.section}`,
      record?.requirement ?? check.requirement,
      record,
    ),
  }
}
import { invariantOutcomes, realWorldDataSent } from '../run/results/invariants'
import { contractOutcomes } from '../run/results/contract-checks'
import { findingOf, sameFindings, type FailedFinding } from '../run/results/findings'
import { failureFields } from '../run/results/failure-fields'
import { renderFailure } from '../../helpers/checks/failure'
import type { FailureRecord } from '../../helpers/checks/task-meta'
import { answersOf, withSharedAnswers } from '../run/results/shared-answers'

function outcomeOf(tc: TestCase, root: string): CheckOutcome | undefined {
  const meta = tc.meta()
  const check = meta.check
  if (!check) return undefined
  const status = statusOf(tc)
  if (!status) return undefined
  const r = tc.result()
  const diag = tc.diagnostic()
  const note = r.state === 'skipped' ? r.note : undefined
  const file = meta.suiteFile ?? suiteFileOf(relative(root, tc.module.moduleId))
  const blocked =
    status === 'blocked'
      ? (meta.blocked ?? { reason: (note ?? 'setup failed').replace(/^blocked:\s*/i, '') })
      : undefined
  return {
    id: check.id,
    document: check.document,
    section: check.section,
    requirement: check.requirement,
    title: tc.name,
    file,
    ...(check.at?.file === file ? { line: check.at.line } : {}),
    status,
    durationMs: Math.round(diag?.duration ?? 0),
    ...(r.state === 'failed' ? failureOf(meta.failure, r.errors?.[0]?.message, check) : {}),
    ...(r.state === 'skipped' && (meta.notApplicable ?? r.note) ? { note: meta.notApplicable ?? r.note } : {}),
    ...(blocked ? { blocked } : {}),
    about: aboutOperations(check, status === 'failed' ? meta.failure?.operation : undefined),
    deviations: meta.deviations ?? [],
    ...(meta.notes?.length ? { notes: meta.notes } : {}),
  }
}

/** The test cases of a run, by target (TaskMeta.target; undefined in a single-target run). */
export function casesByTarget(modules: ReadonlyArray<TestModule>): Map<string | undefined, TestCase[]> {
  const out = new Map<string | undefined, TestCase[]>()
  for (const m of modules) {
    for (const tc of m.children.allTests()) {
      const key = tc.meta().target
      const cases = out.get(key) ?? []
      cases.push(tc)
      out.set(key, cases)
    }
  }
  return out
}

/** Test cases a filter left out (-t, .skip): the run's catalogue is larger than its selection. */
function filteredOut(cases: ReadonlyArray<TestCase>): number {
  return cases.filter((tc) => tc.meta().check && (tc.options.mode === 'skip' || tc.options.mode === 'todo')).length
}

/**
 * A run that vitest's own options filtered (`-- --changed`, `-- -t X`, file filters; the CLI says which and collects
 * the catalogue's size): "partial: 12 of 379 checks; vitest filter --changed" when fewer checks ran than the
 * catalogue holds. Contract checks (CT-*) are not in the catalogue and do not count.
 */
export function vitestFilterSelection(
  filter: string | undefined,
  report: Pick<ChecksReport, 'checks'>,
  catalogue: number | undefined,
): Selection | undefined {
  if (!filter || !catalogue) return undefined
  const ran = report.checks.filter((c) => !c.id.startsWith('CT-')).length
  return ran < catalogue
    ? { label: `vitest ${filter}`, selected: ran, catalogue, why: `vitest filter ${filter}` }
    : undefined
}

/**
 * The share of one vitest shard: "partial: 47 of 374 checks; vitest shard 1/4" (with the CLI's selection when there is
 * one). The catalogue's size comes from the CLI (runner/commands/run/index.ts collects it for a sharded run); vitest
 * run
 * directly with --shard does not know it: "partial: 47 checks; vitest shard 1/4".
 */
export function shardSelection(
  shard: { index: number; count: number },
  ran: number,
  selection: Selection | undefined,
  catalogue: number | undefined,
): Selection {
  const why = `vitest shard ${shard.index}/${shard.count}${selection ? `; selection ${selection.label}` : ''}`
  return {
    label: selection?.label ?? `--shard=${shard.index}/${shard.count}`,
    selected: ran,
    catalogue: selection?.catalogue ?? catalogue ?? 0,
    why,
  }
}

/** The failed checks whose failure is another failed check's say so (runner/run/results/findings.ts). */
function withSameFindings(cases: ReadonlyArray<TestCase>, outcomes: CheckOutcome[]): CheckOutcome[] {
  const failed = new Set(outcomes.filter((c) => c.status === 'failed').map((c) => c.id))
  const found: FailedFinding[] = []
  for (const tc of cases) {
    const { check, failure } = tc.meta()
    const finding = findingOf(failure)
    if (check && finding && failed.has(check.id))
      found.push({ id: check.id, ...(check.product ? { product: check.product } : {}), finding })
  }
  const same = sameFindings(found)
  if (same.size === 0) return outcomes
  return outcomes.map((c) => {
    const s = c.status === 'failed' ? same.get(c.id) : undefined
    return s ? { ...c, error: `${c.error ?? ''}\nthe same finding as ${s.as}: ${s.why}`, sameFindingAs: [s.as] } : c
  })
}

/**
 * The outcome of every check among `cases`, then of each of the model's invariants, which are checks of their own
 * judged
 * on the answers of every other check (docs/model.md), with the failures about one answer named as one finding
 * (runner/run/results/shared-answers.ts). The same list feeds checks.json, JUnit and the Allure results.
 */
export function checkOutcomes(cases: ReadonlyArray<TestCase>, root: string): CheckOutcome[] {
  const own = withSameFindings(
    cases,
    cases.map((tc) => outcomeOf(tc, root)).filter((c): c is CheckOutcome => !!c),
  )
  return own.length > 0
    ? withSharedAnswers([...own, ...invariantOutcomes(cases), ...contractOutcomes(cases)], answersOf(cases))
    : own
}

/**
 * Collects the outcome of every check among `cases` and the measured traffic of its run into one report object.
 * `allTraffic`: the traffic lines of every run id in reports/traffic (read from reports/traffic when not given).
 */
export function collectResults(
  cases: ReadonlyArray<TestCase>,
  root: string,
  runDir: string,
  allTraffic: TrafficLine[] = readTraffic(trafficDir()),
  run: RunInfo | undefined = readRunInfo(runDir),
): ChecksReport {
  const checks = checkOutcomes(cases, root)
  const totals = emptyTotals()
  for (const c of checks) {
    totals[c.status] += 1
    totals.deviations += c.deviations.length
  }
  const traffic = linesOfRun(allTraffic, run?.runId)
  const byTitle = new Map(checks.map((c) => [c.title, c.id]))
  const operations = OPERATIONS.map((op) => {
    // an operation counts as exercised only by calls that got past authentication and routing
    const calls = traffic.filter(
      (t) => t.operationId === op.id && t.status !== undefined && ![401, 403, 501].includes(t.status),
    )
    const ids = new Set<string>()
    for (const t of calls) {
      const name = t.test?.split(' > ').at(-1)
      const id = name ? byTitle.get(name) : undefined
      if (id) ids.add(id)
    }
    return {
      id: op.id,
      service: op.service,
      method: op.method,
      path: op.path,
      calls: calls.length,
      checks: [...ids].sort(),
    }
  })
  const validated = traffic.filter((t) => t.contract === 'validated').length
  const realWorld = realWorldDataSent(cases)
  const notes = runNotes(checks)
  // exchanges on operations no document holds, by operation (catalogue id, else method and path), with their count
  const notDescribed: Record<string, number> = {}
  for (const t of traffic)
    if (t.contract === 'not-described')
      notDescribed[t.operationId ?? `${t.method} ${t.template}`] =
        (notDescribed[t.operationId ?? `${t.method} ${t.template}`] ?? 0) + 1
  const described = Object.keys(notDescribed).length > 0
  return {
    run,
    totals,
    checks,
    operations,
    ...(notes.length > 0 ? { notes } : {}),
    ...(validated > 0 || described ? { contracts: { validated, ...(described ? { notDescribed } : {}) } } : {}),
    ...(Object.values(realWorld).some((k) => k > 0) ? { realWorldData: realWorld } : {}),
  }
}

/** Errors outside any check: a suite file that did not load, a hook that threw, an unhandled error. */
function runErrorsOf(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): string[] {
  const out: string[] = []
  for (const m of modules) {
    for (const e of m.errors()) out.push(`${relative(process.cwd(), m.moduleId)}: ${e.message}`)
    for (const s of m.children.allSuites()) for (const e of s.errors()) out.push(`${s.fullName}: ${e.message}`)
  }
  for (const e of unhandled) out.push(e.message)
  return out.map((m) => m.split('\n')[0]!)
}

/** This run's run.json, or a stop that says why there is none (it is never an earlier run's). */
function thisRun(dir: string, runId: string | undefined): { run: RunInfo | undefined; stop: RunStop | undefined } {
  const run = readOwnRunInfo(dir, runId)
  if (run) return { run, stop: run.stop }
  return {
    run: undefined,
    stop: {
      kind: 'inconclusive',
      cause: 'the run stopped before its global setup recorded it (see the output above); no check was run',
    },
  }
}

const RULE = '─── ledger-conformance ───────────────────────────────────────────'
const closing = (t: ChecksReport['totals']) => `conformance: ${totalsLine(t)}`

/**
 * vitest's own exit code when it is run directly (npm run conformance:container, a workflow calling vitest): a run that
 * does not conform exits 1 even when only a model invariant failed, which vitest knows nothing of (a broken invariant
 * fails no vitest test: helpers/checks/check.ts). vitest only ever raises process.exitCode.
 */
function failVitestOn(exitCode: number | undefined): void {
  if (exitCode === 1 && !process.exitCode) process.exitCode = 1
}

/**
 * One-screen summary at the end of a conformance run, and every report of the run with its verdict (checks.json,
 * conformance.md/.html, junit.xml, Allure environment, verdict.json), whatever the outcome: a run that stopped in
 * its preflight is INCONCLUSIVE (or DOES NOT CONFORM for a §5 violation at login), never CONFORMS. In a
 * multi-target run, one checks.json and matrix per target under reports/targets/<key>/ and a verdict per target.
 * Ends with the plain closing line "conformance: N passed, N failed, N errored, ..." (all targets together; the same
 * categories and numbers as the checks line, checks.json, the matrix and JUnit: runner/run/results/totals-line.ts).
 */
export default class SummaryReporter implements Reporter {
  private root = process.cwd()
  private shard: { index: number; count: number } | undefined

  onInit(vitest: { config: { root: string; shard?: { index: number; count: number } } }): void {
    this.root = vitest.config.root
    // a vitest shard runs its share of the suite files: its verdict is partial (the merge of every shard is whole)
    this.shard =
      vitest.config.shard && vitest.config.shard.count > 1
        ? { index: vitest.config.shard.index, count: vitest.config.shard.count }
        : undefined
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []): void {
    const dir = reportsDir()
    const selection = selectionFromEnv(process.env)
    const { run, stop } = thisRun(dir, process.env.CONFORMANCE_RUN_ID)
    const groups = casesByTarget(modules)
    const keys = [...groups.keys()].filter((k): k is string => k !== undefined)
    // read once: every target's report takes its own run id's lines from it
    const traffic = stop ? [] : readTraffic(trafficDir())
    const runErrors = stop ? [] : runErrorsOf(modules, unhandledErrors)
    const incomplete = stop ? [] : (run?.shardStops ?? [])
    const selectionOf = (cases: TestCase[], report: ChecksReport): Selection | undefined => {
      if (this.shard)
        return shardSelection(this.shard, report.checks.length, selection, catalogueSizeFromEnv(process.env))
      if (selection) return selection
      const filtered = vitestFilterSelection(plannedVitestFilter(), report, catalogueSizeFromEnv(process.env))
      if (filtered) return filtered
      const left = filteredOut(cases)
      return left > 0
        ? {
            label: 'vitest filter (-t or .skip)',
            selected: report.checks.length,
            catalogue: report.checks.length + left,
          }
        : undefined
    }
    const reportsPath = callerPath(dir)
    if (stop || keys.length === 0 || !existsSync(targetReportsDir())) {
      const cases = [...groups.values()].flat()
      const collected = stop ? emptyReport(run) : collectResults(cases, this.root, dir, traffic, run)
      const requirements = stop ? undefined : requirementCoverage(readRequirements(), collected.checks)
      const withRequirements = requirements ? { ...collected, requirements } : collected
      // suite files given to vitest (acceptance --suites, run <files>) select part of the run even when the size of the
      // catalogue is not known: what only the other files exercise is not this run's to miss
      const filter = plannedVitestFilter()
      const exerciseSelection =
        selectionOf(cases, withRequirements) ??
        (filter
          ? {
              label: `vitest ${filter}`,
              selected: withRequirements.checks.length,
              catalogue: withRequirements.checks.length,
            }
          : undefined)
      const exercise = stop ? undefined : runExerciseCoverage(cases, run, exerciseSelection, process.env)
      const base = exercise ? { ...withRequirements, exercise } : withRequirements
      const strict = plannedStrict()
      const strictUntested = strict ? (requirements ?? []).filter((r) => r.status === 'untested').map((r) => r.id) : []
      // a cell outside the selection (a shard, --check) or a write of a read-only run is not this run's to exercise
      const strictUnexercised =
        strict && exercise
          ? exercise.notExercised
              .filter((n) => n.why === 'not reached' || n.why === 'left to --thorough')
              .map((n) => n.cell)
          : []
      let report = withVerdict(
        base,
        stop,
        selectionOf(cases, base),
        runErrors,
        incomplete,
        strictUntested,
        strictUnexercised,
      )
      // the target stopped answering (helpers/client/http/breaker.ts): that is the cause of an inconclusive run, not
      // its checks
      const breaker = stop ? undefined : openBreakerCauses()[0]
      if (breaker && report.verdict === 'INCONCLUSIVE')
        report = withVerdict(
          base,
          { kind: 'inconclusive', cause: breaker },
          selectionOf(cases, base),
          runErrors,
          incomplete,
          strictUntested,
          strictUnexercised,
        )
      writeRunReports({ dir, reports: [{ report }], overall: report, traffic })
      failVitestOn(report.exitCode)
      const lines = ['', RULE, ...consoleLines(report, true)]
      if (requirements) lines.push(...coverageLines(requirements))
      if (requirements && !strict && requirements.some((r) => r.status === 'untested'))
        lines.push('  (untested requirements do not change the verdict; --strict makes them INCONCLUSIVE)')
      if (exercise) lines.push(...exerciseLines(exercise))
      if (exercise && !strict && exercise.notExercised.length > 0)
        lines.push('  (cells not exercised do not change the verdict; --strict makes them INCONCLUSIVE)')
      if (!stop)
        lines.push(
          `reports  ${reportsPath}/junit.xml, allure-results/, checks.json, conformance.md, conformance.html, ` +
            `verdict.json`,
          closing(report.totals),
        )
      else
        lines.push(
          `reports  ${reportsPath}/verdict.json, checks.json, conformance.md, junit.xml (this run's verdict and cause)`,
        )
      process.stdout.write(`${safeText(lines.map(fit).join('\n'))}\n`)
      return
    }
    const reports = keys.sort().map((key) => {
      const own = targetReportsDir(undefined, key)
      const cases = groups.get(key) ?? []
      const collected = collectResults(cases, this.root, own, traffic)
      const exercise = runExerciseCoverage(cases, collected.run, selectionOf(cases, collected), process.env)
      const base = exercise ? { ...collected, exercise } : collected
      return { key, report: withVerdict(base, undefined, selectionOf(cases, base), runErrors, incomplete) }
    })
    const v = combinedVerdict(reports.map((r) => r.report))
    const overall: ChecksReport = {
      ...emptyReport(run),
      totals: sumTotals(reports.map((r) => r.report)),
      verdict: v.verdict,
      exitCode: v.exitCode,
      label: v.label,
      ...(v.cause ? { cause: v.cause } : {}),
    }
    writeRunReports({ dir, reports, overall, traffic })
    failVitestOn(v.exitCode)
    const out = ['', RULE]
    for (const { key, report } of reports) out.push(`[${key}]`, ...consoleLines(report, false).map((l) => `  ${l}`))
    out.push(`targets  ${reports.length}: ${reports.map(({ key, report }) => `${key} ${report.verdict}`).join(', ')}`)
    out.push(`verdict  ${v.label}`)
    out.push(
      `reports  ${reportsPath}/junit.xml, allure-results/, verdict.json, targets/<target>/checks.json, ` +
        `conformance.md, conformance.html`,
    )
    out.push(closing(sumTotals(reports.map((r) => r.report))))
    process.stdout.write(`${safeText(out.join('\n'))}\n`)
  }
}
