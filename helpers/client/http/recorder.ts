import type { Redactor } from '../evidence/redact'
import { matchOperation } from '../../../common/operations'
import { reportFinding } from './running-check'
import { ANSWER_BUDGET_DEVIATION, ANSWER_HEADERS_DEVIATION, COMMON_HEADER_BYTES, MAX_HEADER_BYTES } from './limits'
import type { Exchange, HttpResult, SentRequest } from './types'
import type { Instant } from './types'

const MAX_BODY_CHARS = 16_000

export type { Exchange } from './types'

export type ExchangeSink = (exchange: Exchange) => void | Promise<void>

/**
 * One answer's name within a run: when it was sent, by which check, the method, URL and attempt. Two failures that
 * name the same answer (a check's failing answer, an answer that broke an invariant) are about the same answer
 * (runner/run/results/shared-answers.ts).
 */
export function answerKey(e: Pick<Exchange, 'at' | 'test' | 'method' | 'url' | 'attempt'>): string {
  return `${e.at} ${e.test ?? ''} ${e.method} ${e.url} #${e.attempt ?? 1}`
}

export interface RecorderOptions {
  runId: string
  redactor: Redactor
  sinks: ExchangeSink[]
  /** Name of the running test, if any. */
  currentTest?: () => string | undefined
  /** The dependent chain of the running check, if any. */
  currentChain?: () => string | undefined
  /**
   * The answer budget (bytes) of an operation, and the policy of an answer over it (profile http.answerBudgetBytes).
   */
  answerBudget?: { bytes: (operationId: string | undefined) => number; policy: 'warn' | 'fail' }
  /**
   * The policy of an answer whose header section is over what Node's client reads by default (profile
   * deviations['answer-headers']).
   */
  largeHeaders?: { policy: 'warn' | 'fail' }
}

/** The size of an answer's header section: each field line's name, ": ", value and CRLF. */
export function headerBytes(headers: Record<string, string | string[] | undefined>): number {
  let n = 0
  for (const [k, v] of Object.entries(headers))
    for (const value of Array.isArray(v) ? v : v === undefined ? [] : [v]) n += k.length + value.length + 4
  return n
}

/** How much of an answer over its budget is recorded (its first characters, redacted). */
const OVER_BUDGET_PREFIX = 2000
/**
 * Characters past the prefix redacted with it, so that a secret cut by the prefix's end is masked whole (a JWT is ~1
 * KB).
 */
const SECRET_MARGIN = 4096

function truncate(text: string): string {
  return text.length > MAX_BODY_CHARS
    ? `${text.slice(0, MAX_BODY_CHARS)}… [${text.length - MAX_BODY_CHARS} more characters]`
    : text
}

/** Redacts each exchange once and hands it to every sink (Allure steps, traffic file, memory). */
/**
 * Which redactor masked each exchange described here, and how many secrets it knew before it began: a writer that
 * would mask the exchange's texts again (the Allure attachment) need not when that redactor has learned nothing
 * since (its set of secrets only grows; masking is idempotent). An exchange whose own answer taught it a secret is
 * masked again, since its texts masked before that secret was learned may hold it.
 */
const redactedBy = new WeakMap<Exchange, { redactor: Redactor; known: number }>()

/** The redactor that masked this exchange and how many secrets it knew then (undefined: not described here). */
export function redactedWith(exchange: Exchange): { redactor: Redactor; known: number } | undefined {
  return redactedBy.get(exchange)
}

export class Recorder {
  constructor(private readonly options: RecorderOptions) {}

  get redactor(): Redactor {
    return this.options.redactor
  }

  /**
   * The size above which an answer to this request is not parsed: its operation's answer budget when an answer over it
   * fails the check (policy fail); under warn the answer is parsed whole, as the user chose to have it judged.
   */
  parseBudget(method: string, url: string): number | undefined {
    const budget = this.options.answerBudget
    if (!budget || budget.policy !== 'fail') return undefined
    try {
      return budget.bytes(matchOperation(method, new URL(url).pathname)?.id)
    } catch {
      return undefined
    }
  }

  describe(
    req: SentRequest,
    res?: HttpResult,
    error?: Error,
    attempt?: number,
    queuedMs?: number,
    times?: { invokedAt: Instant; completedAt: Instant },
  ): Exchange {
    const r = this.options.redactor
    const known = r.size
    const url = new URL(req.url)
    const op = matchOperation(req.method, url.pathname)
    const budget = res && this.options.answerBudget ? this.options.answerBudget.bytes(op?.id) : undefined
    const over = res !== undefined && budget !== undefined && res.raw.length > budget
    if (over) {
      // a finding of its own on its operation; the answer is neither redacted in full, deep-copied nor attached
      const label = `${req.method} ${r.text(req.url)}${op ? ` (${op.id})` : ''}`
      reportFinding({
        id: `${ANSWER_BUDGET_DEVIATION}:${op?.id ?? url.pathname}`,
        message:
          `the answer of ${label} (${res.status}) is ${res.raw.length} bytes, over the budget of ${budget} ` +
          `bytes for this operation (profile http.answerBudgetBytes / http.answerBudgets)`,
        policy: this.options.answerBudget!.policy,
      })
    }
    const headers = res && this.options.largeHeaders ? headerBytes(res.headers) : 0
    if (headers > COMMON_HEADER_BYTES) {
      const label = `${req.method} ${r.text(req.url)}${op ? ` (${op.id})` : ''}`
      reportFinding({
        id: `${ANSWER_HEADERS_DEVIATION}:${op?.id ?? url.pathname}`,
        message:
          `the answer of ${label} (${res!.status}) has a header section of ${headers} bytes, over ` +
          `the ${COMMON_HEADER_BYTES} bytes Node's HTTP client reads by default; read (up to ${MAX_HEADER_BYTES} ` +
          `bytes, as curl and browsers read) and judged`,
        policy: this.options.largeHeaders!.policy,
      })
    }
    const test = this.options.currentTest?.()
    const chain = test === undefined ? undefined : this.options.currentChain?.()
    const exchange: Exchange = {
      at: new Date().toISOString(),
      runId: this.options.runId,
      ...(test ? { test } : {}),
      ...(chain ? { chain } : {}),
      ...(op ? { operationId: op.id } : {}),
      template: op?.path ?? url.pathname,
      method: req.method,
      url: r.text(req.url),
      ...(res ? { status: res.status } : {}),
      durationMs: Math.round((res?.durationMs ?? 0) * 10) / 10,
      ...(attempt !== undefined ? { attempt } : {}),
      ...(queuedMs !== undefined && queuedMs >= 1 ? { queuedMs: Math.round(queuedMs) } : {}),
      request: {
        headers: r.headers(req.headers),
        ...(req.body !== undefined ? { body: truncate(redactBody(r, req.body)) } : {}),
      },
      ...(res
        ? {
            response: {
              headers: r.headers(res.headers),
              contentType: res.contentType,
              ...(over ? { overBudget: res.raw.length } : {}),
              body: over
                ? `<${res.raw.length} bytes of ${res.contentType || 'unknown type'}, over the answer budget ` +
                  `of ${budget} bytes; first ` +
                  `characters:> ${r.text(res.raw.subarray(0, OVER_BUDGET_PREFIX + SECRET_MARGIN).toString('utf8')).slice(0, OVER_BUDGET_PREFIX)}`
                : truncate(
                    res.body !== undefined && typeof res.body === 'object'
                      ? JSON.stringify(r.json(res.body))
                      : r.text(
                          isBinary(res)
                            ? `<${res.raw.length} bytes of ${res.contentType || 'unknown type'}>`
                            : res.text,
                        ),
                  ),
            },
          }
        : {}),
      ...(error ? { error: r.text(error.message) } : {}),
      ...(times ? { invokedAt: round(times.invokedAt), completedAt: round(times.completedAt) } : {}),
    }
    redactedBy.set(exchange, { redactor: r, known })
    return exchange
  }

  async record(
    req: SentRequest,
    res?: HttpResult,
    error?: Error,
    attempt?: number,
    queuedMs?: number,
    times?: { invokedAt: Instant; completedAt: Instant },
  ): Promise<Exchange> {
    const exchange = this.describe(req, res, error, attempt, queuedMs, times)
    for (const sink of this.options.sinks) {
      try {
        await sink(exchange)
      } catch {
        // a broken sink must never fail a check
      }
    }
    return exchange
  }
}

const round = (t: Instant): Instant => ({ mono: Math.round(t.mono * 1000) / 1000, epoch: t.epoch })

function isBinary(res: HttpResult): boolean {
  return res.body === undefined && res.raw.length > 0 && !/text|json|xml/i.test(res.contentType)
}

function redactBody(r: Redactor, body: string): string {
  try {
    return JSON.stringify(r.json(JSON.parse(body)))
  } catch {
    return r.text(body)
  }
}
