import { formatLocation } from '../../common/source-location'
import type { HttpResult } from '../client/http/types'
import { runRedactor, safeText } from '../client/evidence/redact'
import { reproduceLine } from '../client/http/reproduce'
import { citation, type CheckMeta } from '../../common/spec'
import { invariantOf } from '../oracle/invariants'
import type { Violation } from '../client/http/observer'

export interface FailureDetail {
  expected: string
  actual: string
  /** The exchange that produced the evidence. */
  res?: HttpResult
  note?: string
  /**
   * The check whose own requirement this failure breaks as well (e.g. a state-table cell's issue request that does not
   * succeed is SL-LIFE-010's requirement): when that check failed the same way, this is the same finding. A status
   * failure defaults to the owner of the operation that answered (common/operations.json).
   */
  owner?: string
}

/**
 * What a failure was, for telling one finding from several (runner/reporting/findings.ts): the operation that
 * answered, its status, and what was expected (a status, or the expectation with ids and numbers masked).
 */
export interface Finding {
  operation: string
  status: number
  expected: string
  /** The check that owns this requirement, when it is another check (FailureDetail.owner, or the operation's owner). */
  owner?: string
  /** The answer the check failed on (helpers/client/http/recorder.ts answerKey), when it was recorded. */
  answer?: string
}

/**
 * The status classes a status expectation names, sorted: "status 200 or 201" and "status 2xx" -> ['2'], "status 403
 * or 404" -> ['4']. Undefined for an expectation that is not a status (expectStatus writes "status ...").
 */
export function statusClassesOf(expected: string): string[] | undefined {
  if (!/^status /.test(expected)) return undefined
  return [...new Set((expected.match(/\b[1-5](?:\d\d|xx)\b/g) ?? []).map((c) => c[0]!))].sort()
}

/** An expectation with the values of one run (ids, numbers) masked, so that two checks' expectations compare. */
export function maskedExpectation(expected: string): string {
  return expected.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '#').replace(/\d+(\.\d+)?/g, '#')
}

/** A broken requirement, with the evidence. Formatted by the check that catches it. */
export class ConformanceFailure extends Error {
  constructor(readonly detail: FailureDetail) {
    super(`expected ${detail.expected}, got ${detail.actual}`)
    this.name = 'ConformanceFailure'
  }
}

const MAX_EVIDENCE = 1500

function clip(s: string): string {
  return s.length > MAX_EVIDENCE ? `${s.slice(0, MAX_EVIDENCE)}… (${s.length - MAX_EVIDENCE} more)` : s
}

/** A value as it may appear in a failure: the run's secrets and JWTs masked, secret keys masked, clipped. */
export function show(value: unknown): string {
  const r = runRedactor()
  if (typeof value === 'string') return clip(JSON.stringify(r.text(value)))
  if (value === undefined) return 'undefined'
  try {
    return clip(JSON.stringify(r.json(value)) ?? String(value))
  } catch {
    return clip(safeText(String(value)))
  }
}

/** The request and response of a failure, redacted with everything the run knows by now. */
export function evidence(res: HttpResult): string[] {
  const x = res.exchange
  if (!x) return [`request:  ${res.request.method} ${safeText(res.request.url)}`, `response: ${res.status}`]
  const lines = [`request:  ${x.method} ${safeText(x.url)}${x.request.body ? ` ${clip(safeText(x.request.body))}` : ''}`]
  lines.push(`response: ${x.status ?? 'none'} ${safeText(x.response?.contentType ?? '')} ${clip(safeText(x.response?.body ?? ''))}`.trimEnd())
  // A body that claims JSON and does not parse is named as such, whatever the check was about.
  if (res.parseError) lines.push(`body:     ${safeText(res.parseError)}`)
  return lines
}

/**
 * The message of a failed check: requirement, expected, actual, request and response, and the request as a curl
 * command to send it again by hand (helpers/client/http/reproduce.ts: secrets as shell variables). Every part goes through the
 * run's redactor and has its control characters escaped (target data reaches expected, actual and note too).
 */
export function formatFailure(meta: CheckMeta, error: unknown): string {
  const head = [`[${meta.id}] ${citation(meta)}`, `requirement: ${meta.requirement}`]
  if (error instanceof ConformanceFailure) {
    const d = error.detail
    return [
      ...head,
      `expected: ${safeText(d.expected)}`,
      `actual:   ${safeText(d.actual)}`,
      ...(d.note ? [`note:     ${safeText(d.note)}`] : []),
      ...(d.res ? evidence(d.res) : []),
      ...(d.res?.exchange ? [safeText(reproduceLine(d.res.exchange))] : []),
    ].join('\n')
  }
  const e = error as Error & { res?: HttpResult }
  // a domain helper's error that carries the exchange (a failed flow step): the request and the body that came back
  const res = e?.res && typeof e.res === 'object' && 'request' in e.res ? evidence(e.res) : []
  const again = e?.res && typeof e.res === 'object' && e.res.exchange ? [safeText(reproduceLine(e.res.exchange))] : []
  return [...head, `error: ${safeText(e?.message ?? String(error))}`, ...res, ...again].join('\n')
}

/** The message of broken invariants: per invariant its id, clause and requirement, the model's expectation, the answer, and the earlier exchange that set the expectation. */
export function formatViolations(violations: readonly Violation[]): string {
  return violations
    .slice(0, 5)
    .map((v) => {
      // the ids come from the oracle's catalogue through the observer hook, where an id is a string
      const meta = invariantOf(v.invariant)
      return [
        meta ? `[${meta.id}] ${citation(meta)} (invariant of the model, checked on every answer)` : `[${safeText(v.invariant)}] (not an invariant of the model's catalogue)`,
        ...(meta ? [`requirement: ${meta.requirement}`] : []),
        ...(v.at ? [`judged by: ${formatLocation(v.at)} (the model's rule)`] : []),
        `expected: ${safeText(v.expected)}`,
        `actual:   ${safeText(v.actual)}`,
        ...(v.note ? [`note:     ${safeText(v.note)}`] : []),
        ...evidence(v.res),
        ...(v.res.exchange ? [safeText(reproduceLine(v.res.exchange))] : []),
        ...(v.setBy ? evidence(v.setBy).map((l) => `set by ${l.replace(/^(request|response): */, '$1: ')}`) : []),
      ].join('\n')
    })
    .join('\n\n') + (violations.length > 5 ? `\n(${violations.length - 5} more violation(s))` : '')
}
