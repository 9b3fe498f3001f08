import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { TestCase, TestModule } from 'vitest/node'
import type { Reporter } from 'vitest/reporters'
import { OPERATIONS } from '../../common/operations'
import { suiteFileOf } from '../targets/entries'
import { writeMatrix } from './matrix-writer'
import { reportsDir, targetReportsDir, trafficDir } from '../../helpers/reporting/paths'
import { linesOfRun, readRunInfo, readTraffic, sumTotals, type CheckOutcome, type CheckStatus, type ChecksReport } from './results'
import type { TrafficLine } from '../../helpers/reporting/traffic-file'

function outcomeOf(tc: TestCase, root: string): CheckOutcome | undefined {
  const meta = tc.meta()
  const check = meta.check
  if (!check) return undefined
  const r = tc.result()
  const diag = tc.diagnostic()
  let status: CheckStatus = r.state === 'passed' ? 'passed' : r.state === 'failed' ? 'failed' : 'skipped'
  if (r.state === 'skipped' && meta.notApplicable !== undefined) status = 'not-applicable'
  return {
    id: check.id,
    document: check.document,
    section: check.section,
    requirement: check.requirement,
    title: tc.name,
    file: suiteFileOf(relative(root, tc.module.moduleId)),
    status,
    durationMs: Math.round(diag?.duration ?? 0),
    ...(r.state === 'failed' && r.errors?.[0] ? { error: r.errors[0].message } : {}),
    ...(r.state === 'skipped' && (meta.notApplicable ?? r.note) ? { note: meta.notApplicable ?? r.note } : {}),
    deviations: meta.deviations ?? [],
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

/**
 * Collects the outcome of every check among `cases` and the measured traffic of its run into one report object.
 * `allTraffic`: the traffic lines of every run id in reports/traffic (read from reports/traffic when not given).
 */
export function collectResults(cases: ReadonlyArray<TestCase>, root: string, runDir: string, allTraffic: TrafficLine[] = readTraffic(trafficDir())): ChecksReport {
  const run = readRunInfo(runDir)
  const checks = cases.map((tc) => outcomeOf(tc, root)).filter((c): c is CheckOutcome => !!c)
  const totals = { passed: 0, failed: 0, skipped: 0, 'not-applicable': 0, deviations: 0 }
  for (const c of checks) {
    totals[c.status] += 1
    totals.deviations += c.deviations.length
  }
  const traffic = linesOfRun(allTraffic, run?.runId)
  const byTitle = new Map(checks.map((c) => [c.title, c.id]))
  const operations = OPERATIONS.map((op) => {
    // an operation counts as exercised only by calls that got past authentication and routing
    const calls = traffic.filter((t) => t.operationId === op.id && t.status !== undefined && ![401, 403, 501].includes(t.status))
    const ids = new Set<string>()
    for (const t of calls) {
      const name = t.test?.split(' > ').at(-1)
      const id = name ? byTitle.get(name) : undefined
      if (id) ids.add(id)
    }
    return { id: op.id, service: op.service, method: op.method, path: op.path, calls: calls.length, checks: [...ids].sort() }
  })
  return { run, totals, checks, operations }
}

/** Writes checks.json and the conformance matrix of one report into `dir`. */
function writeReport(dir: string, report: ChecksReport, allTraffic: TrafficLine[]): void {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'checks.json'), `${JSON.stringify(report, null, 2)}\n`)
  writeMatrix(dir, report, linesOfRun(allTraffic, report.run?.runId))
}

const verdict = (r: ChecksReport) => (r.totals.failed === 0 ? 'CONFORMS' : `DOES NOT CONFORM (${r.totals.failed} failed check(s))`)

/** The lines that describe one target's outcome; `areas` adds the per-section table. */
function targetLines(report: ChecksReport, areas: boolean): string[] {
  const t = report.totals
  const out: string[] = []
  const run = report.run
  if (run) {
    out.push(`target   ${run.profile}${run.container ? ` (container ${run.container.image} ${run.container.id})` : run.embedded ? ' (embedded reference)' : ''}  ${run.salesBaseUrl}`)
    out.push(`tenant   ${run.tenant}  user ${run.user}  run ${run.runId}  seed ${run.seed}${run.defects.length ? `  defects ${run.defects.join(',')}` : ''}`)
  }
  out.push(`checks   ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, ${t['not-applicable']} not applicable, ${t.deviations} deviation(s)`)
  if (areas) {
    const byArea = new Map<string, Record<CheckStatus, number>>()
    for (const c of report.checks) {
      const key = `${c.document} ${c.section}`
      const a = byArea.get(key) ?? { passed: 0, failed: 0, skipped: 0, 'not-applicable': 0 }
      a[c.status] += 1
      byArea.set(key, a)
    }
    for (const [k, a] of [...byArea.entries()].sort()) {
      out.push(`  ${k.padEnd(34)} ${String(a.passed).padStart(4)} passed ${String(a.failed).padStart(3)} failed ${String(a.skipped + a['not-applicable']).padStart(3)} skipped`)
    }
  }
  const exercised = report.operations.filter((o) => o.calls > 0)
  const never = report.operations.filter((o) => o.calls === 0)
  out.push(`operations exercised past auth (measured from traffic): ${exercised.length}/${report.operations.length}` +
    ` (sales ${exercised.filter((o) => o.service === 'sales').length}/27, webhooks ${exercised.filter((o) => o.service === 'webhooks').length}/6)`)
  if (never.length > 0) out.push(`  never exercised: ${never.map((o) => `${o.method} ${o.path}`).join(', ')}`)
  for (const c of report.checks.filter((x) => x.status === 'failed').slice(0, 15)) out.push(`  FAILED ${c.id} ${c.document} ${c.section}: ${c.requirement}`)
  for (const c of report.checks.filter((x) => x.deviations.length > 0)) {
    for (const d of c.deviations) out.push(`  DEVIATION ${d.id} (${d.policy}) in ${c.id}: ${d.message}`)
  }
  out.push(`verdict  ${verdict(report)}`)
  return out
}

const closing = (t: ChecksReport['totals']) => `conformance: ${t.passed} passed, ${t.failed} failed, ${t.skipped + t['not-applicable']} skipped`
const RULE = '─── ledger-conformance ───────────────────────────────────────────'

/**
 * One-screen summary at the end of a conformance run, plus reports/checks.json and the conformance matrix;
 * in a multi-target run, one of each per target under reports/targets/<key>/ and a verdict per target.
 * Ends with the plain closing line "conformance: N passed, N failed, N skipped" (all targets together).
 */
export default class SummaryReporter implements Reporter {
  private root = process.cwd()

  onInit(vitest: { config: { root: string } }): void {
    this.root = vitest.config.root
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const dir = reportsDir()
    const groups = casesByTarget(modules)
    const keys = [...groups.keys()].filter((k): k is string => k !== undefined)
    // read once: every target's report takes its own run id's lines from it
    const traffic = readTraffic(trafficDir())
    if (keys.length === 0 || !existsSync(targetReportsDir())) {
      const report = collectResults([...groups.values()].flat(), this.root, dir, traffic)
      writeReport(dir, report, traffic)
      if (report.checks.length === 0) return
      process.stdout.write(`${['', RULE, ...targetLines(report, true), `reports  ${relative(process.cwd(), dir) || '.'}/junit.xml, allure-results/, checks.json, conformance.md, conformance.html`, closing(report.totals)].join('\n')}\n`)
      return
    }
    const reports = keys.sort().map((key) => {
      const own = targetReportsDir(undefined, key)
      const report = collectResults(groups.get(key) ?? [], this.root, own, traffic)
      writeReport(own, report, traffic)
      return { key, report }
    })
    const out = ['', RULE]
    for (const { key, report } of reports) out.push(`[${key}]`, ...targetLines(report, false).map((l) => `  ${l}`))
    out.push(`targets  ${reports.length}: ${reports.map(({ key, report }) => `${key} ${report.totals.failed === 0 ? 'conforms' : 'DOES NOT CONFORM'}`).join(', ')}`)
    out.push(`reports  ${relative(process.cwd(), dir) || '.'}/junit.xml, allure-results/, targets/<target>/checks.json, conformance.md, conformance.html`)
    out.push(closing(sumTotals(reports.map((r) => r.report))))
    process.stdout.write(`${out.join('\n')}\n`)
  }
}
