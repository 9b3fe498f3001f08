import { retryAfterMs } from '../polling/poll-until'
import type { HttpMethod, HttpResult } from './types'
import { TransportError } from './types'

/**
 * When a request is sent again after a transient fault. Bounded, with backoff, honouring Retry-After.
 * A request that may have reached the server is resent only when it is idempotent (GET, HEAD, PUT, DELETE).
 */
export interface RetryPolicy {
  /** Total attempts, first included (1 = never retry). */
  maxAttempts: number
  /** Backoff before the 2nd attempt; doubles each time (with jitter), capped by maxDelayMs. */
  baseDelayMs: number
  maxDelayMs: number
  /** A Retry-After longer than this is not waited for: the answer is returned as it is. */
  maxRetryAfterMs: number
  /**
   * The most time one request may spend waiting between its attempts, all waits added up. A retry whose wait
   * would go beyond it is not made, so a fault that lasts bounds the run instead of stalling it.
   */
  maxTotalDelayMs: number
  /** HTTP statuses that mean "transient, try again" (idempotent requests only). */
  statuses: number[]
  /**
   * A POST whose connection was never established (ECONNREFUSED, connect timeout) did not reach the
   * server, so resending it cannot duplicate anything. false: never resend a POST at all.
   */
  retryPostWhenNotSent: boolean
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 6,
  baseDelayMs: 50,
  maxDelayMs: 1000,
  maxRetryAfterMs: 5000,
  maxTotalDelayMs: 10000,
  statuses: [429, 502, 503, 504],
  retryPostWhenNotSent: true,
})

/** Methods whose repetition has the same effect as one request (RFC 9110 §9.2.2). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'])

/** Transport failures where the request never left this machine: no TCP connection was made. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT'])

/** Transport failures worth another attempt of an idempotent request. */
export const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNRESET',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
])

export type RetryDecision = { retry: true; delayMs: number; reason: string } | { retry: false; reason: string }

export interface AttemptOutcome {
  method: HttpMethod | string
  /** 1 for the first attempt. */
  attempt: number
  status?: number
  retryAfter?: string
  transportCode?: string
  /** What the earlier retries of this request have waited, added up (0 before the first retry). */
  waitedMs?: number
}

/** Exponential backoff with jitter (between half and the full delay). */
export function backoffMs(p: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const full = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(full * (0.5 + random() * 0.5))
}

/** Whether (and after how long) to send the request again. Pure. */
export function decideRetry(
  p: RetryPolicy,
  o: AttemptOutcome,
  random: () => number = Math.random,
  now: number = Date.now(),
): RetryDecision {
  const d = decideFault(p, o, random, now)
  const waited = o.waitedMs ?? 0
  if (d.retry && waited + d.delayMs > p.maxTotalDelayMs) {
    return {
      retry: false,
      reason:
        `${d.reason}: waiting ${d.delayMs} ms more would exceed the total wait of ${p.maxTotalDelayMs} ms ` +
        `(${waited} ms waited)`,
    }
  }
  return d
}

function decideFault(p: RetryPolicy, o: AttemptOutcome, random: () => number, now: number): RetryDecision {
  const method = o.method.toUpperCase()
  if (o.attempt >= p.maxAttempts) return { retry: false, reason: `attempt ${o.attempt} of at most ${p.maxAttempts}` }
  const idempotent = IDEMPOTENT_METHODS.has(method)
  if (o.transportCode !== undefined) {
    if (!idempotent) {
      if (p.retryPostWhenNotSent && NOT_SENT_CODES.has(o.transportCode)) {
        return {
          retry: true,
          delayMs: backoffMs(p, o.attempt, random),
          reason: `${o.transportCode}: the ${method} never reached the server`,
        }
      }
      return {
        retry: false,
        reason: `${method} is not idempotent and may have reached the server (${o.transportCode})`,
      }
    }
    if (!TRANSIENT_CODES.has(o.transportCode)) return { retry: false, reason: `${o.transportCode} is not transient` }
    return { retry: true, delayMs: backoffMs(p, o.attempt, random), reason: o.transportCode }
  }
  if (o.status === undefined || !p.statuses.includes(o.status))
    return { retry: false, reason: `status ${o.status ?? 'none'} is final` }
  if (!idempotent)
    return { retry: false, reason: `${method} answered ${o.status}: not idempotent, the server received it` }
  const wait = retryAfterMs(o.retryAfter, now)
  if (wait !== undefined && wait > p.maxRetryAfterMs) {
    return { retry: false, reason: `Retry-After ${Math.round(wait)} ms exceeds the bound of ${p.maxRetryAfterMs} ms` }
  }
  return {
    retry: true,
    delayMs: Math.max(backoffMs(p, o.attempt, random), wait ?? 0),
    reason: `status ${o.status}${wait !== undefined ? `, Retry-After ${Math.round(wait)} ms` : ''}`,
  }
}

export interface RetryHooks {
  sleep?: (ms: number) => Promise<void>
  random?: () => number
  /** Called before each resend (for logging). */
  onRetry?: (attempt: number, decision: Extract<RetryDecision, { retry: true }>) => void
  /**
   * Time left for the whole call (its deadline, and the running check's): a retry whose wait would leave less than
   * MIN_ATTEMPT_MS for the attempt is not made, so retries always fit inside the check's time.
   */
  remainingMs?: () => number
}

/** The least time worth giving one more attempt. */
export const MIN_ATTEMPT_MS = 1000

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/**
 * Runs `attempt(n)` until it gives a final answer under the policy. Returns the last HTTP result, or
 * rethrows the last TransportError. Any other error is rethrown at once.
 */
export async function withRetry(
  p: RetryPolicy,
  method: HttpMethod | string,
  attempt: (n: number) => Promise<HttpResult>,
  hooks: RetryHooks = {},
): Promise<HttpResult> {
  const sleep = hooks.sleep ?? defaultSleep
  let waitedMs = 0
  for (let n = 1; ; n += 1) {
    let decision: RetryDecision
    let last: { res: HttpResult } | { error: TransportError }
    try {
      const res = await attempt(n)
      last = { res }
      decision = decideRetry(
        p,
        {
          method,
          attempt: n,
          waitedMs,
          status: res.status,
          ...(res.headers['retry-after'] ? { retryAfter: res.headers['retry-after'] } : {}),
        },
        hooks.random,
      )
      if (!decision.retry) return res
    } catch (e) {
      if (!(e instanceof TransportError)) throw e
      last = { error: e }
      decision = decideRetry(p, { method, attempt: n, waitedMs, transportCode: e.code }, hooks.random)
      if (!decision.retry) throw e
    }
    if (hooks.remainingMs && hooks.remainingMs() - decision.delayMs < MIN_ATTEMPT_MS) {
      if ('res' in last) return last.res
      throw last.error
    }
    hooks.onRetry?.(n + 1, decision)
    waitedMs += decision.delayMs
    await sleep(decision.delayMs)
  }
}

/** The retry policy of a target: DEFAULT_RETRY_POLICY with the profile's extensions.reliability.retry over it. */
export function retryPolicyFrom(extensions: Record<string, Record<string, unknown>> | undefined): RetryPolicy {
  const raw = (extensions?.reliability?.retry ?? {}) as Partial<RetryPolicy>
  return { ...DEFAULT_RETRY_POLICY, ...raw, statuses: [...(raw.statuses ?? DEFAULT_RETRY_POLICY.statuses)] }
}
