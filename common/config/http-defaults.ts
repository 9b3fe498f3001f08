/**
 * The defaults of the profile's `http` settings (docs/reliability.md): the configuration fills them in
 * (target-config.ts), the HTTP client applies them (helpers/client/http/limits.ts, breaker.ts).
 */

/**
 * The hard limits of every exchange with a target (profile `http`, defaults documented in docs/reliability.md).
 * A target that breaks one gets a clear message naming the request, never a hung run or an exhausted memory.
 */
export interface HttpLimits {
  /** The whole exchange: connection, any 1xx, headers and the last byte of the body. */
  exchangeDeadlineMs: number
  /** A response body longer than this is refused while it streams. */
  maxResponseBytes: number
  /** A JSON body nested deeper than this is a garbage response. */
  maxJsonDepth: number
  /** One call, every retry and wait included (and never past the running check's own deadline). */
  callDeadlineMs: number
  /** The preflight, all its requests included. */
  preflightDeadlineMs: number
  /**
   * The run-wide circuit breaker (helpers/client/http/breaker.ts); absent: no breaker (a dispatcher of a unit test).
   */
  breakerExpiries?: number
  breakerSilenceMs?: number
}

export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = Object.freeze({
  exchangeDeadlineMs: 20_000,
  maxResponseBytes: 16 * 1024 * 1024,
  maxJsonDepth: 256,
  callDeadlineMs: 40_000,
  preflightDeadlineMs: 30_000,
})

/**
 * An answer above this many bytes is a finding of its own on its operation (profile http.answerBudgetBytes; per
 * operation http.answerBudgets), far below maxResponseBytes: a list of 15 MB is judged, and recorded as its size and
 * first characters only (helpers/client/http/recorder.ts), instead of stalling the worker that redacts and attaches it.
 */
export const DEFAULT_ANSWER_BUDGET_BYTES = 1024 * 1024

export interface BreakerSettings {
  /** Consecutive exchanges past their deadline that open the breaker (profile http.breakerExpiries, default 3). */
  expiries: number
  /**
   * An exchange past its deadline after this long without any answer from the origin opens it too (profile
   * http.breakerSilenceMs, default 30000).
   */
  silenceMs: number
}

export const DEFAULT_BREAKER: Readonly<BreakerSettings> = Object.freeze({ expiries: 3, silenceMs: 30_000 })
