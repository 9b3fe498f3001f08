import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { PROJECT_ROOT } from '../../../common/config/target-config'
import type { CheckStatus, ChecksReport } from '../../run/results/results'
import { EXIT, type ExitCode, type RunVerdict } from '../../run/verdict'

export interface FeatureSet {
  /** Optional features (profile schema) the tenant has. */
  present: string[]
  /** Optional features the tenant lacks (absent or false in the profile). */
  absent: string[]
}

export interface AcceptanceReport {
  verdict: 'ACCEPTED' | 'REJECTED'
  /** The verdict's line: "ACCEPTED", "REJECTED", or "ACCEPTED (embedded reference, not a tenant deployment)". */
  label: string
  /** Set when the target was the embedded reference service (allowed by --allow-reference, for a demonstration). */
  embeddedReference?: true
  /** The run's conformance verdict, as in every other report of the run (runner/run/verdict.ts). */
  conformance: Pick<RunVerdict, 'verdict' | 'exitCode' | 'label'> & { cause?: string }
  /** The exit code of the acceptance: the run's (0 only when ACCEPTED). */
  exitCode: ExitCode
  tenant: string
  profile: string
  profilePath: string
  /** This run's id: always the current run's, even when it stopped before any check. */
  runId: string
  target?: string
  suites: string[]
  features: FeatureSet
  totals?: Record<CheckStatus, number> & { deviations: number }
  /** Why REJECTED beyond failed checks (the run stopped, nothing ran). */
  reasons: string[]
  failed: { id: string; document: string; section: string; requirement: string; evidence: string }[]
  notApplicable: { reason: string; checks: string[] }[]
  /**
   * The requirements no check of the run could judge, with what would enable them
   * (runner/run/results/requirement-coverage.ts).
   */
  untested: { id: string; document: string; section: string; enable: string[] }[]
  deviations: { check: string; id: string; policy: string; message: string }[]
  generatedAt: string
}

/** The optional features the profile schema knows, split into those the tenant has and lacks. */
export function knownFeatures(features: Record<string, unknown>): FeatureSet {
  const schema = JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'fixtures/targets/profile.schema.json'), 'utf8')) as {
    properties: { features?: { properties?: Record<string, unknown> } }
  }
  const known = Object.keys(schema.properties.features?.properties ?? {})
  const all = [...new Set([...known, ...Object.keys(features)])].sort()
  const has = (k: string) => features[k] !== undefined && features[k] !== false && features[k] !== null
  return { present: all.filter(has), absent: all.filter((k) => !has(k)) }
}

export interface VerdictInput {
  /** This run's id (the acceptance sets it before the run). */
  runId?: string
  /** This run's verdict.json, when the run wrote one. */
  conformance?: Pick<RunVerdict, 'verdict' | 'exitCode' | 'label'> & { cause?: string }
  profile: { name: string; path: string; tenant: string }
  features: FeatureSet
  suites: string[]
  exitCode: number | null
  /** The run was against the embedded reference service (--allow-reference). */
  embeddedReference?: boolean
  /** This run's checks.json; undefined when the run stopped before writing it. */
  checks: ChecksReport | undefined
  /** The end of the run's output, for a run that stopped before any check. */
  output: string
}

/**
 * ACCEPTED only when the run completed, at least one check passed and none failed. Every failed
 * requirement is listed with its evidence (the check's failure message, already redacted).
 */
export function acceptanceVerdict(i: VerdictInput): AcceptanceReport {
  const reasons: string[] = []
  const c = i.checks
  if (!c) {
    const lines = i.output
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
    const why =
      lines.find((l) =>
        /Invalid target configuration|Preflight|failed to start|unreachable|Login failed|Target container|refused/i.test(
          l,
        ),
      ) ??
      lines.at(-1) ??
      'no output'
    // the exit code the acceptance ends with (the run's verdict's), not vitest's own
    reasons.push(`the run stopped before any check (exit ${i.conformance?.exitCode ?? i.exitCode}): ${why}`)
  } else {
    if (c.totals.passed === 0) reasons.push('no check passed: nothing was accepted')
    if (c.totals.failed === 0 && i.exitCode !== 0)
      reasons.push(
        `the run failed outside the checks (exit ${i.conformance?.exitCode ?? i.exitCode}); see the console output`,
      )
  }
  const failed = (c?.checks ?? [])
    .filter((x) => x.status === 'failed')
    .map((x) => ({
      id: x.id,
      document: x.document,
      section: x.section,
      requirement: x.requirement,
      evidence: x.error ?? '',
    }))
  const byReason = new Map<string, string[]>()
  for (const x of c?.checks ?? []) {
    if (x.status !== 'not-applicable') continue
    const reason = (x.note ?? 'not applicable').replace(/^not applicable:\s*/, '')
    byReason.set(reason, [...(byReason.get(reason) ?? []), x.id])
  }
  const deviations = (c?.checks ?? []).flatMap((x) =>
    x.deviations.map((d) => ({ check: x.id, id: d.id, policy: d.policy, message: d.message })),
  )
  const conformance = i.conformance ?? {
    verdict: 'INCONCLUSIVE' as const,
    exitCode: EXIT.inconclusive,
    label: `INCONCLUSIVE (${reasons[0] ?? 'the run wrote no verdict'})`,
    cause: reasons[0] ?? 'the run wrote no verdict',
  }
  if (
    conformance.verdict !== 'CONFORMS' &&
    conformance.cause &&
    !reasons.includes(conformance.cause) &&
    failed.length === 0
  )
    reasons.push(conformance.cause)
  const accepted = !!c && failed.length === 0 && reasons.length === 0 && conformance.verdict === 'CONFORMS'
  const exitCode: ExitCode = accepted
    ? EXIT.conforms
    : conformance.exitCode === EXIT.conforms
      ? EXIT.inconclusive
      : conformance.exitCode
  const verdict = accepted ? 'ACCEPTED' : 'REJECTED'
  return {
    verdict,
    label: i.embeddedReference ? `${verdict} (embedded reference, not a tenant deployment)` : verdict,
    ...(i.embeddedReference ? { embeddedReference: true as const } : {}),
    conformance,
    exitCode,
    tenant: i.profile.tenant,
    profile: i.profile.name,
    profilePath: i.profile.path,
    runId: i.runId ?? c?.run?.runId ?? '(unknown)',
    ...(c?.run ? { target: c.run.salesBaseUrl } : {}),
    suites: i.suites,
    features: i.features,
    ...(c ? { totals: c.totals } : {}),
    reasons,
    failed,
    notApplicable: [...byReason.entries()].map(([reason, checks]) => ({ reason, checks })),
    untested: (c?.requirements ?? [])
      .filter((r) => r.status === 'untested')
      .map((r) => ({ id: r.id, document: r.document, section: r.section, enable: r.enable })),
    deviations,
    generatedAt: new Date().toISOString(),
  }
}

/** The acceptance refused before anything ran (a profile that is not a tenant's deployment, a bad profile): exit 2. */
export function refusedAcceptance(o: {
  profile: string
  profilePath: string
  tenant: string
  cause: string
}): AcceptanceReport {
  return {
    verdict: 'REJECTED',
    label: `REJECTED (configuration error: ${o.cause})`,
    conformance: {
      verdict: 'CONFIGURATION ERROR',
      exitCode: EXIT.usage,
      label: `CONFIGURATION ERROR (${o.cause})`,
      cause: o.cause,
    },
    exitCode: EXIT.usage,
    tenant: o.tenant,
    profile: o.profile,
    profilePath: o.profilePath,
    runId: '(not started)',
    suites: [],
    features: { present: [], absent: [] },
    reasons: [`configuration error: ${o.cause}`],
    failed: [],
    notApplicable: [],
    untested: [],
    deviations: [],
    generatedAt: new Date().toISOString(),
  }
}
