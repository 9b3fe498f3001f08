import type { UserCredentials } from '../../../common/config/types'
import type { Dispatchers } from './dispatchers'
import type { RequestLimiter } from './limiter'
import { fillPath, operation, type OperationId } from '../../../common/operations'
import type { Recorder } from './recorder'
import { instant, type Actor, type ExchangeObserver, type Verdict } from './observer'
import { runningChain, runningCheck, runningClient } from './running-check'
import { DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from './retry'
import { currentInFlight } from './in-flight'
import { limitsOf } from './limits'
import { send } from './send'
import { documentKind, mediaTypeOf, openDocument } from '../content/document'
import { createHash } from 'node:crypto'
import { TransportError, type HttpMethod, type HttpResult } from './types'

export interface CallOptions {
  /** Operation id from common/operations.json: gives method and path template (a typo does not compile). */
  op?: OperationId
  method?: HttpMethod
  /** Path (template allowed) relative to the base URL, when no op is given. */
  path?: string
  params?: Record<string, string | number>
  query?: Record<string, string | number | boolean | undefined>
  json?: unknown
  body?: string | Buffer
  headers?: Record<string, string>
  /** Who calls: a user (default: the primary user) or 'anonymous' for no Authorization header. */
  as?: UserCredentials | 'anonymous'
  /** Sends `Authorization: Bearer <bearer>` as given, without logging in. */
  bearer?: string
  /** Tenant header value; null omits the header. Default: the caller's tenant (sales only). */
  tenant?: string | null
}

export interface ServiceClientOptions {
  baseUrl: string
  dispatchers: Dispatchers
  recorder: Recorder
  /** The bearer of each user (helpers/client/auth/session.ts AuthSession). */
  auth: TokenProvider
  defaultUser: UserCredentials
  /** Tenant header name, when this service takes one. */
  tenantHeader?: string
  defaultHeaders: Record<string, string>
  /** Transient faults of idempotent requests are retried under this policy (default DEFAULT_RETRY_POLICY). */
  retry?: RetryPolicy
  /** Requests in flight to the target at once (helpers/client/http/limiter.ts); none: unlimited. */
  limiter?: RequestLimiter
  /** Which service this is, for the model. */
  service?: 'sales' | 'webhooks' | 'identity'
  /** The run's model of the services' state: sees every call and its answer (helpers/oracle/). */
  observer?: ExchangeObserver
  /** Receives what the model made of each answer (invariants evaluated, violations). */
  onVerdict?: (verdict: Verdict) => void
  /** Whether nothing waits for the request being sent (it may yield its turn at the limiter to a dependent chain). */
  background?: () => boolean
}

/** A token's fingerprint: the model tells a refreshed token from the one it replaced by it, never holding either. */
export function tokenFingerprint(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 24)
}

/**
 * The caller of a call: the running check (with the client it plays, when it plays several at once), and its dependent
 * chain when it is not the check itself (none outside a check).
 */
function callerNow(): { caller?: string } {
  const check = runningCheck()
  if (check === undefined) return {}
  const chain = runningChain()
  const client = runningClient()
  const who = client !== undefined ? `${check} > ${client}` : check
  return { caller: chain !== undefined && chain !== check ? `${who} [${chain}]` : who }
}

/** The exp claim of a bearer given as is, when it decodes, and its fingerprint (never the token). */
function bearerActor(bearer: string): Actor {
  const fingerprint = tokenFingerprint(bearer)
  try {
    const payload = JSON.parse(Buffer.from(bearer.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown
    }
    return typeof payload.exp === 'number'
      ? { kind: 'bearer', exp: payload.exp, fingerprint }
      : { kind: 'bearer', fingerprint }
  } catch {
    return { kind: 'bearer', fingerprint }
  }
}

/**
 * A successful answer that is a document (a PDF by its media type or first bytes, or any other binary body) is opened
 * as what it claims to be before the model judges it (issue 42): a PDF is parsed, another kind is marked unjudged.
 */
async function openAnswerDocument(res: HttpResult): Promise<void> {
  if (res.status < 200 || res.status >= 300 || res.raw.length === 0 || res.overBudget !== undefined) return
  const type = mediaTypeOf(res.contentType)
  if (documentKind(res.raw, type) === undefined && res.body !== undefined) return
  res.document = await openDocument(res.raw, type)
}

/** A service at one base URL: builds URLs from the operation catalogue, authenticates, records. */
/** Gives the bearer token of a user, and forgets it when the target refused it (AuthSession has these). */
export interface TokenProvider {
  token(user: UserCredentials): Promise<string>
  invalidate(user: UserCredentials): void
}

export class ServiceClient {
  constructor(private readonly options: ServiceClientOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl
  }

  url(path: string, query?: CallOptions['query']): string {
    const u = new URL(`${this.options.baseUrl}${path}`)
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v))
    return u.toString()
  }

  /**
   * Sends one request; never throws on an HTTP status. A 401 on a session token triggers
   * one fresh login and one resend (the server refused the first, so nothing happened).
   */
  async call(o: CallOptions): Promise<HttpResult> {
    const op = o.op ? operation(o.op) : undefined
    const method = (o.method ?? op?.method ?? 'GET') as HttpMethod
    const template = o.path ?? op?.path
    if (!template) throw new Error('call(): give op or path')
    const url = this.url(fillPath(template, o.params), o.query)
    const user = o.as === 'anonymous' ? undefined : (o.as ?? this.options.defaultUser)
    const attempt = async (fresh: boolean): Promise<HttpResult> => {
      const headers: Record<string, string> = { accept: 'application/json', ...this.options.defaultHeaders }
      if (this.options.tenantHeader && o.tenant !== null)
        headers[this.options.tenantHeader] = o.tenant ?? user?.tenant ?? this.options.defaultUser.tenant
      if (o.bearer !== undefined) headers.authorization = `Bearer ${o.bearer}`
      else if (user) {
        if (fresh) this.options.auth.invalidate(user)
        headers.authorization = `Bearer ${await this.options.auth.token(user)}`
      }
      Object.assign(headers, o.headers ?? {})
      return this.exchange({
        method,
        url,
        headers,
        ...(o.json !== undefined ? { json: o.json } : {}),
        ...(o.body !== undefined ? { body: o.body } : {}),
      })
    }
    const tenant =
      this.options.tenantHeader && o.tenant !== null
        ? (o.tenant ?? user?.tenant ?? this.options.defaultUser.tenant)
        : undefined
    const handle = this.options.observer?.begin({
      service: this.options.service ?? 'sales',
      ...(op ? { operationId: op.id } : {}),
      method,
      params: Object.fromEntries(Object.entries(o.params ?? {}).map(([k, v]) => [k, String(v)])),
      ...(o.json !== undefined ? { json: o.json } : {}),
      actor:
        o.bearer !== undefined
          ? bearerActor(o.bearer)
          : user
            ? { kind: 'user', tenant: user.tenant, username: user.username }
            : { kind: 'anonymous' },
      ...(tenant !== undefined ? { tenantHeader: tenant } : {}),
      ...(op ? {} : { path: new URL(url).pathname }),
      ...(o.query && Object.values(o.query).some((v) => v !== undefined)
        ? {
            query: Object.fromEntries(
              Object.entries(o.query)
                .filter(([, v]) => v !== undefined)
                .map(([k, v]) => [k, String(v)]),
            ),
          }
        : {}),
      ...callerNow(),
      invokedAt: instant(),
    })
    let res: HttpResult | undefined
    try {
      res = await attempt(false)
      if (res.status === 401 && user && o.bearer === undefined) res = await attempt(true)
      await openAnswerDocument(res)
      return res
    } finally {
      if (handle) this.options.onVerdict?.(handle.end(res, instant()))
    }
  }

  /**
   * Sends and records a fully built request (no auth added). Transient faults are retried under the
   * retry policy (helpers/client/http/retry.ts): never a POST that may have reached the server. Every attempt
   * is recorded with its attempt number.
   */
  async exchange(req: Parameters<typeof send>[1]): Promise<HttpResult> {
    // the call (every attempt and wait) ends by its deadline, and never after the running check's
    const tracker = currentInFlight()
    const endsAt = Math.min(
      Date.now() + limitsOf(this.options.dispatchers.timeouts).callDeadlineMs,
      tracker ? Date.now() + tracker.requestBudgetMs() : Number.POSITIVE_INFINITY,
    )
    const remainingMs = () => endsAt - Date.now()
    const answerBudgetBytes = req.answerBudgetBytes ?? this.options.recorder.parseBudget?.(req.method, req.url)
    return withRetry(
      this.options.retry ?? DEFAULT_RETRY_POLICY,
      req.method,
      async (attempt) => {
        let invokedAt = instant()
        try {
          // the time the attempt waited for a slot at the limiter: the suite's scheduling, not the target's (the
          // bench's chains)
          const queuedAt = performance.now()
          let queuedMs = 0
          const sendOnce = () => {
            queuedMs = performance.now() - queuedAt
            invokedAt = instant()
            return send(this.options.dispatchers, {
              ...req,
              deadlineMs: Math.max(1, Math.min(req.deadlineMs ?? Number.POSITIVE_INFINITY, remainingMs())),
              ...(answerBudgetBytes !== undefined ? { answerBudgetBytes } : {}),
            })
          }
          const res = await (this.options.limiter
            ? this.options.limiter.run(sendOnce, this.options.background?.(), (r) => r.status === 429)
            : sendOnce())
          res.exchange = await this.options.recorder.record(res.request, res, undefined, attempt, queuedMs, {
            invokedAt,
            completedAt: instant(),
          })
          return res
        } catch (e) {
          if (e instanceof TransportError)
            await this.options.recorder.record(e.request, undefined, e, attempt, undefined, {
              invokedAt,
              completedAt: instant(),
            })
          throw e
        }
      },
      { remainingMs },
    )
  }
}
