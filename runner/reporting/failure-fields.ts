import type { CheckOutcome, ChecksReport } from './results'

/** A failed (or errored) check's message as fields of checks.json: what a reader or a tool needs without parsing. */
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
  /** curl commands that send the failing requests again; secrets as shell variables (helpers/client/http/reproduce.ts). */
  reproduce: string[]
}

/** Reads the labelled lines of a failure message (helpers/checks/failure.ts formatFailure / formatViolations); the first of each label wins. */
export function failureFields(c: Pick<CheckOutcome, 'document' | 'section' | 'requirement' | 'error'>): FailureFields {
  const out: FailureFields = { clause: `${c.document} ${c.section}`, requirement: c.requirement, reproduce: [] }
  for (const line of (c.error ?? '').split('\n')) {
    const m = /^(expected|actual|error|request|response|reproduce):\s+(.*)$/.exec(line)
    if (!m) continue
    const [, label, value] = m as unknown as [string, keyof FailureFields, string]
    if (label === 'reproduce') out.reproduce.push(value.replace(/\s+# set .* first$/, ''))
    else if (label !== 'clause' && label !== 'requirement' && out[label] === undefined) out[label] = value
  }
  return out
}

/** The report with `failure` fields on each failed or errored check that has a message. */
export function withFailureFields(report: ChecksReport): ChecksReport {
  return { ...report, checks: report.checks.map((c) => ((c.status === 'failed' || c.status === 'errored') && c.error ? { ...c, failure: failureFields(c) } : c)) }
}
