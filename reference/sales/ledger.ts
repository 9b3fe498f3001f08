import type { FastifyInstance } from 'fastify'
import type { ReferenceContext } from '../context'
import type {
  Financials,
  Installment,
  PolicyRecord,
  QuoteRecord,
  RequestRecord,
  DocumentRecord,
  QuoteKind,
  QuoteState,
} from './records'
import { isProduct, SchemeRegistry, validateQuoteData, type ValidationErrors } from './schemes'

export type * from './records'

declare module 'fastify' {
  interface FastifyInstance {
    /** The sales ledger of this reference instance (quotes, policies, requests, documents). Use ledgerOf(). */
    ledger: Ledger
  }
}

/** The outcome of issuing a quote: a policy was created or changed, or the quote cannot be issued. */
export type IssueResult =
  | { ok: true; policy: PolicyRecord; data?: Record<string, unknown> }
  | { ok: false; message: string; data?: Record<string, unknown> }

/** Issues one kind of quote. Runs when the issue request stops being pending. */
export type IssueHandler = (quote: QuoteRecord, ledger: Ledger) => IssueResult

/** A policy was created (issue of a new quote) or changed (MTA, technical change, renewal, termination, ...). */
export interface PolicyEvent {
  type: 'created' | 'changed'
  policy: PolicyRecord
  /** The quote that caused it, when there is one. */
  quote?: QuoteRecord
  /** What changed it: 'issue', 'mta', 'data-change', 'terminate', ... */
  cause: string
}
export type PolicyListener = (event: PolicyEvent) => void

export interface NewQuoteInput {
  tenant: string
  owner: string
  product: string
  kind?: QuoteKind
  /** The policy an MTA quote changes. */
  policyId?: string
  /** Product data without the `schema` block: {policy, customer, objects, ...}. */
  data: Record<string, unknown>
}

/**
 * The in-memory store of the sales area of one reference instance. Other areas get it with
 * `ledgerOf(app, ctx)`; the same instance is `app.ledger`.
 */
export class Ledger {
  readonly quotes = new Map<string, QuoteRecord>()
  readonly policies = new Map<string, PolicyRecord>()
  readonly requests = new Map<string, RequestRecord>()
  readonly documents = new Map<string, DocumentRecord>()
  /** Each quote's data as created (the sales-issue-uses-created-data defect issues it). */
  readonly createdData = new Map<string, Record<string, unknown>>()
  /** Issue handlers per quote kind. 'new' is registered by the sales area; others (e.g. 'mta') by their areas. */
  readonly issueHandlers = new Map<QuoteKind, IssueHandler>()
  /** Called after a policy is created or changed (e.g. to create invoices from installments). */
  readonly policyListeners: PolicyListener[] = []
  /** The product schemas (compiled per rights set). */
  readonly schemes = new SchemeRegistry()
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly sleepers = new Set<() => void>()
  private closed = false

  constructor(readonly ctx: ReferenceContext) {
    ctx.onClose.push(() => this.close())
  }

  /** True once the service is closing (long polls answer at once). */
  get isClosed(): boolean {
    return this.closed
  }

  id(): string {
    return this.ctx.ids.id()
  }

  /** Creates a quote in state draft and locks it for lockMs (the data changed). Data is not validated here. */
  createQuote(input: NewQuoteInput): QuoteRecord {
    const now = Date.now()
    const quote: QuoteRecord = {
      id: this.id(),
      tenant: input.tenant,
      owner: input.owner,
      product: input.product,
      kind: input.kind ?? 'new',
      ...(input.policyId !== undefined ? { policyId: input.policyId } : {}),
      state: 'draft',
      data: structuredClone(input.data),
      version: 1,
      createdAt: new Date(now).toISOString(),
      updatedAt: new Date(now).toISOString(),
      lockedUntil: 0,
      documents: [],
      history: [],
    }
    this.quotes.set(quote.id, quote)
    if (this.ctx.defects.has('sales-issue-uses-created-data'))
      this.createdData.set(quote.id, structuredClone(input.data))
    this.lock(quote, this.ctx.options.lockMs, 'create')
    return quote
  }

  /**
   * Validates product data ({policy, customer, objects}, no schema block) against the product schema with full
   * rights, plus the date rule (expiry after inception). Returns `{ 'policy.dateExpiry': [msg] }` or null.
   */
  validateQuoteData(product: string, data: Record<string, unknown>): ValidationErrors | null {
    if (!isProduct(product)) return { 'schema.name': [`The product ${product} does not exist.`] }
    return validateQuoteData(this.schemes, product, data)
  }

  /** The quote with this id in this tenant, or undefined (another tenant's quote is not found). */
  quote(tenant: string, id: string): QuoteRecord | undefined {
    const q = this.quotes.get(id)
    return q && q.tenant === tenant ? q : undefined
  }

  policy(tenant: string, id: string): PolicyRecord | undefined {
    const p = this.policies.get(id)
    return p && p.tenant === tenant ? p : undefined
  }

  request(tenant: string, id: string): RequestRecord | undefined {
    const r = this.requests.get(id)
    return r && r.tenant === tenant ? r : undefined
  }

  document(tenant: string, id: string): DocumentRecord | undefined {
    const d = this.documents.get(id)
    return d && d.tenant === tenant ? d : undefined
  }

  /** Moves a quote to a state and records it in its history. */
  setState(quote: QuoteRecord, state: QuoteState, note?: string): void {
    quote.history.push({
      at: new Date().toISOString(),
      from: quote.state,
      to: state,
      ...(note !== undefined ? { note } : {}),
    })
    quote.state = state
    quote.updatedAt = new Date().toISOString()
  }

  /** Locks the quote for ms (background work running): actions answer 204/423 meanwhile. */
  lock(quote: QuoteRecord, ms: number, reason: string): void {
    quote.lockedUntil = Math.max(quote.lockedUntil, Date.now() + ms)
    quote.lockReason = reason
  }

  isLocked(quote: QuoteRecord): boolean {
    return quote.lockedUntil > Date.now()
  }

  /** Resolves when the quote is unlocked or after maxMs, whichever comes first; true when unlocked. */
  async waitUnlocked(quote: QuoteRecord, maxMs: number): Promise<boolean> {
    const deadline = Date.now() + maxMs
    while (this.isLocked(quote) && !this.closed) {
      const left = Math.min(quote.lockedUntil, deadline) - Date.now()
      if (left <= 0) break
      await this.sleep(Math.min(left, 50))
    }
    return !this.isLocked(quote)
  }

  /** Adds a policy and tells the listeners it was created. */
  addPolicy(policy: PolicyRecord, quote?: QuoteRecord): void {
    this.policies.set(policy.id, policy)
    this.emit({ type: 'created', policy, cause: 'issue', ...(quote ? { quote } : {}) })
  }

  /** Tells the listeners a policy changed (call it after changing a policy record). */
  policyChanged(policy: PolicyRecord, cause: string, quote?: QuoteRecord): void {
    policy.version += 1
    this.emit({ type: 'changed', policy, cause, ...(quote ? { quote } : {}) })
  }

  private emit(event: PolicyEvent): void {
    for (const listener of this.policyListeners) listener(event)
  }

  addDocument(doc: Omit<DocumentRecord, 'id' | 'createdAt'>): DocumentRecord {
    const record: DocumentRecord = { ...doc, id: this.id(), createdAt: new Date().toISOString() }
    this.documents.set(record.id, record)
    return record
  }

  /** Runs fn after ms unless the service closes first. */
  schedule(ms: number, fn: () => void): void {
    if (this.closed) return
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      fn()
    }, ms)
    timer.unref()
    this.timers.add(timer)
  }

  /** Sleeps ms; resolves early when the service closes. */
  sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve()
    return new Promise((resolve) => {
      const wake = (): void => {
        this.sleepers.delete(wake)
        resolve()
      }
      this.sleepers.add(wake)
      this.schedule(ms, wake)
    })
  }

  close(): void {
    this.closed = true
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
    for (const wake of [...this.sleepers]) wake()
  }
}

/** The ledger of this app, created on first use (whichever area asks first). */
export function ledgerOf(app: FastifyInstance, ctx: ReferenceContext): Ledger {
  if (!app.hasDecorator('ledger')) app.decorate('ledger', new Ledger(ctx))
  return app.ledger
}

export type { Financials, Installment }
