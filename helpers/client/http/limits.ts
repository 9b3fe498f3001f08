import { DEFAULT_ANSWER_BUDGET_BYTES, DEFAULT_HTTP_LIMITS, type HttpLimits } from '../config/http-defaults'

export { DEFAULT_ANSWER_BUDGET_BYTES, DEFAULT_HTTP_LIMITS, type HttpLimits }

/** The deviation an answer over its budget is recorded as (profile deviations['answer-budget'], default fail). */
export const ANSWER_BUDGET_DEVIATION = 'answer-budget'

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
