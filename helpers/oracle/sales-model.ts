import { createHash } from 'node:crypto'
import type { StatusSpellings } from '../../common/config/types'
import { getPointer } from '../client/data/json-pointer'
import type { HttpResult } from '../client/http/types'
import { documentIdOf } from './documents'
import type { SalesActionNames, SalesSettings } from '../../common/config/sales-settings'
import type { InvariantId } from './invariants'
import { firstShown } from './reported'
import { applyPatch, leavesOf, type Leaves } from './leaves'
import { typeProblems } from './schema-types'
import { classesOf, realWorldLeaves, schemaAt, type RealWorldClass } from './real-world'
import type { Violation } from './invariants'
import { factsOf, type OperationId } from '../../common/operations'
import type { QuoteAction } from '../../common/operation-facts'

type Json = Record<string, unknown>
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)
const idOf = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)
const show = (v: unknown) => JSON.stringify(v)
const ok = (res: HttpResult) => res.status >= 200 && res.status < 300
/** Whether a text names a token (an id) as a whole word: not inside a longer run of letters, digits or dashes. */
export function namesToken(text: string, token: string): boolean {
  const esc = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(^|[^\\p{L}\\p{N}-])${esc}($|[^\\p{L}\\p{N}-])`, 'u').test(text)
}
const same = (a: unknown, b: unknown) =>
  a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b))

export type QuoteOperation = keyof SalesActionNames
// the catalogue's quote actions (common/operation-facts.ts) are the profile's action names, both ways
const sameActions: [QuoteAction, QuoteOperation] extends [QuoteOperation, QuoteAction] ? true : never = true
void sameActions

/** One quote as the run knows it. */
export interface QuoteState {
  id: string
  tenant: string
  product?: string
  /**
   * The leaves last written (create and updates); undefined when they can no longer be known (overlapping writes, MTA
   * quotes).
   */
  leaves?: Leaves
  leavesSetBy?: HttpResult
  /** The actions list read after the last write, by whom; undefined while a write may have changed it. */
  actions?: { list: string[]; actor: string; setBy: HttpResult }
  /** An actions list (200) was read after the last write ended: the write is done (sales §3 rule 4). */
  settled: boolean
  writesInFlight: number
  declined?: HttpResult
  bound?: HttpResult
  issued?: HttpResult
  /** The policy an MTA quote changes. */
  mtaOf?: string
  /** A write of another tenant's caller succeeded: the next clean read says what the quote holds (not judged). */
  follow?: boolean
  /**
   * The forbidden actions the last actions list offered (SL-INV-005): the same again is the breach already reported.
   */
  reportedOffers?: Set<string>
  /**
   * The first actions list (200) answered to a caller after the last change (SL-INV-010: it holds until the next
   * change);
   * dropped by a write of the quote that was not refused (a 4xx changes nothing) and by operations after which a list
   * may change without one (see LIST_MOVES).
   */
  finalList?: { list: string[]; actor: string; setBy: HttpResult }
  reportedFinal?: Set<string>
  /** Wrong values already reported since the last write (SL-INV-002): shown again, they are not a new breach. */
  reported?: Set<string>
}

export interface RequestState {
  id: string
  quoteId: string
  tenant: string
  terminal?: { status: string; policyId: unknown; setBy: HttpResult }
  /** Other statuses already reported after the terminal one (SL-INV-001). */
  reported?: Set<string>
}

export interface DocumentState {
  id: string
  quoteId: string
  tenant: string
  hash?: string
  setBy: HttpResult
  /** Other bytes already reported (SL-INV-008). */
  reported?: Set<string>
}

export interface PolicyRef {
  id: string
  tenant: string
  quoteId: string
}

/** A sales call as the model sees it when it begins. */
export interface SalesCall {
  op: OperationId
  params: Record<string, string>
  json?: unknown
  actor?: string
  tenant?: string
  overlapped: boolean
  /** The quote's actions list when the call began (for writes). */
  actionsBefore?: QuoteState['actions']
}

/**
 * Which quote action of the actions list an operation is (common/operation-facts.ts), when it is a write of a quote.
 */
export const quoteActionOf = (op: OperationId): QuoteOperation | null => factsOf(op).quoteAction

/** A write of an existing quote: one of the actions of its actions list. */
export const isQuoteWrite = (op: OperationId): boolean => factsOf(op).quoteAction !== null

/**
 * Operations on a policy after which the actions lists of its quotes (the issuing one and its MTA quotes) may change
 * with no write of those quotes (SL-INV-010 starts afresh for them): those whose facts say they change the
 * `policy-actions` view. A request status read does the same for the request's quote (an issue progressing).
 */
const movesPolicyLists = (op: OperationId): boolean => factsOf(op).changes.includes('policy-actions')

/** Quotes, asynchronous requests, documents and the policies they became (sales-service.md §3, §4). */
export class SalesModel {
  readonly quotes = new Map<string, QuoteState>()
  readonly requests = new Map<string, RequestState>()
  readonly documents = new Map<string, DocumentState>()
  readonly policies = new Map<string, PolicyRef>()
  readonly schemas = new Map<string, unknown>()

  constructor(
    private readonly settings: SalesSettings,
    private readonly statuses: StatusSpellings,
    /** Called when a policy id becomes known, or an MTA's request ends (money follows). */
    private readonly hooks: {
      policyIssued(
        p: PolicyRef,
        from: { quoteId: string; leaves?: Leaves; leavesSetBy?: HttpResult; schema?: unknown },
        res: HttpResult,
      ): void
      /** done: the request ended (success: it succeeded). */
      mtaIssued(policyId: string, done: boolean, quoteId: string, success: boolean): void
    },
  ) {}

  quoteIdOf(op: OperationId, params: Record<string, string>): string | undefined {
    return factsOf(op).resource === 'quote' ? (params['policyId'] ?? params['id']) : undefined
  }

  /** The tenant that owns the resource a call addresses, when the model knows it. */
  ownerOf(
    op: OperationId,
    params: Record<string, string>,
  ): { kind: string; id: string; tenant: string; setBy?: HttpResult } | undefined {
    const q = this.quoteIdOf(op, params)
    if (q !== undefined) {
      const s = this.quotes.get(q)
      return s
        ? { kind: 'quote', id: q, tenant: s.tenant, ...(s.leavesSetBy ? { setBy: s.leavesSetBy } : {}) }
        : undefined
    }
    if (op === 'sales.requests.get') {
      const r = this.requests.get(params['requestId'] ?? '')
      return r ? { kind: 'request', id: r.id, tenant: r.tenant } : undefined
    }
    if (op === 'sales.documents.download') {
      const d = this.documents.get(params['id'] ?? '')
      return d ? { kind: 'document', id: d.id, tenant: d.tenant, setBy: d.setBy } : undefined
    }
    const p = params['policyId'] ?? params['id']
    if (p !== undefined && factsOf(op).resource === 'policy') {
      const ref = this.policies.get(p)
      return ref ? { kind: 'policy', id: ref.id, tenant: ref.tenant } : undefined
    }
    return undefined
  }

  /** Before a call: a write on a quote makes its actions list stale and its data unsettled. */
  begin(op: OperationId, params: Record<string, string>): QuoteState['actions'] {
    const q = this.quoteIdOf(op, params)
    const s = q !== undefined ? this.quotes.get(q) : undefined
    if (!s || !isQuoteWrite(op)) return undefined
    const before = s.actions
    delete s.actions
    s.settled = false
    s.writesInFlight += 1
    return before
  }

  /** A call that never got an answer (transport error): what it did is unknown. */
  lost(call: SalesCall): void {
    const q = this.quoteIdOf(call.op, call.params)
    const s = q !== undefined ? this.quotes.get(q) : undefined
    if (s && isQuoteWrite(call.op)) {
      s.writesInFlight -= 1
      delete s.leaves
      delete s.finalList
    }
  }

  /**
   * @param sent receives the real-world classes (helpers/oracle/real-world.ts) of the quote data a successful create or
   *   update wrote, one entry per leaf and class: the run's tally of what it sent.
   */
  observe(
    call: SalesCall,
    res: HttpResult,
    evaluated: Set<InvariantId>,
    out: Violation[],
    sent: RealWorldClass[] = [],
  ): void {
    const q = this.quoteIdOf(call.op, call.params)
    const quote = q !== undefined ? this.quotes.get(q) : undefined
    if (call.op === 'sales.requests.get')
      delete this.quotes.get(this.requests.get(call.params['requestId'] ?? '')?.quoteId ?? '')?.finalList
    if (movesPolicyLists(call.op)) {
      const policyId =
        call.op === 'sales.quote.mta'
          ? idOf(getPointer(call.json, '/policy/id'))
          : (call.params['policyId'] ?? call.params['id'])
      const issuing = this.policies.get(policyId ?? '')?.quoteId
      for (const s of this.quotes.values())
        if (s.id === issuing || (s.mtaOf !== undefined && s.mtaOf === policyId)) delete s.finalList
    }
    // a change starts a new list; a refused write (4xx) changes nothing (SL-INV-002), so the list answered before holds
    if (quote && isQuoteWrite(call.op) && !(res.status >= 400 && res.status < 500)) delete quote.finalList
    if ((call.op === 'sales.quote.create' || call.op === 'sales.quote.update') && ok(res) && isObj(call.json)) {
      const name =
        call.op === 'sales.quote.create'
          ? isObj(call.json['schema'])
            ? call.json['schema']['name']
            : undefined
          : quote?.product
      const productSchema = typeof name === 'string' ? this.schemas.get(name) : undefined
      for (const classes of realWorldLeaves(call.json, productSchema).values()) sent.push(...classes)
    }
    if (quote && isQuoteWrite(call.op)) quote.writesInFlight -= 1
    switch (call.op) {
      case 'sales.schemes.get':
        if (
          res.status === 200 &&
          isObj(res.body) &&
          call.params['name'] !== undefined &&
          !this.schemas.has(call.params['name'])
        )
          this.schemas.set(call.params['name'], res.body)
        return
      case 'sales.quote.create':
      case 'sales.quote.mta':
        return this.created(call, res)
      case 'sales.quote.get':
        if (quote && res.status === 200 && call.tenant === quote.tenant)
          this.judgeRead(quote, call, res, evaluated, out)
        return
      case 'sales.quote.actions':
        if (quote && res.status === 200 && call.actor !== undefined && call.tenant === quote.tenant)
          this.judgeActions(quote, call, res, evaluated, out)
        return
      case 'sales.documents.download':
        return this.judgeDocument(call, res, evaluated, out)
      case 'sales.requests.get':
        return this.judgeRequest(call, res, evaluated, out)
    }
    const op = quoteActionOf(call.op)
    // another tenant's write that succeeded (SL-INV-006 reports it): it happened, so the model follows the target
    if (quote && op && call.tenant !== quote.tenant && ok(res)) quote.follow = true
    if (!quote || !op || call.tenant !== quote.tenant) return
    this.judgeOffered(quote, op, call, res, evaluated, out)
    if (!ok(res)) return
    if (op === 'update') {
      const { schema: _s, ...patch } = isObj(call.json) ? call.json : {}
      if (quote.leaves && !call.overlapped) {
        quote.leaves = applyPatch(quote.leaves, patch)
        quote.leavesSetBy = res
      } else delete quote.leaves
      delete quote.reported
    }
    if (op === 'documents') {
      const id = documentIdOf(res, this.settings.documentIdFrom)
      if (id !== undefined) this.documents.set(id, { id, quoteId: quote.id, tenant: quote.tenant, setBy: res })
      this.judgeContent(quote.id, id, res, evaluated, out)
    }
    if (op === 'decline') quote.declined = res
    if (op === 'bind') quote.bound = res
    if (op === 'issue') {
      const id = idOf(getPointer(res.body, this.settings.requestIdPointer))
      if (id !== undefined) this.requests.set(id, { id, quoteId: quote.id, tenant: quote.tenant })
      if (quote.mtaOf !== undefined) this.hooks.mtaIssued(quote.mtaOf, false, quote.id, false)
    }
  }

  private created(call: SalesCall, res: HttpResult): void {
    if (!ok(res) || call.tenant === undefined) return
    const id = idOf(getPointer(res.body, this.settings.quoteIdPointer))
    if (id === undefined) return
    const json = isObj(call.json) ? call.json : {}
    const schema = isObj(json['schema']) ? json['schema'] : {}
    const mtaOf = call.op === 'sales.quote.mta' ? idOf(getPointer(json, '/policy/id')) : undefined
    this.quotes.set(id, {
      id,
      tenant: call.tenant,
      ...(typeof schema['name'] === 'string' ? { product: schema['name'] } : {}),
      // an MTA quote's data is the policy's with the changes: what it holds is the target's business
      ...(call.op === 'sales.quote.create' ? { leaves: leavesOf(json), leavesSetBy: res } : {}),
      settled: false,
      writesInFlight: 0,
      ...(mtaOf !== undefined ? { mtaOf } : {}),
    })
  }

  private judgeRead(
    quote: QuoteState,
    call: SalesCall,
    res: HttpResult,
    evaluated: Set<InvariantId>,
    out: Violation[],
  ): void {
    if (call.overlapped || !quote.settled || quote.writesInFlight > 0 || !isObj(res.body)) return
    const data = res.body['data']
    // after another tenant's write that succeeded, this read says what the quote holds: it becomes the expectation,
    // unjudged (the write was SL-INV-006's breach, not this read's)
    if (quote.leaves && quote.follow) {
      quote.leaves = new Map([...quote.leaves.keys()].map((pointer) => [pointer, getPointer(data, pointer)]))
      quote.leavesSetBy = res
    } else if (quote.leaves) {
      // real-world values (non-ASCII text, maxLength, cents, bounds, boundary dates) are SL-INV-009's; the others
      // SL-INV-002's
      const productSchema = quote.product !== undefined ? this.schemas.get(quote.product) : undefined
      const broken = new Set<InvariantId>()
      for (const [pointer, value] of quote.leaves) {
        const classes = classesOf(value, productSchema !== undefined ? schemaAt(productSchema, pointer) : undefined)
        const id: InvariantId = classes.length > 0 ? 'SL-INV-009' : 'SL-INV-002'
        evaluated.add(id)
        if (broken.has(id)) continue
        const got = getPointer(data, pointer)
        if (same(got, value)) continue
        broken.add(id)
        // the same wrong value read again is the breach already reported (reported once, on the first answer showing
        // it)
        if (!firstShown(quote, `data${pointer}`, got)) continue
        const what = id === 'SL-INV-009' ? ` (${classes.join(', ')}; byte for byte)` : ' (as last written)'
        out.push({
          invariant: id,
          expected: `data${pointer} = ${show(value)}${what}`,
          actual: `data${pointer} = ${show(got)}`,
          res,
          ...(quote.leavesSetBy ? { setBy: quote.leavesSetBy } : {}),
        })
      }
    }
    delete quote.follow
    const schema = quote.product !== undefined ? this.schemas.get(quote.product) : undefined
    if (schema !== undefined) {
      evaluated.add('SL-INV-003')
      const problems = typeProblems(schema, data)
      if (problems.length > 0)
        out.push({
          invariant: 'SL-INV-003',
          expected: `data typed as the ${quote.product} schema declares`,
          actual: problems.slice(0, 3).join('; '),
          res,
        })
    }
  }

  /**
   * What the quote's past forbids its actions list to offer (SL-INV-005): per decline, bind and issue it went through.
   */
  private gone(quote: QuoteState): [HttpResult, string, string[]][] {
    const a = this.settings.actions
    const all: [HttpResult | undefined, string, string[]][] = [
      [quote.declined, 'declined', [a.update, a.calculate, a.referral, a.decline, a.bind, a.issue]],
      [quote.bound, 'bound', [a.bind]],
      [quote.issued, 'issued', [a.bind, a.issue]],
    ]
    return all.filter((g): g is [HttpResult, string, string[]] => g[0] !== undefined)
  }

  /**
   * Which of these action names the quote's past forbids (SL-INV-005), each with why ("declined"): an actions list that
   * offers one of them is no oracle for that operation (suites/sales/state-table.test.ts blocks the cell on it).
   */
  forbiddenActions(quoteId: string, names: readonly string[]): { name: string; because: string }[] {
    const quote = this.quotes.get(quoteId)
    if (!quote) return []
    return this.gone(quote).flatMap(([, what, never]) =>
      never.filter((n) => names.includes(n)).map((name) => ({ name, because: what })),
    )
  }

  private judgeActions(
    quote: QuoteState,
    call: SalesCall,
    res: HttpResult,
    evaluated: Set<InvariantId>,
    out: Violation[],
  ): void {
    const list = isObj(res.body) ? res.body['data'] : undefined
    if (!Array.isArray(list) || call.overlapped || quote.writesInFlight > 0) return
    const names = list.filter((a): a is string => typeof a === 'string')
    quote.actions = { list: names, actor: call.actor!, setBy: res }
    quote.settled = true
    this.judgeFinal(quote, names, call.actor!, res, evaluated, out)
    const offers = new Set<string>()
    for (const [by, what, never] of this.gone(quote)) {
      evaluated.add('SL-INV-005')
      const still = never.filter((n) => names.includes(n))
      if (still.length === 0) continue
      const offer = `${what}:${still.join(',')}`
      offers.add(offer)
      // the same list offering the same forbidden actions again is the breach already reported, not a new one
      if (quote.reportedOffers?.has(offer)) continue
      out.push({
        invariant: 'SL-INV-005',
        expected: `the actions of a ${what} quote without ${still.join(', ')}`,
        actual: `[${names.join(', ')}]`,
        res,
        setBy: by,
      })
    }
    quote.reportedOffers = offers
  }

  /**
   * The actions list is final (sales §3 rule 4, SL-INV-010): the list answered after a change tells that the change is
   * done, so it holds until the next change. A list that differs from the first one the same caller got since the last
   * change breaks it; typically an empty list answered while the quote was still locked (instead of 204, or 423 with
   * long polling), then the real one.
   */
  private judgeFinal(
    quote: QuoteState,
    names: string[],
    actor: string,
    res: HttpResult,
    evaluated: Set<InvariantId>,
    out: Violation[],
  ): void {
    const first = quote.finalList
    if (!first) {
      quote.finalList = { list: names, actor, setBy: res }
      return
    }
    if (first.actor !== actor) return
    evaluated.add('SL-INV-010')
    const a = [...first.list].sort()
    const b = [...names].sort()
    if (JSON.stringify(a) === JSON.stringify(b)) return
    const key = JSON.stringify([a, b])
    quote.reportedFinal ??= new Set()
    if (quote.reportedFinal.has(key)) return
    quote.reportedFinal.add(key)
    const empty =
      first.list.length === 0 ? ' (an empty list is no answer for a locked quote: 204, or 423 with long polling)' : ''
    out.push({
      invariant: 'SL-INV-010',
      expected:
        `the actions list answered after the last change, until the next change: ` +
        `[${first.list.join(', ')}]${empty}`,
      actual: `[${names.join(', ')}] with no change of the quote in between`,
      res,
      setBy: first.setBy,
    })
  }

  private judgeOffered(
    quote: QuoteState,
    op: QuoteOperation,
    call: SalesCall,
    res: HttpResult,
    evaluated: Set<InvariantId>,
    out: Violation[],
  ): void {
    const before = call.actionsBefore
    if (!before || before.actor !== call.actor || call.overlapped) return
    const name = this.settings.actions[op]
    evaluated.add('SL-INV-004')
    const offered = before.list.includes(name)
    if (!offered && ok(res))
      out.push({
        invariant: 'SL-INV-004',
        expected: `a refusal (4xx): ${name} is not among the actions offered [${before.list.join(', ')}]`,
        actual: `status ${res.status}`,
        res,
        setBy: before.setBy,
      })
    // an offered operation without a body of the caller's own must not be refused (an update's body may be invalid)
    if (
      offered &&
      op !== 'update' &&
      res.status >= 400 &&
      res.status < 500 &&
      ![401, 403, 423, 429].includes(res.status)
    ) {
      out.push({
        invariant: 'SL-INV-004',
        expected: `2xx: ${name} is offered [${before.list.join(', ')}]`,
        actual: `status ${res.status}`,
        res,
        setBy: before.setBy,
      })
    }
  }

  /**
   * What is inside a document (issue 42): SL-INV-040, it is a complete, well-formed file of the kind it claims (a PDF
   * opens, has its trailer and a page); SL-INV-041, its text names the quote it was made for (the profile's
   * documentSubject). A kind the suite cannot parse is not judged here (the check that reads it says so).
   */
  private judgeContent(
    quoteId: string,
    docId: string | undefined,
    res: HttpResult,
    evaluated: Set<InvariantId>,
    out: Violation[],
  ): void {
    const opened = res.document
    if (!opened?.judged) return
    const what =
      docId !== undefined ? `document ${docId} of quote ${quoteId}` : `the document generated for quote ${quoteId}`
    const state = docId !== undefined ? this.documents.get(docId) : undefined
    evaluated.add('SL-INV-040')
    if (opened.problems.length > 0 && (!state || firstShown(state, 'file', opened.problems.join('; ')))) {
      out.push({
        invariant: 'SL-INV-040',
        expected: `${what}: a complete, well-formed ${opened.mediaType} (${opened.parser})`,
        actual: opened.problems.join('; '),
        res,
      })
    }
    if (this.settings.documentSubject !== 'quote-id' || opened.text === undefined) return
    evaluated.add('SL-INV-041')
    if (!namesToken(opened.text, quoteId) && (!state || firstShown(state, 'subject', quoteId))) {
      const others = [...this.quotes.keys()].filter((q) => q !== quoteId && namesToken(opened.text!, q))
      const named =
        others.length > 0 ? `it names quote ${others.join(', ')} instead` : `it does not name quote ${quoteId}`
      out.push({
        invariant: 'SL-INV-041',
        expected: `${what}: its text names quote ${quoteId}`,
        actual: `${named}; text: ${JSON.stringify(opened.text.slice(0, 160))}`,
        res,
      })
    }
  }

  private judgeDocument(call: SalesCall, res: HttpResult, evaluated: Set<InvariantId>, out: Violation[]): void {
    const doc = this.documents.get(call.params['id'] ?? '')
    if (!doc || res.status !== 200 || call.tenant !== doc.tenant) return
    this.judgeContent(doc.quoteId, doc.id, res, evaluated, out)
    const hash = createHash('sha256').update(res.raw).digest('hex')
    evaluated.add('SL-INV-008')
    if (doc.hash !== undefined) {
      if (doc.hash !== hash && firstShown(doc, 'bytes', hash)) {
        out.push({
          invariant: 'SL-INV-008',
          expected: `the bytes document ${doc.id} answered before (sha256 ${doc.hash.slice(0, 16)}…)`,
          actual: `sha256 ${hash.slice(0, 16)}… (${res.raw.length} bytes)`,
          res,
          setBy: doc.setBy,
        })
      }
      return
    }
    const other = [...this.documents.values()].find((d) => d.hash === hash && d.quoteId !== doc.quoteId)
    if (other)
      out.push({
        invariant: 'SL-INV-008',
        expected: `the bytes of document ${doc.id}, generated for quote ${doc.quoteId}`,
        actual: `the bytes of document ${other.id}, generated for quote ${other.quoteId}`,
        res,
        setBy: other.setBy,
      })
    doc.hash = hash
    doc.setBy = res
  }

  private judgeRequest(call: SalesCall, res: HttpResult, evaluated: Set<InvariantId>, out: Violation[]): void {
    const r = this.requests.get(call.params['requestId'] ?? '')
    if (!r || res.status !== 200 || call.tenant !== r.tenant || !isObj(res.body)) return
    const status = typeof res.body['status'] === 'string' ? res.body['status'].toLowerCase() : undefined
    const policyId = getPointer(res.body, this.settings.policyIdPointer)
    if (r.terminal) {
      evaluated.add('SL-INV-001')
      if (
        (status !== r.terminal.status || !same(policyId, r.terminal.policyId)) &&
        firstShown(r, 'status', [status, policyId])
      ) {
        out.push({
          invariant: 'SL-INV-001',
          expected: `status ${r.terminal.status}${
            r.terminal.policyId !== undefined ? ` with policy ${show(r.terminal.policyId)}` : ''
          }, as already reported`,
          actual: `status ${show(res.body['status'])}${policyId !== undefined ? ` with policy ${show(policyId)}` : ''}`,
          res,
          setBy: r.terminal.setBy,
        })
      }
      return
    }
    if (status === undefined || !(this.statuses.success.includes(status) || this.statuses.failure.includes(status)))
      return
    r.terminal = { status, policyId, setBy: res }
    const quote = this.quotes.get(r.quoteId)
    if (this.statuses.success.includes(status)) {
      if (quote) quote.issued = res
      const id = idOf(policyId)
      if (id !== undefined && quote?.mtaOf === undefined) {
        const ref = { id, tenant: r.tenant, quoteId: r.quoteId }
        this.policies.set(id, ref)
        const schema = quote?.product !== undefined ? this.schemas.get(quote.product) : undefined
        this.hooks.policyIssued(
          ref,
          {
            quoteId: r.quoteId,
            ...(quote?.leaves && quote.writesInFlight === 0 ? { leaves: quote.leaves } : {}),
            ...(quote?.leavesSetBy ? { leavesSetBy: quote.leavesSetBy } : {}),
            ...(schema !== undefined ? { schema } : {}),
          },
          res,
        )
      }
    }
    if (quote?.mtaOf !== undefined)
      this.hooks.mtaIssued(quote.mtaOf, true, quote.id, this.statuses.success.includes(status))
  }
}
