import { citesClause } from './classify'
import { distinctFindings } from '../../runner/run/results/findings'
import type { DefectResult, FailedCheck, FailureDistribution } from './types'

export type { FailureDistribution }

/** Nearest-rank percentile (p in 0..100) of ascending values; 0 for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[Math.min(rank, sorted.length) - 1]!
}

/**
 * The distinct findings of a defect run: its failed checks, less those that are the same finding as checks that failed
 * or were blocked in the same run (runner/run/results/findings.ts): a model invariant broken only in the answers of
 * such
 * checks, a check failed on the same answer as the check that owns that requirement or as its other product's variant.
 */
export function distinctFailures(d: DefectResult): FailedCheck[] {
  return distinctFindings(
    d.newFailures,
    (d.blocked ?? []).map((b) => b.id),
  )
}

/** The distinct failures of a defect run that do not cite the defect's clause. */
export function offClause(d: DefectResult): string[] {
  return distinctFailures(d)
    .filter((f) => !citesClause(f, d.clause))
    .map((f) => f.id)
}

/**
 * Distinct failed (not blocked) checks per caught defect: median, p90, max (and of every failed check), and the `top`
 * worst defects.
 */
export function failureDistribution(defects: readonly DefectResult[], top = 5): FailureDistribution {
  const caught = defects.filter((d) => d.verdict === 'caught')
  const failed = new Map(caught.map((d) => [d, distinctFailures(d).length]))
  const counts = [...failed.values()].sort((a, b) => a - b)
  const worst = [...caught]
    .sort((a, b) => failed.get(b)! - failed.get(a)! || a.name.localeCompare(b.name))
    .slice(0, top)
    .map((d) => ({ name: d.name, failed: failed.get(d)!, blocked: d.blocked?.length ?? 0, offClause: offClause(d) }))
  const every = caught.map((d) => d.newFailures.length).sort((a, b) => a - b)
  return {
    defects: caught.length,
    median: percentile(counts, 50),
    p90: percentile(counts, 90),
    max: counts.at(-1) ?? 0,
    everyFailure: { median: percentile(every, 50), p90: percentile(every, 90), max: every.at(-1) ?? 0 },
    onClause: caught.filter((d) => offClause(d).length === 0).length,
    worst,
  }
}

/** One line for the console and the reports. */
export function distributionLine(x: FailureDistribution): string {
  const worst = x.worst.map((w) => `${w.name} ${w.failed}${w.blocked ? ` (+${w.blocked} blocked)` : ''}`).join(', ')
  const every = x.everyFailure
    ? ` (every failed check counted, shared findings too: median ${x.everyFailure.median}, ` +
      `p90 ${x.everyFailure.p90}, max ${x.everyFailure.max})`
    : ''
  return `failed checks per caught defect (${x.defects} defects; blocked checks not counted, a failure that is the same finding as another failed or blocked check counted once): median ${x.median}, p90 ${x.p90}, max ${x.max}${every}; every failure on the defect's clause for ${x.onClause}/${x.defects}${worst ? `; worst: ${worst}` : ''}`
}
