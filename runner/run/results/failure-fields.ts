import type { FailureRecord, ViolationRecord } from '../../../helpers/checks/task-meta'
import type { TimelineRecord } from '../../../helpers/client/http/timeline-record'

/** A failed (or errored) check's failure as fields of checks.json: what a reader or a tool needs without parsing. */
export interface FailureFields {
  /** "sales-service.md §4": the clause the requirement comes from. */
  clause: string
  requirement: string
  expected?: string
  actual?: string
  /** The tool's or the helper's error, for a check that could not finish or a flow step that failed. */
  error?: string
  /** "POST http://... {body}": the request whose answer is the evidence (redacted). */
  request?: string
  /** "422 application/json {...}": its answer (redacted). */
  response?: string
  /**
   * curl commands that send the failing requests again; secrets as shell variables (helpers/client/http/reproduce.ts).
   */
  reproduce: string[]
  /**
   * A linearizability finding's timelines as data (helpers/client/http/timeline-record.ts): conformance.html draws
   * them.
   */
  timeline?: TimelineRecord[]
}

type Evidence = Partial<Pick<FailureRecord, 'expected' | 'actual' | 'error' | 'request' | 'response' | 'timeline'>> &
  Pick<FailureRecord, 'reproduce'>

/**
 * checks.json's `failure` of a check, an invariant or a contract check: the fields of its record as they are, never
 * read
 * back from its message. A check that errored outside the check library (vitest's own timeout, a hook) has no record:
 * its clause and requirement only.
 */
export function failureFields(
  clause: string,
  requirement: string,
  r: Evidence | ViolationRecord | undefined,
): FailureFields {
  const out: FailureFields = { clause, requirement, reproduce: (r?.reproduce ?? []).map((x) => x.command) }
  if (!r) return out
  const e = r as Evidence
  for (const k of ['expected', 'actual', 'error', 'request', 'response'] as const) if (e[k] !== undefined) out[k] = e[k]
  if (e.timeline !== undefined && e.timeline.length > 0) out.timeline = e.timeline
  return out
}
