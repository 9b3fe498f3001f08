import { isOperationId, type OperationId } from '../../../common/operations'
import { afterAll } from 'vitest'
import { reportPoll } from '../poll'
import type { UserCredentials } from '../../../common/config/types'
import type { SuiteContext } from '../context'
import { getPointer } from '../../client/data/json-pointer'
import type { HttpResult } from '../../client/http/types'
import type { PollResult } from '../../client/polling/poll-until'
import { waitForActions, waitForRequest, type ActionsValue, type RequestValue } from './waits'
import { generatePayload, mixSeed } from './payload'
import { loadPayloadOverrides, type PayloadOverrides } from './payload-overrides'
import { metaSchemaErrors } from './schema-tools'
import { referenceProblems } from '../../../common/config/schema-limits'
import { salesSettings, type SalesSettings } from '../../../common/config/sales-settings'

/** Where a step of the flow went wrong, beyond the response: the operation and status when no response says them. */
export interface FlowEvidence {
  operation?: OperationId
  status?: number | string
  product?: string
  /** The owning check, only for a failure that is no operation's (a payload the schema does not allow). */
  owner?: string
}

/**
 * A step of the sales flow did not go as a conforming target would; carries what was seen. Not an assertion:
 * inside given() (helpers/checks/setup.ts) it blocks the check, naming the operation, the status and its owner.
 */
export class SalesFlowError extends Error {
  constructor(
    readonly step: string,
    readonly detail: string,
    readonly res?: HttpResult,
    readonly evidence: FlowEvidence = {},
  ) {
    super(
      `sales flow step '${step}' failed: ${detail}${
        res ? ` (${res.request.method} ${res.request.url} ` + `-> ${res.status})` : ''
      }`,
    )
    this.name = 'SalesFlowError'
  }

  private recordedOperation(): OperationId | undefined {
    const id = this.res?.exchange?.operationId
    return id !== undefined && isOperationId(id) ? id : undefined
  }

  /** What given() reports of a failed setup: operation (from the response when it says), status, product. */
  setupEvidence(): FlowEvidence & { res?: HttpResult } {
    return {
      ...(this.res ? { res: this.res } : {}),
      ...((this.evidence.operation ?? this.recordedOperation())
        ? { operation: this.evidence.operation ?? this.recordedOperation() }
        : {}),
      ...(this.evidence.status !== undefined
        ? { status: this.evidence.status }
        : this.res
          ? { status: this.res.status }
          : {}),
      ...(this.evidence.product ? { product: this.evidence.product } : {}),
      ...(this.evidence.owner ? { owner: this.evidence.owner } : {}),
    }
  }
}

export interface CreateQuoteOptions {
  /** JSON pointer -> value, written over the generated payload (after the fixture overrides). */
  set?: Record<string, unknown>
  /** Label of the run tag written at the profile's tagPointer. */
  label?: string
  /** Seed of the generated payload (default: the run seed). */
  seed?: number
  /** An update the quote will get (pointer -> value): the payload never holds all of it already (generatePayload). */
  unlike?: Record<string, unknown>
  /** The payload holds none of `unlike`'s values (generatePayload's unlikeEach). */
  unlikeEach?: boolean
  as?: UserCredentials
}

export interface CreatedQuote {
  quoteId: string
  product: string
  payload: Record<string, unknown>
  seed: number
  res: HttpResult
}

export interface IssuedPolicy {
  quoteId: string
  policyId: string
  requestId: string
  product: string
  payload: Record<string, unknown>
  /** Body of GET /sales/policies/{quoteId} just before issue. */
  quote: unknown
  /** Body of GET /sales/calculation before issue. */
  calculation: unknown
  /** Body of the successful request status. */
  request: unknown
  /** Every poll done on the way (for reports). */
  polls: PollResult<unknown>[]
}

function isOk(res: HttpResult): boolean {
  return res.status >= 200 && res.status < 300
}

/**
 * The quote lifecycle driven against the target, for suites that need a quote or a policy they created
 * themselves. One per suite file (holds the schema cache and the quotes to clean up). Never asserts:
 * a step that does not go as expected throws SalesFlowError naming the step and the response.
 */
export class SalesFlow {
  readonly settings: SalesSettings
  private readonly schemas = new Map<string, unknown>()
  private readonly overrides = new Map<string, PayloadOverrides>()
  /** Quotes created through this flow, with the last state we moved them to. */
  readonly created = new Map<string, { product: string; final: boolean }>()
  private counter = 0

  /**
   * @param scope makes the payloads of this flow differ from other flows of the run (e.g. the suite file name);
   *   payload seeds are mixSeed(run seed, `${scope}:${label}`), reproducible with the same CONFORMANCE_SEED.
   */
  constructor(
    readonly t: SuiteContext,
    readonly scope = 'flow',
  ) {
    this.settings = salesSettings(t.config)
  }

  payloadOverrides(product: string): PayloadOverrides {
    let o = this.overrides.get(product)
    if (!o) {
      o = loadPayloadOverrides(product, undefined, (s) => this.t.schemas.compile(s, { shipped: true }))
      this.overrides.set(product, o)
    }
    return o
  }

  async fetchSchema(
    product: string,
    as?: UserCredentials,
  ): Promise<{ schema: Record<string, unknown>; res: HttpResult }> {
    const res = await this.t.sales.call({
      op: 'sales.schemes.get',
      params: { type: this.settings.schemaType, name: product },
      ...(as ? { as } : {}),
    })
    if (res.status !== 200 || typeof res.body !== 'object' || res.body === null)
      throw new SalesFlowError('fetch schema', `expected 200 with a JSON schema`, res, { product })
    const problems = metaSchemaErrors(res.body)
    if (problems.length > 0)
      throw new SalesFlowError('fetch schema', `not a valid JSON Schema: ${problems.slice(0, 3).join('; ')}`, res, {
        product,
      })
    // a reference the suite will not follow, or a cycle no generator or validator ends: this product's checks stop here
    const refs = referenceProblems(res.body, this.t.config.schemaLimits)
    if (refs.length > 0)
      throw new SalesFlowError(
        'fetch schema',
        `the product schema of ${res.request.method} ${res.request.url} refused (a hostile or broken ` +
          `schema): ${refs.slice(0, 3).join('; ')}`,
        res,
        { product },
      )
    return { schema: res.body as Record<string, unknown>, res }
  }

  /** The primary user's schema of a product (cached for the flow). */
  async schema(product: string): Promise<Record<string, unknown>> {
    const cached = this.schemas.get(product)
    if (cached) return cached as Record<string, unknown>
    const { schema } = await this.fetchSchema(product)
    this.schemas.set(product, schema)
    return schema
  }

  /** A valid create payload for the product: generated from the schema, fixture overrides, tag, extra `set`. */
  async buildPayload(
    product: string,
    o: Omit<CreateQuoteOptions, 'as'> = {},
  ): Promise<{ payload: Record<string, unknown>; seed: number; errors: string[] }> {
    const schema = await this.schema(product)
    const fixture = this.payloadOverrides(product)
    this.counter += 1
    const label = o.label ?? `${product}-${this.counter}`
    const seed = o.seed ?? mixSeed(this.t.config.seed, `${this.scope}:${label}:${this.counter}`)
    const set: Record<string, unknown> = { ...(fixture.set ?? {}) }
    if (this.settings.tagPointer) set[this.settings.tagPointer] = this.t.tag(label)
    Object.assign(set, o.set ?? {})
    set['/schema'] = { type: this.settings.schemaType, name: product }
    return generatePayload(schema, {
      seed,
      set,
      ...(o.unlike ? { unlike: o.unlike } : {}),
      ...(o.unlikeEach ? { unlikeEach: true } : {}),
      compile: (s) => this.t.schemas.compile(s),
      limits: this.t.config.schemaLimits,
    })
  }

  /** buildPayload, and SalesFlowError when the payload does not match the schema (SL-PAY-001 owns that). */
  async validPayload(
    product: string,
    o: Omit<CreateQuoteOptions, 'as'> = {},
  ): Promise<{ payload: Record<string, unknown>; seed: number }> {
    const { payload, seed, errors } = await this.buildPayload(product, o)
    if (errors.length > 0)
      throw new SalesFlowError(
        'build payload',
        `generated payload does not match the schema (seed ${seed}): ${errors.join('; ')}`,
        undefined,
        { operation: 'sales.schemes.get', status: 'no valid payload', product, owner: `SL-PAY-001-${product}` },
      )
    return { payload, seed }
  }

  /** Creates a quote (POST create, never retried). Throws when the payload is invalid or creation fails. */
  async createQuote(product: string, o: CreateQuoteOptions = {}): Promise<CreatedQuote> {
    const { payload, seed } = await this.validPayload(product, o)
    const res = await this.t.sales.call({ op: 'sales.quote.create', json: payload, ...(o.as ? { as: o.as } : {}) })
    const id = getPointer(res.body, this.settings.quoteIdPointer)
    if (!isOk(res) || (typeof id !== 'string' && typeof id !== 'number')) {
      throw new SalesFlowError(
        'create quote',
        `expected 2xx with the quote id at ${this.settings.quoteIdPointer}`,
        res,
        { product },
      )
    }
    const quoteId = String(id)
    this.created.set(quoteId, { product, final: false })
    return { quoteId, product, payload, seed, res }
  }

  waitActions(quoteId: string): Promise<PollResult<ActionsValue>> {
    return waitForActions(this.t.sales, quoteId, this.t.config.polling)
  }

  /** Waits for the lock to be released (poll trace in the report); throws when it is not within the deadline. */
  async unlocked(quoteId: string, step: string, polls?: PollResult<unknown>[]): Promise<string[]> {
    const r = await this.waitActions(quoteId)
    await reportPoll(r)
    polls?.push(r)
    if (r.outcome !== 'success' || !r.value) {
      if (r.outcome === 'timeout') this.stayedLocked(quoteId, step, r)
      // unlocked, but not with a list of actions: the actions answer's contract (the operation's owner, SL-CON-001)
      throw new SalesFlowError(
        step,
        `actions did not unlock: ${r.outcome} after ${r.attempts.length} attempts in ${r.elapsedMs} ms ` +
          `(${r.last?.seen ?? ''})`,
        r.last?.value.res,
        { operation: 'sales.quote.actions' },
      )
    }
    return r.value.actions
  }

  /**
   * Waits until the quote is no longer locked and returns the poll, whatever the answer's shape (the caller may
   * check it); throws SalesFlowError only when it stays locked past the deadline.
   */
  async released(quoteId: string, step: string): Promise<PollResult<ActionsValue>> {
    const r = await this.waitActions(quoteId)
    await reportPoll(r)
    if (r.outcome === 'timeout') this.stayedLocked(quoteId, step, r)
    return r
  }

  /** The lock was not released within the deadline: SL-LIFE-002 (the lock is released after a change) owns that. */
  private stayedLocked(quoteId: string, step: string, r: PollResult<ActionsValue>): never {
    const product = this.created.get(quoteId)?.product
    throw new SalesFlowError(
      step,
      `the quote stayed locked: ${r.attempts.length} attempts in ${r.elapsedMs} ms (${r.last?.seen ?? ''})`,
      r.last?.value.res,
      {
        operation: 'sales.quote.actions',
        status: `timeout: ${r.last?.seen ?? 'no answer'}`,
        ...(product ? { product, owner: `SL-LIFE-002-${product}` } : {}),
      },
    )
  }

  /** Create, wait, calculate, wait: a calculated quote and its actions. Throws SalesFlowError when a step fails. */
  async calculatedQuote(
    product: string,
    o: CreateQuoteOptions = {},
    polls?: PollResult<unknown>[],
  ): Promise<CreatedQuote & { actions: string[] }> {
    const created = await this.createQuote(product, o)
    await this.unlocked(created.quoteId, 'wait after create', polls)
    const calc = await this.calculate(created.quoteId)
    if (!isOk(calc)) throw new SalesFlowError('calculate', 'expected 2xx', calc, { product })
    const actions = await this.unlocked(created.quoteId, 'wait after calculate', polls)
    return { ...created, actions }
  }

  /** A calculated quote, bound, and unlocked again. Throws SalesFlowError when a step fails. */
  async boundQuote(product: string, o: CreateQuoteOptions = {}, polls?: PollResult<unknown>[]): Promise<CreatedQuote> {
    const q = await this.calculatedQuote(product, o, polls)
    const bind = await this.bind(q.quoteId)
    if (!isOk(bind)) throw new SalesFlowError('bind', 'expected 2xx', bind, { product })
    await this.unlocked(q.quoteId, 'wait after bind', polls)
    return q
  }

  /** Issues a bound quote: 2xx with a request id, or SalesFlowError. */
  async startIssue(quoteId: string, product: string): Promise<{ requestId: string; res: HttpResult }> {
    const issue = await this.issue(quoteId)
    const requestId = this.requestIdOf(issue)
    if (!isOk(issue) || !requestId)
      throw new SalesFlowError('issue', `expected 2xx with a request id at ${this.settings.requestIdPointer}`, issue, {
        product,
      })
    return { requestId, res: issue }
  }

  getQuote(quoteId: string): Promise<HttpResult> {
    return this.t.sales.call({
      op: 'sales.quote.get',
      params: { policyId: quoteId },
      query: { withNotifications: true },
    })
  }
  update(quoteId: string, json: unknown): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.quote.update', params: { policyId: quoteId }, json })
  }
  calculate(quoteId: string): Promise<HttpResult> {
    return this.t.sales.call({
      op: 'sales.quote.calculate',
      params: { id: quoteId },
      query: { withNotifications: true },
      json: {},
    })
  }
  calculation(quoteId: string): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.quote.calculation', params: { id: quoteId } })
  }
  installments(quoteId: string): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.quote.installments', params: { policyId: quoteId } })
  }
  referral(quoteId: string, comment: string): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.quote.referral', params: { policyId: quoteId }, json: { comment } })
  }
  async decline(quoteId: string, reason: string): Promise<HttpResult> {
    const res = await this.t.sales.call({ op: 'sales.quote.decline', params: { policyId: quoteId }, json: { reason } })
    if (isOk(res)) this.markFinal(quoteId)
    return res
  }
  bind(quoteId: string): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.quote.bind', params: { policyId: quoteId }, json: {} })
  }
  issue(quoteId: string): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.quote.issue', params: { id: quoteId }, json: {} })
  }
  requestIdOf(res: HttpResult): string | undefined {
    const id = getPointer(res.body, this.settings.requestIdPointer)
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined
  }
  waitRequest(requestId: string): Promise<PollResult<RequestValue>> {
    return waitForRequest(this.t.sales, requestId, this.t.config.polling, this.t.config.statuses)
  }
  /**
   * Throws SalesFlowError when polling a request ended on an answer whose status cannot be read (not 200, no status,
   * or a spelling the profile does not give): the request status answer's contract (the operation's owner, SL-CON-003).
   */
  requireReadable(r: PollResult<RequestValue>, product: string): void {
    if (r.outcome !== 'failure') return
    const v = r.last?.value
    if (
      v &&
      v.res.status === 200 &&
      v.status !== undefined &&
      this.t.config.statuses.failure.includes(v.status.toLowerCase())
    )
      return
    throw new SalesFlowError(
      'issue request',
      `the request status cannot be read: ${r.last?.seen ?? 'no answer'}`,
      v?.res,
      { operation: 'sales.requests.get', product },
    )
  }

  policyLinks(policyId: string): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.policy.links', params: { policyId } })
  }
  markFinal(quoteId: string): void {
    const c = this.created.get(quoteId)
    if (c) c.final = true
  }

  /** Create, wait, calculate, wait, bind, wait, issue, poll to success: a policy this run issued itself. */
  async issueNewPolicy(product: string, o: CreateQuoteOptions = {}): Promise<IssuedPolicy> {
    const polls: PollResult<unknown>[] = []
    const created = await this.createQuote(product, o)
    const { quoteId } = created
    await this.unlocked(quoteId, 'wait after create', polls)
    const calc = await this.calculate(quoteId)
    if (!isOk(calc)) throw new SalesFlowError('calculate', 'expected 2xx', calc, { product })
    await this.unlocked(quoteId, 'wait after calculate', polls)
    const calculation = await this.calculation(quoteId)
    if (!isOk(calculation)) throw new SalesFlowError('financials', 'expected 2xx', calculation, { product })
    const bind = await this.bind(quoteId)
    if (!isOk(bind)) throw new SalesFlowError('bind', 'expected 2xx', bind, { product })
    await this.unlocked(quoteId, 'wait after bind', polls)
    const quote = await this.getQuote(quoteId)
    const issue = await this.issue(quoteId)
    const requestId = this.requestIdOf(issue)
    if (!isOk(issue) || !requestId)
      throw new SalesFlowError('issue', `expected 2xx with a request id at ${this.settings.requestIdPointer}`, issue, {
        product,
      })
    const r = await this.waitRequest(requestId)
    await reportPoll(r)
    polls.push(r)
    this.requireReadable(r, product)
    if (r.outcome !== 'success' || !r.value) {
      // a request that stays pending or ends in failure: SL-LIFE-010 (polled until success) owns that
      throw new SalesFlowError(
        'issue request',
        `${r.outcome} after ${r.attempts.length} attempts in ${r.elapsedMs} ms (${r.last?.seen ?? ''})`,
        r.last?.value.res,
        {
          operation: 'sales.requests.get',
          status: `${r.outcome}: ${r.last?.seen ?? 'no answer'}`,
          product,
          owner: `SL-LIFE-010-${product}`,
        },
      )
    }
    const policyId = getPointer(r.value.body, this.settings.policyIdPointer)
    if (typeof policyId !== 'string' && typeof policyId !== 'number') {
      throw new SalesFlowError(
        'issue request',
        `no policy id at ${this.settings.policyIdPointer} of the successful request`,
        r.value.res,
        { product },
      )
    }
    this.markFinal(quoteId)
    return {
      quoteId,
      policyId: String(policyId),
      requestId,
      product,
      payload: created.payload,
      quote: quote.body,
      calculation: calculation.body,
      request: r.value.body,
      polls,
    }
  }

  /**
   * Declines the quotes this flow created and left open (profile cleanup 'decline'), side by side (the quotes do not
   * depend on each other; the target's request limit bounds them). Never throws.
   */
  async cleanup(): Promise<void> {
    if (this.settings.cleanup !== 'decline') return
    const polling = {
      ...this.t.config.polling,
      actionsDeadlineMs: Math.min(2000, this.t.config.polling.actionsDeadlineMs),
    }
    const open = [...this.created].filter(([, c]) => !c.final).map(([quoteId]) => quoteId)
    await Promise.all(
      open.map(async (quoteId) => {
        try {
          await waitForActions(this.t.sales, quoteId, polling)
          await this.decline(quoteId, `${this.t.tag('cleanup')}`)
        } catch {
          // best effort: the target may already refuse (issued, declined) or be gone
        }
      }),
    )
  }
}

/** A SalesFlow for this suite file; its open quotes are declined after the file (even when a check failed). */
export function useSalesFlow(t: SuiteContext, scope = 'flow'): SalesFlow {
  const flow = new SalesFlow(t, scope)
  afterAll(() => flow.cleanup())
  return flow
}

/** One-shot: issue a new policy for `product` with a fresh flow (no cleanup needed: the quote ends issued). */
export function issueNewPolicy(t: SuiteContext, product: string, o: CreateQuoteOptions = {}): Promise<IssuedPolicy> {
  return new SalesFlow(t, `issue:${o.label ?? product}`).issueNewPolicy(product, o)
}

/** One-shot: create a quote; prefer useSalesFlow(t).createQuote so it is cleaned up. */
export function createQuote(t: SuiteContext, product: string, o: CreateQuoteOptions = {}): Promise<CreatedQuote> {
  return new SalesFlow(t, `create:${o.label ?? product}`).createQuote(product, o)
}
