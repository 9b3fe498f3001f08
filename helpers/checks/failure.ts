import { formatLocation } from '../../common/source-location'
import type { HttpResult } from '../client/http/types'
import { runRedactor, safeText } from '../client/evidence/redact'
import { curlOf } from '../client/http/reproduce'
import { answerKey } from '../client/http/recorder'
import { matchOperation } from '../../common/operations'
import { citation, type CheckMeta } from '../../common/spec'
import { invariantOf } from '../oracle/invariants'
import type { Violation } from '../client/http/observer'
import type { TimelineRecord } from '../client/http/timeline-record'

/**
 * What a failed assertion expected, as data (helpers/checks/expect.ts and co.): the reporters compare and render it
 * without reading the text back. `key`: the expectation with this run's values (ids, numbers) masked, so that two
 * checks' expectations compare (runner/run/results/findings.ts); a status expectation compares by its `classes`.
 */
export type Expectation =
  | { kind: 'status'; statuses: (number | '1xx' | '2xx' | '3xx' | '4xx' | '5xx')[]; classes: string[] }
  | { kind: 'json-body'; key: string }
  | { kind: 'condition'; key: string }
  | { kind: 'equal'; what: string; key: string }
  | { kind: 'poll'; what: string; key: string }
  | { kind: 'contract'; name: string; key: string }
  | { kind: 'deviation'; id: string; policy: 'warn' | 'fail'; key: string }

/** A request a curl command sends again by hand; `variables`: the shell variables to set first (secrets). */
export interface Reproduction {
  command: string
  variables: string[]
}

/**
 * A check's outcome when it did not pass: ONE typed record, made where the check failed (helpers/checks/check.ts) and
 * kept in the task's meta. The reporters are pure functions of it; its text is rendered only at the edges (the
 * console, checks.json, JUnit, Allure, the HTML matrix: helpers/checks/failure.ts renderFailure). Every string in it
 * has been through the run's redactor, control characters escaped.
 */
export interface FailureRecord {
  /**
   * failed: the target broke the requirement (an assertion helper, a deviation the profile does not accept); errored:
   * the check could not finish.
   */
  kind: 'failed' | 'errored'
  id: string
  /** "sales-service.md §4": the clause the requirement comes from. */
  clause: string
  requirement: string
  /** What was expected, as data (a failed assertion); absent for an error. */
  expectation?: Expectation
  expected?: string
  actual?: string
  note?: string
  /** A linearizability finding's timelines as data (issue 41): conformance.html draws them as lanes. */
  timeline?: TimelineRecord[]
  /** The tool's or the helper's error, for a check that could not finish or a flow step that failed. */
  error?: string
  /** The catalogue operation of the request the failure examined (common/operations.json). */
  operation?: string
  /** The status of that answer. */
  status?: number
  /**
   * The recorded answer the check failed on (helpers/client/http/recorder.ts answerKey): the evidence's reference in
   * the traffic and Allure.
   */
  answer?: string
  /**
   * The check whose own requirement this failure breaks as well, when it is another check (FailureDetail.owner, or for
   * a status failure the operation's owner): the same answer failing both is one finding.
   */
  owner?: string
  /** "POST http://... {body}": the request whose answer is the evidence. */
  request?: string
  /** "422 application/json {...}": its answer. */
  response?: string
  /** A body that claims JSON and does not parse, named as such. */
  body?: string
  /** The requests to send again by hand, secrets as shell variables (helpers/client/http/reproduce.ts). */
  reproduce: Reproduction[]
}

/**
 * A broken invariant's evidence as data (the first violation of it in a check): what checks.json's `failure` says of
 * it.
 */
export type ViolationRecord = Pick<
  FailureRecord,
  'expected' | 'actual' | 'note' | 'timeline' | 'request' | 'response' | 'reproduce'
>

/** What an assertion helper says it expected, as data (Expectation without the key the record computes). */
export type ExpectationInput =
  | { kind: 'status'; statuses: Extract<Expectation, { kind: 'status' }>['statuses'] }
  | { kind: 'json-body' }
  | { kind: 'condition' }
  | { kind: 'equal'; what: string }
  | { kind: 'poll'; what: string }
  | { kind: 'contract'; name: string }

export interface FailureDetail {
  expected: string
  actual: string
  /** A linearizability finding's timelines as data (helpers/oracle/linearizability/timeline.ts timelineRecord). */
  timeline?: TimelineRecord[]
  /** What was expected, as data; a condition (expectThat) when not given. */
  expectation?: ExpectationInput
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

/** The status classes of a status expectation, sorted: [200, 201] and '2xx' -> ['2'], [403, 404] -> ['4']. */
export function statusClasses(statuses: readonly (number | string)[]): string[] {
  return [...new Set(statuses.map((s) => String(s)[0]!))].sort()
}

/**
 * An expectation with the values of one run (ids, numbers) masked, so that two checks' expectations compare: applied
 * once, where the failure is made (the expectation's `key`), never to a message read back.
 */
export function maskedExpectation(expected: string): string {
  return expected
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '#')
    .replace(/\d+(\.\d+)?/g, '#')
}

/** The expectation of a failure as data, with the key two checks' expectations compare by. */
export function expectationOf(detail: Pick<FailureDetail, 'expected' | 'expectation'>): Expectation {
  const e = detail.expectation ?? { kind: 'condition' as const }
  if (e.kind === 'status') return { ...e, classes: statusClasses(e.statuses) }
  return { ...e, key: maskedExpectation(detail.expected) }
}

/** A broken requirement, with the evidence. Turned into the check's FailureRecord by the check that catches it. */
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

/**
 * The request and response of a failure as data (FailureRecord's request, response, body, reproduce), redacted with
 * everything the run knows by now.
 */
export function evidenceOf(res: HttpResult): Pick<FailureRecord, 'request' | 'response' | 'body' | 'reproduce'> {
  const x = res.exchange
  const body = res.parseError ? { body: safeText(res.parseError) } : {}
  if (!x)
    return {
      request: `${res.request.method} ${safeText(res.request.url)}`,
      response: String(res.status),
      ...body,
      reproduce: [],
    }
  const c = curlOf(x)
  return {
    request: `${x.method} ${safeText(x.url)}${x.request.body ? ` ${clip(safeText(x.request.body))}` : ''}`,
    response:
      `${x.status ?? 'none'} ${safeText(x.response?.contentType ?? '')} ${clip(safeText(x.response?.body ?? ''))}`.trimEnd(),
    // A body that claims JSON and does not parse is named as such, whatever the check was about.
    ...body,
    reproduce: [{ command: safeText(c.command), variables: c.variables }],
  }
}

/** The evidence lines of a record (request, response, body): the text form. */
function evidenceLines(r: Pick<FailureRecord, 'request' | 'response' | 'body'>): string[] {
  return [
    ...(r.request !== undefined ? [`request:  ${r.request}`] : []),
    ...(r.response !== undefined ? [`response: ${r.response}`] : []),
    ...(r.body !== undefined ? [`body:     ${r.body}`] : []),
  ]
}

/** A reproduction as its line: the command, and the variables to set first. */
export function reproduceText(r: Reproduction): string {
  return `reproduce: ${r.command}${
    r.variables.length ? `   # set ${r.variables.map((v) => `$${v}`).join(', ')} first` : ''
  }`
}

/** The request and response of a failure, redacted with everything the run knows by now, as lines. */
export function evidence(res: HttpResult): string[] {
  return evidenceLines(evidenceOf(res))
}

/**
 * The text of a check's failure record: id and clause, requirement, expected and actual (or the error), the request
 * and response, and the request as a curl command to send it again by hand (helpers/client/http/reproduce.ts: secrets
 * as shell variables). The one text form of a failure: the thrown error's message (Allure), checks.json's `error`,
 * JUnit's body. Every part went through the run's redactor when the record was made.
 */
export function renderFailure(r: FailureRecord): string {
  const head = [`[${r.id}] ${r.clause}`, `requirement: ${r.requirement}`]
  const what =
    r.expected !== undefined
      ? [
          `expected: ${r.expected}`,
          `actual:   ${r.actual ?? ''}`,
          ...(r.note !== undefined ? [`note:     ${r.note}`] : []),
        ]
      : [`error: ${r.error ?? ''}`]
  return [...head, ...what, ...evidenceLines(r), ...r.reproduce.map(reproduceText)].join('\n')
}

/**
 * The record of a failed check (helpers/checks/failure-record.ts makes it with the operation's owner), rendered: the
 * message of a failed check.
 */
export function formatFailure(meta: CheckMeta, error: unknown): string {
  return renderFailure(failureOf(meta, error))
}

/**
 * A check's failure as a record: a ConformanceFailure (an assertion helper) with its expectation as data; anything
 * else as an error, with the exchange when the helper's error carries one (a failed flow step). `owner` is the
 * detail's;
 * the default owner of a status failure is added by helpers/checks/failure-record.ts.
 */
export function failureOf(meta: CheckMeta, error: unknown, kind?: FailureRecord['kind']): FailureRecord {
  const base = { id: meta.id, clause: citation(meta), requirement: meta.requirement }
  if (error instanceof ConformanceFailure) {
    const d = error.detail
    const x = d.res?.exchange
    return {
      kind: kind ?? 'failed',
      ...base,
      expectation: expectationOf(d),
      expected: safeText(d.expected),
      actual: safeText(d.actual),
      ...(d.note ? { note: safeText(d.note) } : {}),
      ...(d.timeline ? { timeline: d.timeline.map(safeTimeline) } : {}),
      ...(d.res ? { status: d.res.status, ...operationOf(d.res) } : {}),
      ...(x ? { answer: answerKey(x) } : {}),
      ...(d.owner ? { owner: d.owner } : {}),
      ...(d.res ? evidenceOf(d.res) : { reproduce: [] }),
    }
  }
  const e = error as Error & { res?: HttpResult; deviation?: { id: string; policy: 'warn' | 'fail' } }
  // a domain helper's error that carries the exchange (a failed flow step): the request and the body that came back
  const res = e?.res && typeof e.res === 'object' && 'request' in e.res ? e.res : undefined
  return {
    kind: kind ?? (e?.deviation ? 'failed' : 'errored'),
    ...base,
    ...(e?.deviation
      ? {
          expectation: {
            kind: 'deviation' as const,
            id: e.deviation.id,
            policy: e.deviation.policy,
            key: e.deviation.id,
          },
        }
      : {}),
    error: safeText(e?.message ?? String(error)),
    ...(res ? { status: res.status, ...operationOf(res) } : {}),
    ...(res ? evidenceOf(res) : { reproduce: [] }),
  }
}

/**
 * The catalogue operation of an answer: the recorded exchange's, else the request's method and URL matched to the
 * catalogue.
 */
function operationOf(res: HttpResult): { operation?: string } {
  const op = res.exchange?.operationId ?? operationOfRequest(res.request.method, res.request.url)
  return op ? { operation: op } : {}
}

/** The operation of a request by its method and URL, matched on the path's tail (the base URL may carry a prefix). */
export function operationOfRequest(method: string, url: string): string | undefined {
  let path: string
  try {
    path = new URL(url).pathname
  } catch {
    return undefined
  }
  const segments = path.split('/')
  for (let i = 1; i < segments.length; i += 1) {
    const op = matchOperation(method.toUpperCase(), `/${segments.slice(i).join('/')}`)
    if (op) return op.id
  }
  return undefined
}

/** A timeline with every text in it through the run's redactor (callers, operations, states, reasons). */
export function safeTimeline(t: TimelineRecord): TimelineRecord {
  return {
    ...t,
    resource: safeText(t.resource),
    ...(t.shrunk ? { shrunk: safeText(t.shrunk) } : {}),
    ops: t.ops.map((o) => ({ ...o, caller: safeText(o.caller), what: safeText(o.what) })),
    orders: t.orders.map((o) => ({
      ...o,
      state: safeText(o.state),
      stuck: o.stuck.map((x) => ({ ...x, why: safeText(x.why) })),
    })),
  }
}

/** A broken invariant's evidence as data: what checks.json's `failure` of the invariant says. */
export function violationRecord(v: Violation): ViolationRecord {
  const ev = evidenceOf(v.res)
  return {
    expected: safeText(v.expected),
    actual: safeText(v.actual),
    ...(v.note ? { note: safeText(v.note) } : {}),
    ...(v.timeline ? { timeline: v.timeline.map(safeTimeline) } : {}),
    ...(ev.request !== undefined ? { request: ev.request } : {}),
    ...(ev.response !== undefined ? { response: ev.response } : {}),
    reproduce: ev.reproduce,
  }
}

/**
 * The message of broken invariants: per invariant its id, clause and requirement, the model's expectation, the answer,
 * and the earlier exchange that set the expectation.
 */
export function formatViolations(violations: readonly Violation[]): string {
  return (
    violations
      .slice(0, 5)
      .map((v) => {
        // the ids come from the oracle's catalogue through the observer hook, where an id is a string
        const meta = invariantOf(v.invariant)
        return [
          meta
            ? `[${meta.id}] ${citation(meta)} (invariant of the model, checked on every answer)`
            : `[${safeText(v.invariant)}] (not an invariant of the model's catalogue)`,
          ...(meta ? [`requirement: ${meta.requirement}`] : []),
          ...(v.at ? [`judged by: ${formatLocation(v.at)} (the model's rule)`] : []),
          `expected: ${safeText(v.expected)}`,
          `actual:   ${safeText(v.actual)}`,
          ...(v.note ? [`note:     ${safeText(v.note)}`] : []),
          ...evidence(v.res),
          ...evidenceOf(v.res).reproduce.map(reproduceText),
          ...(v.setBy ? evidence(v.setBy).map((l) => `set by ${l.replace(/^(request|response): */, '$1: ')}`) : []),
        ].join('\n')
      })
      .join('\n\n') + (violations.length > 5 ? `\n(${violations.length - 5} more violation(s))` : '')
  )
}
