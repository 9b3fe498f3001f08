import type { FailureFields } from './failure-fields'
import type { CheckOutcome, CheckStatus, ChecksReport } from './results'
import type { TrafficLine } from '../../../helpers/client/http/traffic-file'
import { computeVerdict, type Verdict } from '../verdict'

/** How an operation fared in a run, from the checks that exercised it. */
export type OperationOutcome =
  | 'failed'
  | 'passed'
  | 'not-applicable'
  | 'auth-only'
  | 'exercised-without-check'
  | 'never-exercised'

export interface MatrixCheck {
  id: string
  status: CheckStatus
  /** The check failed and its requirement is about this operation (runner/run/selection/about.ts). */
  failedHere?: boolean
  section: string
  requirement: string
  /** A failed check's expected, actual, exchange and reproduction (runner/run/results/failure-fields.ts). */
  failure?: FailureFields
}

export interface MatrixRow {
  operationId: string
  service: string
  method: string
  path: string
  /** Calls past authentication and routing (not 401, 403, 501), as counted in checks.json. */
  calls: number
  /** Every recorded call, including those rejected at authentication. */
  allCalls: number
  /** Response statuses seen on the wire, e.g. { '200': 12, '401': 5 }; 'error' for no response. */
  statuses: Record<string, number>
  /** Checks that called the operation (past authentication, or only to see it rejected). */
  checks: MatrixCheck[]
  outcome: OperationOutcome
}

export interface ConformanceMatrix {
  run: ChecksReport['run']
  totals: ChecksReport['totals']
  verdict: Verdict
  /** The verdict's line as every report prints it (partial selection, cause). */
  label: string
  rows: MatrixRow[]
  /** Every failed check of the run (also one that calls no operation of the catalogue). */
  failedChecks: MatrixCheck[]
  /** Count of operations per outcome. */
  byOutcome: Record<OperationOutcome, number>
  /**
   * Published-contract findings (deviations openapi-contract:<operation>, docs/contracts.md), with the check that met
   * them.
   */
  contractFindings: { operationId: string; check: string; policy: string; message: string }[]
  /** Exchanges validated against the published documents (0 when the profile names none). */
  contractValidated: number
  /** Real-world data classes the run wrote (ChecksReport.realWorldData); absent when none. */
  realWorldData?: Record<string, number>
  /** Requirement coverage of the run (runner/run/results/requirement-coverage.ts); empty when not computed. */
  requirements: NonNullable<ChecksReport['requirements']>
  /** What the run did not probe (ChecksReport.notes). */
  notes: string[]
}

function outcomeOf(calls: number, allCalls: number, checks: MatrixCheck[]): OperationOutcome {
  // FAILED only by a failed check whose requirement is about this operation, not by one that merely called it
  if (checks.some((c) => c.failedHere)) return 'failed'
  if (allCalls === 0) return 'never-exercised'
  if (checks.length === 0) return 'exercised-without-check'
  if (calls === 0) return 'auth-only'
  if (checks.some((c) => c.status === 'passed')) return 'passed'
  return 'not-applicable'
}

/**
 * The run's published-contract findings: the contract checks CT-<operation>-<kind> that failed or were deviations
 * (runner/run/results/contract-checks.ts).
 */
export function contractFindingsOf(report: Pick<ChecksReport, 'checks'>): ConformanceMatrix['contractFindings'] {
  return report.checks
    .filter((c) => c.id.startsWith('CT-') && (c.status === 'failed' || c.deviations.length > 0))
    .map((c) => {
      const f = c.contract ?? { actual: '', exchange: '', pointer: '' }
      return {
        operationId: c.about?.[0] ?? c.id,
        check: c.id,
        policy: c.status === 'failed' ? 'fail' : 'warn',
        message: `${f.actual} (${f.exchange}); document ${f.pointer}`,
      }
    })
}

/**
 * Every operation of both specs against the checks that exercised it (measured from the recorded
 * traffic, as in checks.json) and their outcome. Operations never called are kept, as such.
 */
export function buildMatrix(report: ChecksReport, traffic: TrafficLine[] = []): ConformanceMatrix {
  const checksById = new Map<string, CheckOutcome>()
  for (const c of report.checks) checksById.set(c.id, c)
  const idByTitle = new Map(report.checks.map((c) => [c.title, c.id]))
  const rows: MatrixRow[] = report.operations.map((op) => {
    const statuses: Record<string, number> = {}
    const ids = new Set(op.checks)
    let allCalls = 0
    for (const t of traffic) {
      if (t.operationId !== op.id) continue
      allCalls += 1
      const k = t.status !== undefined ? String(t.status) : 'error'
      statuses[k] = (statuses[k] ?? 0) + 1
      const id = t.test ? idByTitle.get(t.test.split(' > ').at(-1) ?? '') : undefined
      if (id) ids.add(id)
    }
    // a failed check about this operation belongs to its row even when it never got past authentication with it
    for (const c of report.checks) if (c.status === 'failed' && (c.about ?? []).includes(op.id)) ids.add(c.id)
    const checks = [...ids]
      .sort()
      .map((id) => checksById.get(id))
      .filter((c): c is CheckOutcome => !!c)
      .map((c) => ({
        id: c.id,
        status: c.status,
        ...(c.status === 'failed' && (c.about ?? []).includes(op.id) ? { failedHere: true } : {}),
        section: `${c.document} ${c.section}`,
        requirement: c.requirement,
      }))
    return {
      operationId: op.id,
      service: op.service,
      method: op.method,
      path: op.path,
      calls: op.calls,
      allCalls: Math.max(allCalls, op.calls),
      statuses,
      checks,
      outcome: outcomeOf(op.calls, Math.max(allCalls, op.calls), checks),
    }
  })
  const byOutcome: Record<OperationOutcome, number> = {
    failed: 0,
    passed: 0,
    'not-applicable': 0,
    'auth-only': 0,
    'exercised-without-check': 0,
    'never-exercised': 0,
  }
  for (const r of rows) byOutcome[r.outcome] += 1
  const v = report.verdict
    ? { verdict: report.verdict, label: report.label ?? report.verdict }
    : computeVerdict({ totals: report.totals })
  const failedChecks = report.checks
    .filter((c) => c.status === 'failed')
    .map((c) => ({
      id: c.id,
      status: c.status,
      section: `${c.document} ${c.section}`,
      requirement: c.requirement,
      ...(c.failure ? { failure: c.failure } : {}),
    }))
  const contractFindings = contractFindingsOf(report)
  return {
    run: report.run,
    totals: report.totals,
    verdict: v.verdict,
    label: v.label,
    rows,
    failedChecks,
    byOutcome,
    contractFindings,
    contractValidated: report.contracts?.validated ?? 0,
    requirements: report.requirements ?? [],
    notes: report.notes ?? [],
    ...(report.realWorldData ? { realWorldData: report.realWorldData } : {}),
  }
}

export const OUTCOME_LABEL: Record<OperationOutcome, string> = {
  failed: 'FAILED',
  passed: 'passed',
  'not-applicable': 'not applicable',
  'auth-only': 'only auth rejections',
  'exercised-without-check': 'called, no check',
  'never-exercised': 'never exercised',
}

/** "3 passed, 1 failed" for a row's checks. */
export function checkCounts(checks: MatrixCheck[]): string {
  const n: Partial<Record<CheckStatus, number>> = {}
  for (const c of checks) n[c.status] = (n[c.status] ?? 0) + 1
  return (
    (['passed', 'failed', 'errored', 'blocked', 'skipped', 'not-applicable'] as const)
      .filter((s) => n[s])
      .map((s) => `${n[s]} ${s}`)
      .join(', ') || '—'
  )
}

export function statusList(statuses: Record<string, number>): string {
  return (
    Object.entries(statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([s, n]) => `${s}×${n}`)
      .join(' ') || '—'
  )
}
