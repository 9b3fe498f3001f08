import type { NewIds } from './new-ids'
import type { TargetConfig } from '../../common/config/types'
import { getPointer } from '../client/data/json-pointer'
import type { HttpResult } from '../client/http/types'
import { policiesSettings } from '../../common/config/policies-settings'
import { salesSettings } from '../../common/config/sales-settings'
import { Flights } from './flights'
import type { InvariantId } from './invariants'
import { MoneyModel } from './money-model'
import { PolicyModel } from './policy-model'
import { SalesModel } from './sales-model'
import { factsOf, operation } from '../../common/operations'
import { changesExisting, touches } from '../../common/operation-facts'
import { actorKey, actorTenant, type CallHandle, type CallInfo, type ExchangeObserver } from '../client/http/observer'
import type { Verdict, Violation } from './invariants'
import { WebhooksModel } from './webhooks-model'
import { AnswerModel, type AnswerCall } from './answer-model'
import { reportFinding } from '../client/http/running-check'
import { violationList } from './judged-at'
import { judgeFiniteNumbers } from './finite-numbers'
import type { RealWorldClass } from './real-world'
import { ExerciseTracker } from './exercise-tracker'
import { tokenFingerprint } from '../client/http/client'
import { RunHistory } from './run-history'

/** The deviation of a field the answer source table does not know (issue 39). */
export const UNJUDGED_FIELD = 'unjudged-field'
const idOf = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)

/** A token the run used, as far as the client knows it: whose, and until when (never the token itself). */
export interface TokenState {
  tenant?: string
  user?: string
  /** Expiry, epoch seconds. */
  exp?: number
  calls: number
}

export interface ServiceModelOptions {
  /** Seconds past exp within which a target may still accept a token (profile auth.expiryLeewaySeconds; default 0). */
  expiryLeewaySeconds?: number
  /** The ids the target answered as new in the whole run (helpers/oracle/new-ids.ts); default: this model's own. */
  newIds?: NewIds
}

/**
 * What the two services' state must be, kept from this run's own traffic (one instance per suite context, worker or
 * exploration): subscriptions, quotes, requests, documents, policies and their money, tokens. Every call the client
 * makes passes through begin()/end(); end() judges the answer against the model and then learns from it. It never
 * asserts: it returns the invariants evaluated and the violations, which helpers/checks turns into check outcomes.
 */
export class ServiceModel implements ExchangeObserver {
  readonly webhooks = new WebhooksModel()
  readonly money: MoneyModel
  readonly sales: SalesModel
  readonly policy: PolicyModel
  readonly tokens = new Map<string, TokenState>()
  /** Every field of every answer against its source (helpers/oracle/answer-sources.ts; issue 39). */
  readonly answers: AnswerModel
  private readonly flights = new Flights()
  /**
   * Every call's operation per resource, with its caller and interval, judged for linearizability (SL-INV-050, 051,
   * PL-INV-050, 051, WH-INV-050).
   */
  readonly history: RunHistory
  private readonly leewayMs: number
  /** The exercise model's cells each answer exercises (helpers/oracle/exercise-model.ts). */
  readonly exercise: ExerciseTracker

  constructor(config: TargetConfig, options: ServiceModelOptions = {}) {
    // read once: the models only read them (RunHistory's default is the shared POLICIES_DEFAULTS itself)
    const policies = policiesSettings(config)
    const sales = salesSettings(config)
    this.money = new MoneyModel(policies)
    this.policy = new PolicyModel(policies)
    this.exercise = new ExerciseTracker(config, this.webhooks, tokenFingerprint)
    this.answers = new AnswerModel({
      dayCount: policies.dayCount,
      shortRateBase: policies.termination.shortRateBase,
      mtaAdjustment: policies.mta.adjustment,
      ...(options.newIds ? { newIds: options.newIds } : {}),
    })
    this.sales = new SalesModel(sales, config.statuses, {
      policyIssued: (p, from, res) => {
        this.money.policyIssued(p.id, p.tenant)
        this.policy.issued(p.id, p.tenant, from, res)
        this.exercise.policyIssued(p.id)
      },
      mtaIssued: (policyId, done, quoteId, success) => {
        this.money.mtaIssued(policyId, done)
        if (success) this.policy.mtaIssued(policyId, quoteId)
        if (success && done) this.exercise.mtaIssued(policyId)
      },
    })
    this.history = new RunHistory(sales, config.statuses, undefined, policies)
    const configured = (config.auth as { expiryLeewaySeconds?: unknown }).expiryLeewaySeconds
    this.leewayMs = 1000 * (options.expiryLeewaySeconds ?? (typeof configured === 'number' ? configured : 0))
  }

  /** The resource keys a call touches, and whether it writes them. */
  private keysOf(call: CallInfo): { keys: string[]; write: boolean } {
    const op = call.operationId
    if (op === undefined) return { keys: [], write: false }
    const p = call.params
    // a write that changes a view of an existing resource (common/operation-facts.ts `changes`)
    const write = changesExisting(op)
    if (operation(op).service === 'webhooks') {
      const owner = actorKey(call.actor) ?? 'anonymous'
      return { keys: [`subs:${owner}`, ...(p['id'] !== undefined ? [`sub:${p['id']}`] : [])], write }
    }
    const keys: string[] = []
    const q = this.sales.quoteIdOf(op, p)
    if (q !== undefined) keys.push(`quote:${q}`)
    if (op === 'sales.requests.get') keys.push(`request:${p['requestId']}`)
    if (op === 'sales.documents.download') keys.push(`document:${p['id']}`)
    if (touches(op, 'money')) keys.push('money')
    // a policy's views and the operations that change it (PolicyModel): technical change, termination, a new MTA quote
    const policyId =
      op === 'sales.quote.mta'
        ? idOf(getPointer(call.json, '/policy/id'))
        : factsOf(op).resource === 'policy'
          ? (p['policyId'] ?? p['id'])
          : undefined
    if (policyId !== undefined) keys.push(`policy:${policyId}`)
    if (touches(op, 'documents')) keys.push('documents')
    return { keys, write }
  }

  begin(call: CallInfo): CallHandle {
    const recorded = this.history.begin(call)
    const handle = this.judged(call)
    if (!recorded) return handle
    return {
      end: (res, completedAt) => {
        const verdict = handle.end(res)
        const h = recorded(res, completedAt)
        if (h.evaluated.length === 0 && h.violations.length === 0 && h.undecided.length === 0) return verdict
        return {
          ...verdict,
          evaluated: [...new Set([...verdict.evaluated, ...h.evaluated])],
          violations: [...verdict.violations, ...h.violations],
          ...(h.undecided.length > 0 ? { undecided: h.undecided } : {}),
        }
      },
    }
  }

  /** The answer of one call judged by the model's rules (the linearizability of the history aside). */
  private judged(call: CallInfo): CallHandle {
    const beganAt = Date.now()
    const { keys, write } = this.keysOf(call)
    const flight = this.flights.begin(keys, write)
    const op = call.operationId
    const service = op === undefined ? undefined : operation(op).service
    const actionsBefore = op !== undefined && service === 'sales' ? this.sales.begin(op, call.params) : undefined
    this.noteToken(call)
    return {
      end: (res: HttpResult | undefined): Verdict => {
        const overlapped = this.flights.end(keys, flight, write)
        const evaluated = new Set<InvariantId>()
        const violations = violationList()
        if (!res) {
          // no answer: a write may or may not have happened
          if (op !== undefined && service === 'sales') this.sales.lost({ op, params: call.params, overlapped })
          if (write) {
            this.money.forget()
            this.policy.forget()
          }
          return { evaluated: [], violations }
        }
        // before any rule reads a number of it (issue #37): a number that is not finite is a finding of its own
        judgeFiniteNumbers(call.service, res, evaluated, violations)
        this.judgeAccess(call, res, beganAt, evaluated, violations)
        const exercised = this.exerciseOf(call, res)
        if (op !== undefined && service === 'webhooks') {
          const owner = actorKey(call.actor)
          const partial = call.query !== undefined && Object.keys(call.query).length > 0
          this.webhooks.observe(
            {
              op,
              ...(call.params['id'] !== undefined ? { id: call.params['id'] } : {}),
              ...(owner ? { owner } : {}),
              json: call.json,
              beganAt,
              overlapped,
              ...(partial ? { partial } : {}),
            },
            res,
            evaluated,
            violations,
          )
          this.judgeAnswer({ op, params: call.params, json: call.json, overlapped }, res, evaluated, violations)
        } else if (op !== undefined && service === 'sales') {
          const actor = actorKey(call.actor)
          const tenant = call.tenantHeader ?? actorTenant(call.actor)
          const sent: RealWorldClass[] = []
          this.sales.observe(
            {
              op,
              params: call.params,
              json: call.json,
              ...(actor ? { actor } : {}),
              ...(tenant ? { tenant } : {}),
              overlapped,
              actionsBefore,
            },
            res,
            evaluated,
            violations,
            sent,
          )
          this.money.observe(op, call.params, call.json, res, overlapped, evaluated, violations)
          const q = this.sales.quoteIdOf(op, call.params)
          const settled = q !== undefined && (this.sales.quotes.get(q)?.settled ?? false)
          this.policy.observe(op, call.params, call.json, tenant, res, overlapped, settled, evaluated, violations)
          const quote = q !== undefined ? this.sales.quotes.get(q) : undefined
          const quoteLeaves =
            quote && quote.tenant === tenant && !quote.follow && quote.writesInFlight === 0 ? quote.leaves : undefined
          const request =
            op === 'sales.requests.get' ? this.sales.requests.get(call.params['requestId'] ?? '') : undefined
          const mtaPolicy = (
            request ? this.sales.quotes.get(request.quoteId) : op === 'sales.quote.issue' ? quote : undefined
          )?.mtaOf
          const policyQuote =
            op === 'sales.policy.links'
              ? this.sales.policies.get(call.params['policyId'] ?? call.params['id'] ?? '')?.quoteId
              : undefined
          this.judgeAnswer(
            {
              op,
              params: call.params,
              json: call.json,
              overlapped,
              ...(actor ? { actor } : {}),
              ...(policyQuote !== undefined ? { policyQuote } : {}),
              ...(tenant ? { tenant } : {}),
              ...(quoteLeaves ? { quoteLeaves } : {}),
              ...(request ? { requestQuote: request.quoteId, requestEnded: request.terminal !== undefined } : {}),
              ...(mtaPolicy !== undefined ? { mtaPolicy } : {}),
            },
            res,
            evaluated,
            violations,
          )
          if (sent.length > 0) return { evaluated: [...evaluated], violations, sent, ...exercised }
        }
        return { evaluated: [...evaluated], violations, ...exercised }
      },
    }
  }

  /** The exercise cells of an answered call, measured before the areas learn from it (the state it was sent in). */
  private exerciseOf(call: CallInfo, res: HttpResult): { exercised?: string[] } {
    const op = call.operationId ?? ''
    const owner =
      call.service === 'sales' && op
        ? (this.sales.ownerOf(op, call.params)?.tenant ?? this.policyTenant(op, call))
        : call.service === 'webhooks' && call.params['id'] !== undefined
          ? this.webhooks.subscriptions.get(call.params['id'])?.owner.split('/')[0]
          : undefined
    const cells = this.exercise.observe(call, res, owner)
    return cells.length > 0 ? { exercised: cells } : {}
  }

  private policyTenant(op: string, call: CallInfo): string | undefined {
    const id =
      op === 'sales.quote.mta'
        ? idOf(getPointer(call.json, '/policy/id'))
        : (call.params['policyId'] ?? call.params['id'])
    return id !== undefined ? this.policy.policies.get(id)?.tenant : undefined
  }

  /**
   * The answer oracle; a field the source table does not know is a deviation of the check that received it, once per
   * model.
   */
  private judgeAnswer(call: AnswerCall, res: HttpResult, evaluated: Set<InvariantId>, violations: Violation[]): void {
    for (const field of this.answers.observe(call, res, evaluated, violations)) {
      reportFinding({
        id: `${UNJUDGED_FIELD}:${field}`,
        message:
          `unjudged answer field: ${field} is not in the source table (helpers/oracle/answer-sources.ts), so ` +
          `no invariant judges it`,
        policy: 'warn',
      })
    }
  }

  private noteToken(call: CallInfo): void {
    const a = call.actor
    if (a.kind === 'anonymous') return
    const key =
      a.kind === 'user' ? `${a.tenant}/${a.username}` : `bearer:${a.exp ?? '?'}:${a.tenant ?? '?'}/${a.username ?? '?'}`
    const t = this.tokens.get(key) ?? {
      ...(a.tenant ? { tenant: a.tenant } : {}),
      ...(a.username ? { user: a.username } : {}),
      ...(a.kind === 'bearer' && a.exp !== undefined ? { exp: a.exp } : {}),
      calls: 0,
    }
    t.calls += 1
    this.tokens.set(key, t)
  }

  /** Scoping and expiry: a resource of another tenant, or an expired token, is never answered 2xx. */
  private judgeAccess(
    call: CallInfo,
    res: HttpResult,
    beganAt: number,
    evaluated: Set<InvariantId>,
    out: Violation[],
  ): void {
    const ok = res.status >= 200 && res.status < 300
    const a = call.actor
    if (
      a.kind === 'bearer' &&
      a.exp !== undefined &&
      a.exp * 1000 + this.leewayMs < beganAt &&
      call.service !== 'identity'
    ) {
      const id = call.service === 'webhooks' ? 'WH-INV-007' : 'SL-INV-007'
      evaluated.add(id)
      if (ok)
        out.push({
          invariant: id,
          expected: `401: the token expired at ${new Date(a.exp * 1000).toISOString()}${
            this.leewayMs ? ` (leeway ${this.leewayMs / 1000} s)` : ''
          }, ${Math.round((beganAt - a.exp * 1000) / 1000)} s before the request`,
          actual: `status ${res.status}`,
          res,
        })
    }
    if (call.service !== 'sales' || !call.operationId) return
    const owner = this.sales.ownerOf(call.operationId, call.params)
    const tenant = actorTenant(a)
    if (!owner || tenant === undefined) return
    const mismatch = tenant !== owner.tenant || (call.tenantHeader !== undefined && call.tenantHeader !== owner.tenant)
    if (!mismatch) return
    evaluated.add('SL-INV-006')
    if (ok)
      out.push({
        invariant: 'SL-INV-006',
        expected: `a refusal: ${owner.kind} ${owner.id} belongs to tenant ${owner.tenant}`,
        actual:
          `status ${res.status} to a caller of ` +
          `tenant ${tenant}${
            call.tenantHeader && call.tenantHeader !== tenant ? ` (tenant header ${call.tenantHeader})` : ''
          }`,
        res,
        ...(owner.setBy ? { setBy: owner.setBy } : {}),
      })
  }
}
