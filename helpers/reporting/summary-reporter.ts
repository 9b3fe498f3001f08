import { mkdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { TestCase, TestModule } from 'vitest/node'
import type { Reporter } from 'vitest/reporters'
import { OPERATIONS } from '../http/operations'
import { writeMatrix } from './matrix-writer'
import { reportsDir, trafficDir } from './paths'
import { readRunInfo, readTraffic, type CheckOutcome, type CheckStatus, type ChecksReport } from './results'

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
    file: relative(root, tc.module.moduleId),
    status,
    durationMs: Math.round(diag?.duration ?? 0),
    ...(r.state === 'failed' && r.errors?.[0] ? { error: r.errors[0].message } : {}),
    ...(r.state === 'skipped' && (meta.notApplicable ?? r.note) ? { note: meta.notApplicable ?? r.note } : {}),
    deviations: meta.deviations ?? [],
  }
}

/** Collects every check's outcome and the measured traffic into one report object. */
export function collectResults(modules: ReadonlyArray<TestModule>, root: string, dir: string): ChecksReport {
  const run = readRunInfo(dir)
  const checks = modules.flatMap((m) => [...m.children.allTests()].map((tc) => outcomeOf(tc, root)).filter((c): c is CheckOutcome => !!c))
  const totals = { passed: 0, failed: 0, skipped: 0, 'not-applicable': 0, deviations: 0 }
  for (const c of checks) {
    totals[c.status] += 1
    totals.deviations += c.deviations.length
  }
  const traffic = readTraffic(trafficDir(), run?.runId)
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

/**
 * One-screen summary at the end of a conformance run, plus reports/checks.json.
 * Ends with the plain closing line "conformance: N passed, N failed, N skipped".
 */
export default class SummaryReporter implements Reporter {
  private root = process.cwd()

  onInit(vitest: { config: { root: string } }): void {
    this.root = vitest.config.root
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const dir = reportsDir()
    const report = collectResults(modules, this.root, dir)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'checks.json'), `${JSON.stringify(report, null, 2)}\n`)
    writeMatrix(dir, report, readTraffic(trafficDir(), report.run?.runId))
    if (report.checks.length === 0) return
    const t = report.totals
    const out: string[] = ['', '─── ledger-conformance ───────────────────────────────────────────']
    const run = report.run
    if (run) {
      out.push(`target   ${run.profile}${run.container ? ` (container ${run.container.image} ${run.container.id})` : run.embedded ? ' (embedded reference)' : ''}  ${run.salesBaseUrl}`)
      out.push(`tenant   ${run.tenant}  user ${run.user}  run ${run.runId}  seed ${run.seed}${run.defects.length ? `  defects ${run.defects.join(',')}` : ''}`)
    }
    out.push(`checks   ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, ${t['not-applicable']} not applicable, ${t.deviations} deviation(s)`)
    const areas = new Map<string, Record<CheckStatus, number>>()
    for (const c of report.checks) {
      const key = `${c.document} ${c.section}`
      const a = areas.get(key) ?? { passed: 0, failed: 0, skipped: 0, 'not-applicable': 0 }
      a[c.status] += 1
      areas.set(key, a)
    }
    for (const [k, a] of [...areas.entries()].sort()) {
      out.push(`  ${k.padEnd(34)} ${String(a.passed).padStart(4)} passed ${String(a.failed).padStart(3)} failed ${String(a.skipped + a['not-applicable']).padStart(3)} skipped`)
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
    out.push(t.failed === 0 ? 'verdict  CONFORMS' : `verdict  DOES NOT CONFORM (${t.failed} failed check(s))`)
    out.push(`reports  ${relative(process.cwd(), dir) || '.'}/junit.xml, allure-results/, checks.json, conformance.md, conformance.html`)
    out.push(`conformance: ${t.passed} passed, ${t.failed} failed, ${t.skipped + t['not-applicable']} skipped`)
    process.stdout.write(`${out.join('\n')}\n`)
  }
}
