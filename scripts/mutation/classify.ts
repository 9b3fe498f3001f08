import type { DefectInfo } from '../../reference/defects/types'
import type { DefectResult, FailedCheck, RunSummary, VariationResult } from './types'

/** The clause of a defect ("sales-service.md §4, §5") as document and sections. */
export function parseClause(clause: string): { document: string; sections: string[] } {
  const m = /^(\S+)\s*(.*)$/.exec(clause.trim())
  return { document: m?.[1] ?? clause.trim(), sections: sectionsOf(m?.[2] ?? '') }
}

/** "§1, §4.2 (bind)" -> ["§1", "§4.2"]. */
export function sectionsOf(text: string): string[] {
  return [...text.matchAll(/§[\w.]*\w/g)].map((x) => x[0])
}

function contains(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`)
}

/** Same document, and one of the check's sections contains or is contained by one of the clause's (§4 and §4.2). */
export function citesClause(check: FailedCheck, clause: string): boolean {
  const c = parseClause(clause)
  if (check.document !== c.document) return false
  const mine = sectionsOf(check.section)
  return mine.some((a) => c.sections.some((b) => contains(a, b)))
}

/**
 * Classifies one run of the suite against a defective reference.
 * Caught: a check failed that does not fail against the faithful reference. Stopped: the run refused
 * to start (preflight) with a message, which a user also sees as DOES NOT CONFORM. Missed: the run
 * passed. Error: the run broke without a failed check or a stop message (crash, timeout).
 */
export function classifyDefect(
  name: string,
  info: DefectInfo & { undetectable?: string },
  run: RunSummary | undefined,
  baselineFailedIds: ReadonlySet<string>,
): DefectResult {
  const base = { name, area: info.area, clause: info.clause, description: info.description }
  if (info.undetectable)
    return {
      ...base,
      verdict: 'undetectable',
      newFailures: [],
      clauseMatched: false,
      wallMs: run?.wallMs ?? 0,
      undetectable: info.undetectable,
    }
  if (!run)
    return { ...base, verdict: 'error', newFailures: [], clauseMatched: false, wallMs: 0, outputTail: 'not run' }
  const newFailures = run.failed.filter((f) => !baselineFailedIds.has(f.id))
  const common = {
    ...base,
    newFailures,
    ...(run.blocked.length > 0 ? { blocked: run.blocked } : {}),
    clauseMatched: newFailures.some((f) => citesClause(f, info.clause)),
    wallMs: run.wallMs,
    ...(run.firstFailureMs !== undefined ? { firstFailureMs: run.firstFailureMs } : {}),
  }
  if (newFailures.length > 0) return { ...common, verdict: 'caught' }
  if (run.checksRun === 0 && run.exitCode !== 0 && run.stopMessage && run.stoppedByPreflight)
    return { ...common, verdict: 'stopped', stopMessage: run.stopMessage }
  // Passed, or failed only where the faithful reference fails too: the defect made no difference.
  if (run.exitCode === 0 || run.failed.length > 0) return { ...common, verdict: 'missed' }
  return {
    ...common,
    verdict: 'error',
    ...(run.stopMessage ? { stopMessage: run.stopMessage } : {}),
    outputTail: run.outputTail,
  }
}

/** A variation is green when the run passed with checks run and none failed; any failed check is a false alarm. */
export function classifyVariation(name: string, description: string, run: RunSummary): VariationResult {
  const base = { name, description, failed: run.failed, checksRun: run.checksRun, wallMs: run.wallMs }
  if (run.failed.length > 0) return { ...base, verdict: 'false-alarm' }
  if (run.exitCode === 0 && run.checksRun > 0) return { ...base, verdict: 'green' }
  return {
    ...base,
    verdict: 'error',
    ...(run.stopMessage ? { stopMessage: run.stopMessage } : {}),
    outputTail: run.outputTail,
  }
}
