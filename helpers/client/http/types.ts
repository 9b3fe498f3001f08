export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD'

export interface HttpRequest {
  method: HttpMethod
  /** Absolute URL. */
  url: string
  headers?: Record<string, string>
  /** Serialised as JSON with content-type application/json. */
  json?: unknown
  /** Raw body (wins over json). */
  body?: string | Buffer
  /** Override of the client's headers timeout. */
  headersTimeoutMs?: number
  bodyTimeoutMs?: number
  /** Deadline of this exchange (at most the client's exchangeDeadlineMs). */
  deadlineMs?: number
  /**
   * An answer above this many bytes is not parsed nor decoded (its operation's answer budget, when it fails the check).
   */
  answerBudgetBytes?: number
}

export interface HttpResult {
  status: number
  headers: Record<string, string>
  /** Parsed JSON when the body is JSON; the text for other text bodies; undefined when empty or binary. */
  body: unknown
  raw: Buffer
  text: string
  contentType: string
  /** Set when the response claims JSON (or looks like it) but does not parse. */
  parseError?: string
  /**
   * The answer's size when it was over its answer budget: then neither parsed nor decoded (body undefined, text '').
   */
  overBudget?: number
  durationMs: number
  /**
   * A document answer (a PDF, or any binary body) opened as what it claims to be (helpers/client/content/document.ts).
   */
  document?: import('../content/document').OpenedDocument
  request: SentRequest
  /** The redacted record of this exchange (set by the recording client): safe to print. */
  exchange?: Exchange
}

/** What was sent, as recorded (headers redacted later by the recorder). */
export interface SentRequest {
  method: HttpMethod
  url: string
  headers: Record<string, string>
  body?: string
}

/** The request never produced an HTTP response (refused, reset, DNS, timeout). */
export class TransportError extends Error {
  constructor(
    readonly request: SentRequest,
    readonly code: string,
    detail: string,
    readonly durationMs: number,
  ) {
    super(`${request.method} ${request.url}: no HTTP response (${code}): ${detail}`)
    this.name = 'TransportError'
  }
}

/** The response passed the size cap while it streamed: the connection was dropped, nothing else is blamed. */
export class ResponseTooLarge extends TransportError {
  constructor(
    request: SentRequest,
    label: string,
    readonly limit: number,
    durationMs: number,
  ) {
    super(request, 'LC_RESPONSE_TOO_LARGE', `exceeds ${limit} bytes`, durationMs)
    this.message = `response of ${label} exceeds ${limit} bytes (profile http.maxResponseBytes); the connection was dropped`
    this.name = 'ResponseTooLarge'
  }
}

/**
 * A moment of the run on two clocks: `mono` is performance.now() (monotonic, milliseconds, this process: what orders
 * two calls in real time), `epoch` is Date.now() (what a report shows).
 */
export interface Instant {
  mono: number
  epoch: number
}

export function instant(): Instant {
  return { mono: performance.now(), epoch: Date.now() }
}

/** One recorded request/response pair, already redacted. */
export interface Exchange {
  at: string
  runId: string
  test?: string
  /** The dependent chain of the check that sent it (helpers/client/http/running-check.ts). */
  chain?: string
  operationId?: string
  /** Path template of the spec operation, or the literal path when it matches none. */
  template: string
  method: string
  url: string
  status?: number
  durationMs: number
  /** Attempt number when the call was retried (1 = first). */
  attempt?: number
  /**
   * Milliseconds the attempt waited for a slot at the request limiter before it was sent
   * (helpers/client/http/limiter.ts); absent under 1 ms.
   */
  queuedMs?: number
  request: { headers: Record<string, string>; body?: string }
  /**
   * overBudget: the answer's size when it was over its answer budget (its body is then its size and first characters).
   */
  response?: { headers: Record<string, string>; body: string; contentType: string; overBudget?: number }
  error?: string
  /**
   * When the attempt was sent (after any wait at the limiter) and when its answer was read, on the monotonic and the
   * epoch clock (Instant, above): what orders two exchanges in real time.
   */
  invokedAt?: Instant
  completedAt?: Instant
  /**
   * Set by the published-contract sink when a document describes the exchange and it was validated
   * (helpers/client/contracts).
   */
  contract?: 'validated' | 'not-described'
}
