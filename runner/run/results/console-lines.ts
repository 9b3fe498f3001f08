import type { CheckOutcome, ChecksReport } from './results'
import { contractFindingsOf } from './matrix'
import { realWorldLine } from './invariants'
import { distinctFindings } from './findings'
import { documentWarningLines } from './document-warnings'
import { totalsLine } from './totals-line'

/** How many checks of each kind the console lists before "and N more". */
export const CONSOLE_LIST_LIMIT = 15

function listed(label: string, checks: CheckOutcome[], line: (c: CheckOutcome) => string): string[] {
  const out = checks.slice(0, CONSOLE_LIST_LIMIT).map((c) => `  ${label} ${line(c)}`)
  if (checks.length > CONSOLE_LIST_LIMIT)
    out.push(`  ... and ${checks.length - CONSOLE_LIST_LIMIT} more ${label.toLowerCase()} (reports/checks.json)`)
  return out
}

function byReason(checks: CheckOutcome[], reasonOf: (c: CheckOutcome) => string): [string, string[]][] {
  const m = new Map<string, string[]>()
  for (const c of checks) m.set(reasonOf(c), [...(m.get(reasonOf(c)) ?? []), c.id])
  return [...m.entries()]
}

const ids = (list: string[]) =>
  list.length > 6 ? `${list.slice(0, 6).join(', ')} and ${list.length - 6} more` : list.join(', ')

/** The longest line the console prints: the rest of a finding is in the reports (checks.json, junit.xml, Allure). */
export const CONSOLE_LINE_MAX = 320

/**
 * A line cut to CONSOLE_LINE_MAX characters. The verdict line is never cut: a run stopped before any check (a login
 * that breaks §5, an unreachable target) has its whole cause there, and nothing else says it on the console.
 */
export function fit(line: string): string {
  if (line.startsWith('verdict  ')) return line
  return line.length > CONSOLE_LINE_MAX ? `${line.slice(0, CONSOLE_LINE_MAX - 1)}…` : line
}

/**
 * "POST http://..." of a record's request, without its body: the console names the request, the reports show it whole.
 */
function requestOf(request: string | undefined): string | undefined {
  if (!request) return undefined
  const [method, url] = request.split(' ')
  return url ? `${method} ${url}` : method
}

/**
 * A failed or errored check's finding in one line, from its record's fields (checks.json `failure`): what was expected
 * and what came back, or the error, and the request; a check with no record (vitest's own error) by its message's
 * first line. The console and JUnit's message use it.
 */
export function findingLine(c: CheckOutcome): string {
  const f = c.failure
  const what =
    f?.expected !== undefined
      ? `expected ${f.expected}, got ${f.actual ?? ''}`
      : (f?.error ?? (c.error ?? '').split('\n').find((l) => l.trim()) ?? c.status)
  const request = requestOf(f?.request)
  return `${what}${request ? ` (${request})` : ''}`
}

/** The reason a blocked check gives: what failed in its setup and, when known, the check that owns it. */
export function blockedReason(c: CheckOutcome): string {
  const b = c.blocked
  if (!b) return c.note ?? 'setup failed'
  const op = b.operation
    ? ` (${b.operation}${b.status !== undefined ? ` answered ${b.status}` : ''})`
    : b.status !== undefined
      ? ` (status ${b.status})`
      : ''
  return `${b.reason}${op}${b.owner ? `; see ${b.owner}` : ''}`
}

/**
 * What blocked a check, the same for every check blocked by one root cause: the failed operation and its owner, else
 * the reason.
 */
function blockedCause(c: CheckOutcome): string {
  const b = c.blocked
  if (b?.owner || b?.operation)
    return `${
      b.operation ? `${b.operation}${b.status !== undefined ? ` answered ${b.status}` : ''}` : 'setup failed'
    }${b.owner ? `; see ${b.owner}` : ''}`
  return blockedReason(c)
}

/** The console lines of one target's outcome; `areas` adds the per-section table. */
export function consoleLines(report: ChecksReport, areas: boolean): string[] {
  const t = report.totals
  const out: string[] = []
  const run = report.run
  if (run) {
    out.push(
      `target   ${run.profile}${
        run.container
          ? ` (container ${run.container.image} ${run.container.id})`
          : run.embedded
            ? ' (embedded reference)'
            : ''
      } ` + ` ${run.salesBaseUrl}`,
    )
    out.push(
      `tenant   ${run.tenant || '-'}  user ${run.user || '-'}  run ${run.runId}  ` +
        `seed ${run.seed}${run.defects.length ? `  defects ${run.defects.join(',')}` : ''}`,
    )
  }
  out.push(...documentWarningLines(run?.documentWarnings ?? []))
  if (report.checks.length > 0 || !report.cause) {
    const findings = distinctFindings(
      report.checks.filter((c) => c.status === 'failed'),
      report.checks.filter((c) => c.status === 'blocked').map((c) => c.id),
    ).length
    out.push(
      `checks   ${totalsLine(t, findings < t.failed ? { failedNote: `(${findings} distinct finding(s))` } : {})}`,
    )
  }
  if (areas && report.checks.length > 0) {
    const area = new Map<string, { passed: number; failed: number; other: number }>()
    for (const c of report.checks) {
      const key = `${c.document} ${c.section}`
      const a = area.get(key) ?? { passed: 0, failed: 0, other: 0 }
      if (c.status === 'passed') a.passed += 1
      else if (c.status === 'failed' || c.status === 'errored') a.failed += 1
      else a.other += 1
      area.set(key, a)
    }
    for (const [k, a] of [...area.entries()].sort()) {
      out.push(
        `  ${k.padEnd(34)} ${String(a.passed).padStart(4)} passed ${String(a.failed).padStart(3)} failed or ` +
          `errored ${String(a.other).padStart(3)} not run`,
      )
    }
  }
  if (report.checks.length > 0) {
    const exercised = report.operations.filter((o) => o.calls > 0)
    const never = report.operations.filter((o) => o.calls === 0)
    out.push(
      `operations exercised past auth (measured from traffic): ${exercised.length}/${report.operations.length}` +
        ` (${['sales', 'webhooks'].map((s) => `${s} ${exercised.filter((o) => o.service === s).length}/${report.operations.filter((o) => o.service === s).length}`).join(', ')})`,
    )
    if (never.length > 0 && !report.selection)
      out.push(`  never exercised: ${never.map((o) => `${o.method} ${o.path}`).join(', ')}`)
    if (report.contracts) {
      const findings = contractFindingsOf(report)
      out.push(
        `published contracts (openapi documents): ${report.contracts.validated} exchanges ` +
          `validated, ${findings.length} contract check(s) with findings ` +
          `(${findings.filter((f) => f.policy === 'fail').length} failed)`,
      )
      const nd = Object.entries(report.contracts.notDescribed ?? {}).sort(([a], [b]) => a.localeCompare(b))
      if (nd.length > 0)
        out.push(
          `  not in any document (${nd.reduce((n, [, c]) => n + c, 0)} exchanges): ${nd
            .map(([op, n]) => `${op} ` + `x${n}`)
            .join(', ')}`,
        )
    }
    if (report.realWorldData) out.push(realWorldLine(report.realWorldData))
  }
  const of = (s: CheckOutcome['status']) => report.checks.filter((c) => c.status === s)
  // one line per failed or errored check, with its finding; the rest is in the reports
  out.push(
    ...listed(
      'FAILED',
      of('failed'),
      (c) =>
        `${c.id} ${c.document} ${c.section}: ${findingLine(c)}${
          c.sameFindingAs ? ` (the same finding as ${c.sameFindingAs.join(', ')})` : ''
        }`,
    ),
  )
  out.push(...listed('ERRORED', of('errored'), (c) => `${c.id} ${c.document} ${c.section}: ${findingLine(c)}`))
  // blocked checks by their root cause (the check that owns the failed operation, or the reason): one line each
  for (const [cause, list] of byReason(of('blocked'), blockedCause))
    out.push(`  BLOCKED (${list.length}) ${cause}: ${ids(list)}`)
  for (const [reason, list] of byReason(of('not-applicable'), (c) => (c.note ?? '').replace(/^not applicable:\s*/, '')))
    out.push(`  NOT APPLICABLE (${list.length}) ${reason}: ${ids(list)}`)
  for (const [reason, list] of byReason(of('skipped'), (c) => c.note ?? 'no reason given'))
    out.push(`  SKIPPED (${list.length}) ${reason}: ${ids(list)}`)
  // the contract checks' deviations (undocumented statuses, contract warn) in one line: checks.json has each
  const contractDeviations = report.checks.filter((x) => x.id.startsWith('CT-') && x.deviations.length > 0)
  if (contractDeviations.length > 0)
    out.push(
      `  CONTRACT DEVIATIONS (${contractDeviations.length}, warn; ` +
        `reports/checks.json): ${contractDeviations.map((c) => c.id).join(', ')}`,
    )
  // one line per deviation id, with the checks that met it (one answer's deviation met by many checks is one line)
  const deviations = new Map<string, { policy: string; message: string; checks: string[] }>()
  for (const c of report.checks.filter((x) => x.deviations.length > 0 && !x.id.startsWith('CT-'))) {
    for (const d of c.deviations) {
      const e = deviations.get(d.id) ?? { policy: d.policy, message: d.message, checks: [] }
      if (!e.checks.includes(c.id)) e.checks.push(c.id)
      deviations.set(d.id, e)
    }
  }
  for (const [id, d] of deviations)
    out.push(
      `  DEVIATION ${id} (${d.policy}) in ${
        d.checks.length === 1 ? d.checks[0] : `${d.checks.length} checks ` + `(${ids(d.checks)})`
      }: ${d.message}`,
    )
  for (const n of report.notes ?? []) out.push(`  NOTE ${n}`)
  out.push(`verdict  ${report.label ?? report.verdict ?? 'INCONCLUSIVE'}`)
  return out.map(fit)
}
