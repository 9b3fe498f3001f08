import { DEFAULT_ANSWER_BUDGET_BYTES, DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../../common/config/http-defaults'

export { DEFAULT_ANSWER_BUDGET_BYTES, DEFAULT_HTTP_LIMITS, type HttpLimits }

/** The deviation an answer over its budget is recorded as (profile deviations['answer-budget'], default fail). */
export const ANSWER_BUDGET_DEVIATION = 'answer-budget'

/**
 * The deviation an answer with a header section larger than Node's HTTP client reads by default is recorded as (profile
 * deviations['answer-headers'], default warn): read and judged all the same, as curl and browsers read it.
 */
export const ANSWER_HEADERS_DEVIATION = 'answer-headers'

/**
 * The header section Node's own HTTP client reads by default (--max-http-header-size): past it, the deviation above.
 */
export const COMMON_HEADER_BYTES = 16 * 1024

/**
 * The largest header section the suite reads (undici's maxHeaderSize): what standard clients read (browsers 256 KiB,
 * curl 100 KiB a field). An answer past it no client can read: one finding naming the request
 * (helpers/client/http/send.ts).
 */
export const MAX_HEADER_BYTES = 256 * 1024

/** The limits of a dispatcher's settings, the defaults where it says nothing. */
export function limitsOf(o: Partial<HttpLimits>): HttpLimits {
  return {
    exchangeDeadlineMs: o.exchangeDeadlineMs ?? DEFAULT_HTTP_LIMITS.exchangeDeadlineMs,
    maxResponseBytes: o.maxResponseBytes ?? DEFAULT_HTTP_LIMITS.maxResponseBytes,
    maxJsonDepth: o.maxJsonDepth ?? DEFAULT_HTTP_LIMITS.maxJsonDepth,
    callDeadlineMs: o.callDeadlineMs ?? DEFAULT_HTTP_LIMITS.callDeadlineMs,
    preflightDeadlineMs: o.preflightDeadlineMs ?? DEFAULT_HTTP_LIMITS.preflightDeadlineMs,
  }
}
