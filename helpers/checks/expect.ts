import { isDeepStrictEqual } from 'node:util'
import type { HttpResult } from '../client/http/types'
import { ConformanceFailure, show } from './failure'
import { saysComeBackLater, TargetUnavailable } from './unavailable'

export type StatusExpectation = number | number[] | '2xx' | '4xx' | '5xx'

function statusMatches(status: number, e: StatusExpectation): boolean {
  if (typeof e === 'number') return status === e
  if (Array.isArray(e)) return e.includes(status)
  const base = Number(e[0]) * 100
  return status >= base && status < base + 100
}

function describeStatus(e: StatusExpectation): string {
  if (Array.isArray(e)) return `status ${e.join(' or ')}`
  return `status ${e}`
}

/**
 * The response has the expected status. `owner`: the check whose own requirement this status is, when it is not the
 * owner of the operation (FailureDetail.owner): the same answer failing both is one finding.
 */
export function expectStatus(res: HttpResult, expected: StatusExpectation, o: { owner?: string } = {}): void {
  if (!statusMatches(res.status, expected)) {
    // 503/429 with Retry-After: the target said it is unavailable; the requirement was not judged (INCONCLUSIVE)
    if (saysComeBackLater(res)) throw new TargetUnavailable(res)
    throw new ConformanceFailure({
      expected: describeStatus(expected),
      actual: `status ${res.status}`,
      expectation: { kind: 'status', statuses: Array.isArray(expected) ? expected : [expected] },
      res,
      ...(o.owner ? { owner: o.owner } : {}),
    })
  }
}

/** The response body is JSON that parses; a garbage body is reported as such. */
export function expectJsonBody(res: HttpResult): unknown {
  if (res.parseError)
    throw new ConformanceFailure({
      expected: 'a JSON body',
      actual: res.parseError,
      expectation: { kind: 'json-body' },
      res,
    })
  if (res.body === undefined || typeof res.body === 'string') {
    throw new ConformanceFailure({
      expected: 'a JSON body',
      expectation: { kind: 'json-body' },
      actual:
        res.raw.length === 0 ? 'an empty body' : `target returned non-JSON body (content-type '${res.contentType}')`,
      res,
    })
  }
  return res.body
}

/**
 * A condition on the target's behaviour. `status`: the condition is about the answer's status (a 401 expected where
 * the text says more), so that the reports compare it as a status expectation.
 */
export function expectThat(
  condition: boolean,
  detail: { expected: string; actual: unknown; res?: HttpResult; note?: string; status?: StatusExpectation },
): asserts condition {
  if (!condition) {
    throw new ConformanceFailure({
      expected: detail.expected,
      expectation:
        detail.status !== undefined
          ? { kind: 'status', statuses: Array.isArray(detail.status) ? detail.status : [detail.status] }
          : { kind: 'condition' },
      actual: typeof detail.actual === 'string' ? detail.actual : show(detail.actual),
      ...(detail.res ? { res: detail.res } : {}),
      ...(detail.note ? { note: detail.note } : {}),
    })
  }
}

/** Deep equality of a value the target returned with the expected one. */
export function expectEqual(actual: unknown, expected: unknown, what: string, res?: HttpResult): void {
  if (!isDeepStrictEqual(actual, expected)) {
    throw new ConformanceFailure({
      expected: `${what} = ${show(expected)}`,
      expectation: { kind: 'equal', what },
      actual: show(actual),
      ...(res ? { res } : {}),
    })
  }
}
