import type { TargetConfig } from '../client/config/types'
import { getPointer } from '../client/data/json-pointer'
import type { HttpResult } from '../client/http/types'
import { policiesSettings } from '../client/config/policies-settings'
import { salesSettings } from '../client/config/sales-settings'
import { Flights } from './flights'
import type { InvariantId } from './invariants'
import { MONEY_WRITES, MoneyModel } from './money-model'
import { PolicyModel } from './policy-model'
import { QUOTE_WRITES, SalesModel } from './sales-model'
import { actorKey, actorTenant, type CallHandle, type CallInfo, type ExchangeObserver } from '../client/http/observer'
import type { Verdict, Violation } from './invariants'
import { WebhooksModel } from './webhooks-model'
import { violationList } from './judged-at'
import type { RealWorldClass } from './real-world'
import { RunHistory } from './run-history'

const POLICY_WRITES = new Set(['sales.policy.data-change', 'sales.quote.mta'])
const idOf = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)
const WEBHOOK_WRITES = new Set(['webhooks.subscription.create', 'webhooks.subscription.update', 'webhooks.subscription.delete'])

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
  private readonly flights = new Flights()
  /** Every call's operation per resource, with its caller and interval, judged for linearizability (SL-INV-050, 051, WH-INV-050). */
  readonly history: RunHistory
  private readonly leewayMs: number

  constructor(config: TargetConfig, options: ServiceModelOptions = {}) {
    this.money = new MoneyModel(policiesSettings(config))
    this.policy = new PolicyModel(policiesSettings(config))
    this.sales = new SalesModel(salesSettings(config), config.statuses, {
      policyIssued: (p, from, res) => {
        this.money.policyIssued(p.id, p.tenant)
        this.policy.issued(p.id, p.tenant, from, res)
      },
      mtaIssued: (policyId, done, quoteId, success) => {
        this.money.mtaIssued(policyId, done)
        if (success) this.policy.mtaIssued(policyId, quoteId)
      },
    })
    this.history = new RunHistory(salesSettings(config), config.statuses)
    const configured = (config.auth as { expiryLeewaySeconds?: unknown }).expiryLeewaySeconds
    this.leewayMs = 1000 * (options.expiryLeewaySeconds ?? (typeof configured === 'number' ? configured : 0))
  }

  /** The resource keys a call touches, and whether it writes them. */
  private keysOf(call: CallInfo): { keys: string[]; write: boolean } {
    const op = call.operationId ?? ''
    const p = call.params
    if (op.startsWith('webhooks.')) {
      const owner = actorKey(call.actor) ?? 'anonymous'
      return { keys: [`subs:${owner}`, ...(p['id'] !== undefined ? [`sub:${p['id']}`] : [])], write: WEBHOOK_WRITES.has(op) }
    }
    const keys: string[] = []
    const q = this.sales.quoteIdOf(op, p)
    if (q !== undefined) keys.push(`quote:${q}`)
    if (op === 'sales.requests.get') keys.push(`request:${p['requestId']}`)
    if (op === 'sales.documents.download') keys.push(`document:${p['id']}`)
    const money = MONEY_WRITES.has(op) || op === 'sales.policy.period-totals' || op === 'sales.policy.links'
    if (money) keys.push('money')
    // a policy's views and the operations that change it (PolicyModel): technical change, termination, a new MTA quote
    const policyId = op === 'sales.quote.mta' ? idOf(getPointer(call.json, '/policy/id')) : op.startsWith('sales.policy.') || op.startsWith('sales.termination.') || op === 'sales.customers.custom-view' ? (p['policyId'] ?? p['id']) : undefined
    if (policyId !== undefined) keys.push(`policy:${policyId}`)
    if (op === 'sales.documents.generate' || op === 'sales.policy.links') keys.push('documents')
    return { keys, write: QUOTE_WRITES.has(op) || MONEY_WRITES.has(op) || POLICY_WRITES.has(op) }
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
    const op = call.operationId ?? ''
    const actionsBefore = op.startsWith('sales.') ? this.sales.begin(op, call.params) : undefined
    this.noteToken(call)
    return {
      end: (res: HttpResult | undefined): Verdict => {
        const overlapped = this.flights.end(keys, flight, write)
        const evaluated = new Set<InvariantId>()
        const violations = violationList()
        if (!res) {
          // no answer: a write may or may not have happened
          if (op.startsWith('sales.')) this.sales.lost({ op, params: call.params, overlapped })
          if (write) {
            this.money.forget()
            this.policy.forget()
          }
          return { evaluated: [], violations }
        }
        this.judgeAccess(call, res, beganAt, evaluated, violations)
        if (op.startsWith('webhooks.')) {
          const owner = actorKey(call.actor)
          this.webhooks.observe({ op, ...(call.params['id'] !== undefined ? { id: call.params['id'] } : {}), ...(owner ? { owner } : {}), json: call.json, beganAt, overlapped }, res, evaluated, violations)
        } else if (op.startsWith('sales.')) {
          const actor = actorKey(call.actor)
          const tenant = call.tenantHeader ?? actorTenant(call.actor)
          const sent: RealWorldClass[] = []
          this.sales.observe({ op, params: call.params, json: call.json, ...(actor ? { actor } : {}), ...(tenant ? { tenant } : {}), overlapped, actionsBefore }, res, evaluated, violations, sent)
          this.money.observe(op, call.params, call.json, res, overlapped, evaluated, violations)
          const q = this.sales.quoteIdOf(op, call.params)
          const settled = q !== undefined && (this.sales.quotes.get(q)?.settled ?? false)
          this.policy.observe(op, call.params, call.json, tenant, res, overlapped, settled, evaluated, violations)
          if (sent.length > 0) return { evaluated: [...evaluated], violations, sent }
        }
        return { evaluated: [...evaluated], violations }
      },
    }
  }

  private noteToken(call: CallInfo): void {
    const a = call.actor
    if (a.kind === 'anonymous') return
    const key = a.kind === 'user' ? `${a.tenant}/${a.username}` : `bearer:${a.exp ?? '?'}:${a.tenant ?? '?'}/${a.username ?? '?'}`
    const t = this.tokens.get(key) ?? { ...(a.tenant ? { tenant: a.tenant } : {}), ...(a.username ? { user: a.username } : {}), ...(a.kind === 'bearer' && a.exp !== undefined ? { exp: a.exp } : {}), calls: 0 }
    t.calls += 1
    this.tokens.set(key, t)
  }

  /** Scoping and expiry: a resource of another tenant, or an expired token, is never answered 2xx. */
  private judgeAccess(call: CallInfo, res: HttpResult, beganAt: number, evaluated: Set<InvariantId>, out: Violation[]): void {
    const ok = res.status >= 200 && res.status < 300
    const a = call.actor
    if (a.kind === 'bearer' && a.exp !== undefined && a.exp * 1000 + this.leewayMs < beganAt && call.service !== 'identity') {
      const id = call.service === 'webhooks' ? 'WH-INV-007' : 'SL-INV-007'
      evaluated.add(id)
      if (ok) out.push({ invariant: id, expected: `401: the token expired at ${new Date(a.exp * 1000).toISOString()}${this.leewayMs ? ` (leeway ${this.leewayMs / 1000} s)` : ''}, ${Math.round((beganAt - a.exp * 1000) / 1000)} s before the request`, actual: `status ${res.status}`, res })
    }
    if (call.service !== 'sales' || !call.operationId) return
    const owner = this.sales.ownerOf(call.operationId, call.params)
    const tenant = actorTenant(a)
    if (!owner || tenant === undefined) return
    const mismatch = tenant !== owner.tenant || (call.tenantHeader !== undefined && call.tenantHeader !== owner.tenant)
    if (!mismatch) return
    evaluated.add('SL-INV-006')
    if (ok) out.push({ invariant: 'SL-INV-006', expected: `a refusal: ${owner.kind} ${owner.id} belongs to tenant ${owner.tenant}`, actual: `status ${res.status} to a caller of tenant ${tenant}${call.tenantHeader && call.tenantHeader !== tenant ? ` (tenant header ${call.tenantHeader})` : ''}`, res, ...(owner.setBy ? { setBy: owner.setBy } : {}) })
  }
}
