import type { TargetConfig } from '../../common/config/types'
import { getPointer } from '../client/data/json-pointer'
import type { CallInfo } from '../client/http/observer'
import type { HttpResult } from '../client/http/types'
import { salesSettings } from '../../common/config/sales-settings'
import { policiesSettings } from '../../common/config/policies-settings'
import { exerciseSettings, UNPAGED_PAGE_SIZE } from '../../common/config/exercise-settings'
import { cellId, exerciseFacts, NOTIFY_OPERATION, type CallerClass, type ExerciseProfile } from './exercise-model'
import type { Instant } from '../client/http/observer'
import type { WebhooksModel } from './webhooks-model'

const ok = (res: HttpResult) => res.status >= 200 && res.status < 300
const idOf = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The profile's facts the exercise model needs (users, refresh, the list's page size). */
export function exerciseProfile(
  config: Pick<TargetConfig, 'users' | 'auth' | 'extensions' | 'unavailableUsers'>,
): ExerciseProfile {
  const roles = Object.entries(config.users).filter(
    ([role, u]) =>
      u !== undefined && !config.unavailableUsers?.[role] && ['primary', 'restricted', 'otherTenant'].includes(role),
  )
  const settings = exerciseSettings(config)
  return {
    users: roles.map(([r]) => r),
    tenants: Object.fromEntries(roles.map(([r, u]) => [r, u!.tenant])),
    refresh: typeof config.auth.refreshPath === 'string' && config.auth.refreshPath.length > 0,
    oldTokenAfterRefresh: settings.oldTokenAfterRefresh,
    terminatedPolicyPayments: settings.terminatedPolicyPayments,
    emit: triggerOf(config) !== undefined,
    listPageSize: settings.listPage?.size ?? UNPAGED_PAGE_SIZE,
  }
}

/** The first array of an answer: the body, or a member of it (data, items, instalments, installments). */
function entriesOf(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body
  if (!isObj(body)) return undefined
  for (const k of ['data', 'items', 'instalments', 'installments', 'subscriptions']) {
    const v = body[k]
    if (Array.isArray(v)) return v
    if (isObj(v)) {
      const inner = entriesOf(v)
      if (inner) return inner
    }
  }
  return undefined
}

interface PolicyTrack {
  state: 'issued' | 'changed' | 'technically-changed' | 'terminated'
  /** The write classes (after-mta, ...) done on it, each with its sequence number. */
  writes: Map<string, number>
  /** Per view operation, the sequence number at its last read. */
  readAt: Map<string, number>
}

/**
 * Classifies every exchange the model sees into the exercise model's cells (helpers/oracle/exercise-model.ts), from the
 * call (operation, caller, body) and the state the run's own traffic left the resource in. Keeps its own small state:
 * quote and policy states, subscriptions updated or deleted, the tokens a login or a refresh answered (as
 * fingerprints).
 */
export class ExerciseTracker {
  private readonly quotes = new Map<string, string>()
  private readonly policies = new Map<string, PolicyTrack>()
  /** Subscription id -> updated / deleted, and the owner's list re-read due after such writes. */
  private readonly subscriptions = new Map<
    string,
    { state: 'live' | 'updated' | 'deleted'; owner?: string; getAt: number; writes: Map<string, number> }
  >()
  private readonly listReadAt = new Map<string, number>()
  private readonly ownerWrites = new Map<string, Map<string, number>>()
  /** Fingerprint of a login's refresh token -> fingerprint of its access token. */
  private readonly loginTokens = new Map<string, string>()
  private readonly refreshed = new Set<string>()
  private readonly replaced = new Set<string>()
  /**
   * Per caller: the intervals (ms, monotonic) of its event emissions and of its subscriptions' updates and deletes,
   * answered.
   */
  private readonly emissions = new Map<string, { from: number; to: number }[]>()
  private readonly subWrites = new Map<
    string,
    { from: number; to: number; cls: 'updated-while-emitting' | 'deleted-while-emitting' }[]
  >()
  private readonly trigger: { method: string; path: string } | undefined
  /** Invoice number -> the policy it bills (learned from the owner's reads of a policy's invoices). */
  private readonly invoicePolicy = new Map<string, string>()
  private seq = 0
  private readonly profile: ExerciseProfile
  private readonly quoteIdPointer: string
  private readonly invoicesPointer: string

  constructor(
    private readonly config: TargetConfig,
    private readonly webhooks: WebhooksModel,
    private readonly fingerprint: (token: string) => string,
  ) {
    this.profile = exerciseProfile(config)
    this.quoteIdPointer = salesSettings(config).quoteIdPointer
    this.invoicesPointer = policiesSettings(config).invoices.listPointer
    this.trigger = triggerOf(config)
  }

  /** A policy the run issued (the sales model's issue success). */
  policyIssued(policyId: string): void {
    if (!this.policies.has(policyId))
      this.policies.set(policyId, { state: 'issued', writes: new Map(), readAt: new Map() })
  }

  /** An MTA issued on the policy. */
  mtaIssued(policyId: string): void {
    this.policyWrite(policyId, 'changed', 'after-mta')
  }

  private policyWrite(policyId: string, state: PolicyTrack['state'], cls: string): void {
    this.policyIssued(policyId)
    const p = this.policies.get(policyId)!
    if (p.state !== 'terminated') p.state = state
    p.writes.set(cls, ++this.seq)
  }

  private callerOf(call: CallInfo, resourceTenant: string | undefined): CallerClass {
    const a = call.actor
    if (a.kind === 'anonymous') return 'no-token'
    if (a.kind === 'bearer') {
      if (
        a.fingerprint &&
        (this.refreshed.has(a.fingerprint) ||
          this.replaced.has(a.fingerprint) ||
          [...this.loginTokens.values()].includes(a.fingerprint))
      )
        return 'owner'
      if (a.exp === undefined) return 'malformed-token'
      return a.exp * 1000 < Date.now() ? 'expired-token' : 'malformed-token'
    }
    const u = this.config.users
    if (resourceTenant !== undefined && resourceTenant !== a.tenant) return 'other-tenant'
    if (u.restricted && a.username === u.restricted.username && a.tenant === u.restricted.tenant) return 'restricted'
    if (
      u.otherTenant &&
      a.username === u.otherTenant.username &&
      a.tenant === u.otherTenant.tenant &&
      a.tenant !== u.primary.tenant
    )
      return 'other-tenant'
    return 'owner'
  }

  /** The cells one answered call exercises, from the state before it; then learns from it. */
  observe(call: CallInfo, res: HttpResult, resourceTenant: string | undefined): string[] {
    if (call.service === 'identity') return this.identity(call, res)
    const op = call.operationId
    if (!op) return this.emission(call, res)
    const f = exerciseFacts(op)
    if (!f) return []
    const out: string[] = []
    const caller = this.callerOf(call, resourceTenant)
    out.push(cellId(op, 'caller', caller))
    if (call.actor.kind === 'bearer' && call.actor.fingerprint) {
      if (this.refreshed.has(call.actor.fingerprint))
        out.push(cellId('identity.refreshed-token', 'identity', 'refreshed-token-used'))
      if (this.replaced.has(call.actor.fingerprint))
        out.push(cellId('identity.refreshed-token', 'identity', 'old-token-after-refresh'))
    }
    const owner = caller === 'owner'
    const p = call.params
    if (f.resource === 'quote') {
      const q = p['policyId'] ?? p['id']
      const s = q !== undefined ? this.quotes.get(q) : undefined
      if (owner && s && (f.states ?? [s]).includes(s)) out.push(cellId(op, 'state', s))
      if (q !== undefined && owner && ok(res)) this.learnQuote(op, q)
    } else if (f.resource === 'policy') {
      const id =
        op === 'sales.quote.mta'
          ? idOf(getPointer(call.json, '/policy/id'))
          : op === 'sales.payments.allocate'
            ? this.allocatedPolicy(call.json)
            : (p['policyId'] ?? p['id'])
      const t = id !== undefined ? this.policies.get(id) : undefined
      if (owner && t) {
        if ((f.states ?? [t.state]).includes(t.state)) out.push(cellId(op, 'state', t.state))
        if (op === 'sales.policy.invoices' && ok(res)) this.learnInvoices(id!, res.body)
        if (f.reread) {
          const last = t.readAt.get(op) ?? 0
          for (const [cls, at] of t.writes) if (at > last && f.reread.includes(cls)) out.push(cellId(op, 'reread', cls))
          t.readAt.set(op, this.seq)
        }
        if (ok(res) && op === 'sales.policy.data-change')
          this.policyWrite(id!, 'technically-changed', 'after-technical-change')
        if (ok(res) && op === 'sales.termination.terminate') this.policyWrite(id!, 'terminated', 'after-termination')
      }
    } else if (f.resource === 'subscription') {
      const id = p['id']
      const s = id !== undefined ? this.subscriptions.get(id) : undefined
      // an update or delete by the subscription's own caller (any user): did it overlap an emission of that caller's
      // events
      if (s?.owner && op !== 'webhooks.subscription.get' && ownerKey(call) === s.owner)
        out.push(
          ...this.subscriptionWrite(
            s.owner,
            call.invokedAt,
            op === 'webhooks.subscription.delete' ? 'deleted-while-emitting' : 'updated-while-emitting',
          ),
        )
      if (owner && s) {
        out.push(cellId(op, 'state', s.state))
        if (f.reread) for (const [cls, at] of s.writes) if (at > s.getAt) out.push(cellId(op, 'reread', cls))
        if (op === 'webhooks.subscription.get') s.getAt = this.seq
        if (ok(res) && op !== 'webhooks.subscription.get') {
          const cls = op === 'webhooks.subscription.delete' ? 'after-delete' : 'after-update'
          s.state = op === 'webhooks.subscription.delete' ? 'deleted' : s.state === 'deleted' ? 'deleted' : 'updated'
          s.writes.set(cls, ++this.seq)
          if (s.owner) {
            const w = this.ownerWrites.get(s.owner) ?? new Map<string, number>()
            w.set(cls, this.seq)
            this.ownerWrites.set(s.owner, w)
          }
        }
      }
    }
    if (op === 'sales.quote.create' || op === 'sales.quote.mta') {
      const q = ok(res) ? idOf(getPointer(res.body, this.quoteIdPointer)) : undefined
      if (q !== undefined) this.quotes.set(q, 'draft')
    }
    const key = ownerKey(call)
    if (op === 'webhooks.subscription.create' && ok(res) && isObj(res.body)) {
      const id = idOf(res.body['id'])
      if (id !== undefined)
        this.subscriptions.set(id, { state: 'live', ...(key ? { owner: key } : {}), getAt: 0, writes: new Map() })
    }
    if (op === 'webhooks.subscriptions.list' && owner && key) {
      const last = this.listReadAt.get(key) ?? 0
      for (const [cls, at] of this.ownerWrites.get(key) ?? []) if (at > last) out.push(cellId(op, 'reread', cls))
      this.listReadAt.set(key, this.seq)
    }
    // a list is the caller's own (its subscriptions): counted for any user; a schedule for the owner of the quote or
    // policy
    if (f.list && ok(res) && (owner || (f.list === 'subscriptions' && key !== undefined))) {
      const n = entriesOf(res.body)?.length
      if (f.list === 'subscriptions') {
        const live = key
          ? [...this.webhooks.subscriptions.values()].filter((s) => s.owner === key && !s.deleted).length
          : 0
        const cls =
          live > this.profile.listPageSize
            ? 'over-page'
            : n === 0
              ? '0'
              : n === 1
                ? '1'
                : n !== undefined
                  ? 'several'
                  : undefined
        if (cls) out.push(cellId(op, 'multiplicity', cls))
      } else if (n === 1 || n === 12) out.push(cellId(op, 'multiplicity', String(n)))
    }
    return out
  }

  /**
   * An event the caller made the target emit (the profile's trigger, answered 2xx): over several live subscriptions of
   * that event type, several at one url, or overlapping an update or a delete of one of its subscriptions.
   */
  private emission(call: CallInfo, res: HttpResult): string[] {
    const key = ownerKey(call)
    if (
      !this.trigger ||
      !key ||
      call.service !== 'webhooks' ||
      call.method.toUpperCase() !== this.trigger.method ||
      !ok(res)
    )
      return []
    if (!(call.path ?? '').endsWith(this.trigger.path)) return []
    const out: string[] = []
    const events = new Set(stringLeaves(call.json))
    const live = [...this.webhooks.subscriptions.values()].filter((s) => s.owner === key && !s.deleted)
    if (live.filter((s) => typeof s.event === 'string' && events.has(s.event)).length >= 2)
      out.push(cellId(NOTIFY_OPERATION, 'fanout', 'several-per-event'))
    const urls = live.map((s) => s.url).filter((u): u is string => typeof u === 'string')
    if (new Set(urls).size < urls.length) out.push(cellId(NOTIFY_OPERATION, 'fanout', 'several-per-url'))
    const span = { from: call.invokedAt?.mono ?? performance.now(), to: performance.now() }
    this.emissions.set(key, [...(this.emissions.get(key) ?? []), span])
    for (const w of this.subWrites.get(key) ?? [])
      if (w.from < span.to && span.from < w.to) out.push(cellId(NOTIFY_OPERATION, 'fanout', w.cls))
    return [...new Set(out)]
  }

  /** An update or delete of a subscription of `owner` answered: the emissions of that caller it overlapped. */
  private subscriptionWrite(
    owner: string,
    invokedAt: Instant | undefined,
    cls: 'updated-while-emitting' | 'deleted-while-emitting',
  ): string[] {
    const span = { from: invokedAt?.mono ?? performance.now(), to: performance.now(), cls }
    this.subWrites.set(owner, [...(this.subWrites.get(owner) ?? []), span])
    return (this.emissions.get(owner) ?? []).some((e) => e.from < span.to && span.from < e.to)
      ? [cellId(NOTIFY_OPERATION, 'fanout', cls)]
      : []
  }

  /** The invoice numbers of a policy's invoices answer, each billing that policy. */
  private learnInvoices(policyId: string, body: unknown): void {
    const list = getPointer(body, this.invoicesPointer)
    if (!Array.isArray(list)) return
    for (const i of list) {
      const n = isObj(i) ? idOf(i['invoicenumber']) : undefined
      if (n !== undefined) this.invoicePolicy.set(n, policyId)
    }
  }

  /** The policy an allocation's first known invoice bills (an allocation names invoices, not the policy). */
  private allocatedPolicy(json: unknown): string | undefined {
    const found: string[] = []
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk)
      else if (isObj(v))
        for (const [k, x] of Object.entries(v))
          k === 'invoicenumber' && idOf(x) !== undefined ? found.push(idOf(x)!) : walk(x)
    }
    walk(json)
    return found.map((n) => this.invoicePolicy.get(n)).find((p) => p !== undefined)
  }

  private learnQuote(op: string, q: string): void {
    const next: Record<string, string> = {
      'sales.quote.update': 'draft',
      'sales.quote.calculate': 'calculated',
      'sales.quote.referral': 'referred',
      'sales.quote.bind': 'bound',
      'sales.quote.decline': 'declined',
      'sales.quote.issue': 'issued',
    }
    const s = next[op]
    if (s && this.quotes.has(q)) this.quotes.set(q, s)
  }

  /** Login at a tenant path with a user's credentials; refresh; the tokens they answered. */
  private identity(call: CallInfo, res: HttpResult): string[] {
    const path = call.path ?? ''
    const login = matchTemplate(this.config.auth.loginPath, path)
    const refresh = matchTemplate(this.config.auth.refreshPath, path)
    const json = isObj(call.json) ? call.json : {}
    if (login !== undefined) {
      const role = Object.entries(this.config.users).find(
        ([, u]) => u?.username === json['username'] && u.password === json['password'],
      )?.[0]
      const access = this.tokenAt(res.body, false)
      const refreshToken = this.tokenAt(res.body, true)
      if (ok(res) && access && refreshToken)
        this.loginTokens.set(this.fingerprint(refreshToken), this.fingerprint(access))
      if (!role || !this.profile.tenants[role]) return []
      return [cellId('identity.login', 'identity', `${role}@${login === this.profile.tenants[role] ? 'own' : login}`)]
    }
    if (refresh !== undefined && ok(res)) {
      const access = this.tokenAt(res.body, false)
      if (access) this.refreshed.add(this.fingerprint(access))
      const old =
        typeof json['refresh_token'] === 'string'
          ? this.loginTokens.get(this.fingerprint(json['refresh_token']))
          : undefined
      if (old) this.replaced.add(old)
      return [cellId('identity.refresh', 'identity', 'refresh')]
    }
    return []
  }

  private tokenAt(body: unknown, refresh: boolean): string | undefined {
    for (const p of this.config.auth.tokenPointers) {
      const v = getPointer(body, refresh ? p.replace(/access_token$/, 'refresh_token') : p)
      if (typeof v === 'string') return v
    }
    return undefined
  }
}

/** The profile's way to make the target emit an event (extensions.webhooks.delivery.trigger): method and path. */
function triggerOf(config: Pick<TargetConfig, 'extensions'>): { method: string; path: string } | undefined {
  const t = (
    config.extensions['webhooks'] as { delivery?: { trigger?: { method?: unknown; path?: unknown } } } | undefined
  )?.delivery?.trigger
  return t && typeof t.path === 'string'
    ? { method: typeof t.method === 'string' ? t.method.toUpperCase() : 'POST', path: t.path }
    : undefined
}

/** Every string of a JSON value (the event type a trigger's body names, wherever its template puts it). */
function stringLeaves(v: unknown): string[] {
  if (typeof v === 'string') return [v]
  if (Array.isArray(v)) return v.flatMap(stringLeaves)
  if (isObj(v)) return Object.values(v).flatMap(stringLeaves)
  return []
}

function ownerKey(call: CallInfo): string | undefined {
  const a = call.actor
  if (a.kind === 'user') return `${a.tenant}/${a.username}`
  return undefined
}

/**
 * The {tenant} of a path that matches a template such as /login/{tenant} (the path may carry the auth URL's own
 * prefix).
 */
function matchTemplate(template: string, path: string): string | undefined {
  const source = template
    .split('/')
    .map((s) => (s === '{tenant}' ? '([^/]+)' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/')
  const m = new RegExp(`${source}$`).exec(path)
  return m ? decodeURIComponent(m[1] ?? '') : undefined
}
