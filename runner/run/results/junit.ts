import { hostname } from 'node:os'
import { safeXml } from '../../../helpers/client/evidence/neutralise'
import type { CheckOutcome, ChecksReport } from './results'
import { totalsLine } from './totals-line'
import { findingLine } from './console-lines'

/**
 * XML text: the one rule (helpers/client/evidence/neutralise.ts); XML 1.0 forbids most control characters even escaped.
 */
const esc = (s: string): string => safeXml(s)

const attrs = (a: Record<string, string | number | undefined>) =>
  Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}="${esc(String(v))}"`)
    .join(' ')

/** The verdict as JUnit properties: what a CI publisher shows next to the test counts. */
export function verdictProperties(report: ChecksReport): Record<string, string> {
  const run = report.run
  return {
    verdict: report.verdict ?? 'INCONCLUSIVE',
    'verdict.line': report.label ?? report.verdict ?? 'INCONCLUSIVE',
    exitCode: String(report.exitCode ?? 3),
    // the same categories and numbers as the console, checks.json and the matrix (JUnit's own counts fold blocked,
    // not applicable and skipped into "skipped")
    totals: totalsLine(report.totals),
    ...(report.cause ? { cause: report.cause } : {}),
    ...(report.selection
      ? {
          selection:
            `${report.selection.why ?? report.selection.label} ` +
            `(${report.selection.selected}${
              report.selection.catalogue > 0 ? ` of ${report.selection.catalogue}` : ''
            } checks)`,
        }
      : {}),
    ...(run ? { runId: run.runId, target: `${run.profile} ${run.salesBaseUrl}`, tenant: run.tenant } : {}),
  }
}

function testcase(c: CheckOutcome, classname: string): string[] {
  const head = `    <testcase ${attrs({ classname, name: c.title, time: (c.durationMs / 1000).toFixed(3) })}`
  // the message: the check's finding in one line, from its record (the body: the record's text)
  const first = () => findingLine(c)
  switch (c.status) {
    case 'passed':
      return [`${head}/>`]
    case 'failed':
      return [
        `${head}>`,
        `      <failure ${attrs({ message: first(), type: 'requirement violated' })}>${esc(c.error ?? '')}</failure>`,
        '    </testcase>',
      ]
    case 'errored':
      return [
        `${head}>`,
        `      <error ${attrs({ message: first(), type: 'check error' })}>${esc(c.error ?? '')}</error>`,
        '    </testcase>',
      ]
    case 'blocked':
      return [
        `${head}>`,
        `      <skipped ${attrs({ message: `blocked: ${c.blocked?.reason ?? c.note ?? 'setup failed'}` })}/>`,
        '    </testcase>',
      ]
    case 'not-applicable':
      return [
        `${head}>`,
        `      <skipped ${attrs({
          message: `not applicable: ${(c.note ?? '').replace(/^not applicable:\s*/, '')}`,
        })}/>`,
        '    </testcase>',
      ]
    default:
      return [
        `${head}>`,
        `      <skipped ${attrs({ message: c.note ?? 'skipped without a reason' })}/>`,
        '    </testcase>',
      ]
  }
}

/**
 * reports/junit.xml from the run's report: one testsuite per suite file, one testcase per check, skipped with
 * its reason (not applicable, blocked), the verdict as properties of every testsuite, and, when the verdict is
 * not CONFORMS and no check carries the cause (a run that stopped, or ran nothing), one testcase "verdict" that
 * errors (fails, for a violation) with the cause: a publisher never shows such a run as green.
 */
export function junitXml(reports: { key?: string; report: ChecksReport }[], overall: ChecksReport): string {
  const props = verdictProperties(overall)
  const propLines = [
    '    <properties>',
    ...Object.entries(props).map(([k, v]) => `      <property ${attrs({ name: k, value: v })}/>`),
    '    </properties>',
  ]
  const byFile = new Map<string, { classname: string; checks: CheckOutcome[] }>()
  for (const { key, report } of reports) {
    for (const c of report.checks) {
      const classname = key ? `[${key}] ${c.file}` : c.file
      const entry = byFile.get(classname) ?? { classname, checks: [] }
      entry.checks.push(c)
      byFile.set(classname, entry)
    }
  }
  const suites: string[] = []
  let tests = 0
  let failures = 0
  let errors = 0
  let skipped = 0
  const now = new Date().toISOString()
  for (const { classname, checks } of [...byFile.values()].sort((a, b) => a.classname.localeCompare(b.classname))) {
    const f = checks.filter((c) => c.status === 'failed').length
    const e = checks.filter((c) => c.status === 'errored').length
    const s = checks.filter((c) => ['blocked', 'not-applicable', 'skipped'].includes(c.status)).length
    const time = checks.reduce((n, c) => n + c.durationMs, 0) / 1000
    tests += checks.length
    failures += f
    errors += e
    skipped += s
    suites.push(
      `  <testsuite ${attrs({ name: classname, tests: checks.length, failures: f, errors: e, skipped: s, time: time.toFixed(3), timestamp: now, hostname: hostname() })}>`,
      ...propLines,
    )
    for (const c of checks) suites.push(...testcase(c, classname))
    suites.push('  </testsuite>')
  }
  if (overall.verdict !== 'CONFORMS' && failures + errors === 0) {
    const violation = overall.verdict === 'DOES NOT CONFORM'
    const cause = overall.cause ?? overall.label ?? 'the run did not complete'
    tests += 1
    if (violation) failures += 1
    else errors += 1
    suites.push(
      `  <testsuite ${attrs({
        name: 'ledger-conformance run',
        tests: 1,
        failures: violation ? 1 : 0,
        errors: violation ? 0 : 1,
        skipped: 0,
        time: '0',
        timestamp: now,
        hostname: hostname(),
      })}>`,
      ...propLines,
    )
    suites.push(
      `    <testcase ${attrs({
        classname: 'ledger-conformance run',
        name: `verdict ${overall.label ?? overall.verdict ?? 'INCONCLUSIVE'}`,
        time: '0',
      })}>`,
    )
    suites.push(
      `      <${violation ? 'failure' : 'error'} ${attrs({
        message: cause,
        type: violation ? 'requirement violated' : 'run not completed',
      })}>${esc(cause)}</${violation ? 'failure' : 'error'}>`,
    )
    suites.push('    </testcase>', '  </testsuite>')
  }
  return [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    `<testsuites ${attrs({ name: 'ledger-conformance', tests, failures, errors, skipped })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n')
}
