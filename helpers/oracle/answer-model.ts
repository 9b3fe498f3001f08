import { escapePointerToken as esc } from '../client/data/json-pointer'
import { NewIds } from './new-ids'
import { createHash } from 'node:crypto'
import type { HttpResult } from '../client/http/types'
import type { InvariantId, Violation } from './invariants'
import { ANSWER_SOURCES, sourceOf, type FieldSource } from './answer-sources'
import type { Leaves } from './leaves'

type Json = Record<string, unknown>
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)
const idOf = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)
const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v))
const cents = (n: number) => Math.round(n * 100)

/** An answer's leaves with their table pattern (array items as `*`). */
interface Leaf {
  pointer: string
  pattern: string
  value: unknown
}

function leavesWithPatterns(doc: unknown, pointer = '', pattern = '', out: Leaf[] = []): Leaf[] {
  if (doc !== null && typeof doc === 'object') {
    const arr = Array.isArray(doc)
    const entries = arr ? (doc as unknown[]).map((v, i) => [String(i), v] as const) : Object.entries(doc)
    if (entries.length === 0) out.push({ pointer, pattern, value: arr ? [] : {} })
    for (const [k, v] of entries) leavesWithPatterns(v, `${pointer}/${esc(k)}`, `${pattern}/${arr ? '*' : esc(k)}`, out)
  } else out.push({ pointer, pattern, value: doc })
  return out
}

/** What one answer must hold, pointer by pointer: the value, or a test of it. */
type Expectation = { value: unknown; ids?: boolean } | { test: (v: unknown) => boolean; says: string }

/** The installments of a payment frequency (the dialect's; docs/fields.md). */
const FREQUENCY: Record<string, number> = { annual: 1, 'semi-annual': 2, quarterly: 4, monthly: 12 }

const sameValue = (a: unknown, b: unknown, ids: boolean) =>
  ids
    ? idOf(a) === idOf(b) && (a === undefined) === (b === undefined)
    : a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b))

interface Payment {
  unallocated: number
}

interface AllocationEvent {
  paymentId: string
  invoicenumber: unknown
  amount: number
  credited?: boolean
}

interface QuoteAnswers {
  /** Quote writes seen (any answer): agreements hold between two writes only. */
  writes: number
  /** The financials of the calculate answer, with the writes count it was made at. */
  calculated?: { writes: number; financials: Json; res: HttpResult }
  /** status, version and schemaPath shown last, per writes count. */
  shown?: { writes: number; status?: unknown; version?: unknown; schemaPath?: unknown; res: HttpResult }
  issuing?: boolean
}

type Check = { invariant: InvariantId; pointer: string; kind: string; expected: string; actual: string }

interface SubscriptionAnswers {
  secret: string
  setBy: HttpResult
}

/** A call as the answer oracle sees it. */
export interface AnswerCall {
  op: string
  params: Record<string, string>
  json: unknown
  overlapped: boolean
  tenant?: string
  actor?: string
  /** The policy an MTA quote's issue (or its request's status read) changes. */
  mtaPolicy?: string
  /** The request read has ended (success or failure). */
  requestEnded?: boolean
  /** The quote a policy (the call's) was issued from. */
  policyQuote?: string
  /** The quote a request status read is about. */
  requestQuote?: string
  /** The quote data the model expects now (after this answer's write), when it knows it. */
  quoteLeaves?: Leaves
}

/**
 * The answer oracle (issue 39): every field of every answer judged against its source
 * (helpers/oracle/answer-sources.ts),
 * the answers of writes included. Echoes, ids, the financials' arithmetic, the money answers and the agreement of one
 * quote's or one subscription's answers. One answer with wrong values is one violation per invariant, naming each
 * field (its path, its source kind, expected and actual). A field the table does not know is returned in `unjudged`
 * (reported once per run by the caller, as a deviation).
 */
/** What the answer oracle needs of the profile's policies settings (common/config/policies-settings.ts). */
export interface AnswerSettings {
  dayCount: 'expiry-exclusive' | 'expiry-inclusive'
  shortRateBase: 'return' | 'premium'
  /** How an MTA is charged: the premium difference for the rest of the period, or in full. */
  mtaAdjustment?: 'pro-rata' | 'full-difference'
  /**
   * The ids the target answered as new in this run, shared by every suite file (helpers/oracle/new-ids.ts); without
   * it, this model's own.
   */
  newIds?: NewIds
}

/** One policy as its answers showed it (the policy view, the totals), until a write of the policy. */
interface PolicyAnswers {
  /** Writes of the policy (data-change, termination, an MTA's issue): snapshots hold between two writes only. */
  writes: number
  /** The policy view's data (customer, objects, policy) and its stable fields, with the writes count it was read at. */
  view?: { writes: number; data: Json; res: HttpResult }
  /** Fields of the policy view that never change (until a termination): first shown. */
  stable?: Map<string, unknown>
  terminated?: boolean
  /** The totals' premium last read, per writes count. */
  totals?: { writes: number; premium: unknown; currency: unknown; res: HttpResult }
  /** The termination of it (type, date, and the sum of a manual one), as its request asked. */
  termination?: { type: unknown; date: unknown; sum?: number }
  /** The policy view's data when an MTA of it was issued (what its adjustment is priced from). */
  mtaBase?: Json
  /** An MTA of it is being issued: its views may change at any moment until the request ends. */
  moving?: boolean
  /** The version a technical change answered: the next view shows it. */
  version?: { writes: number; value: unknown; res: HttpResult }
}

export class AnswerModel {
  /**
   * Ids the run was answered as new (payments, events, subscriptions), as tenant|kind|id: a new id is none of them.
   */
  private readonly newIds: NewIds
  private readonly policies = new Map<string, PolicyAnswers>()
  /**
   * The insured object ids (pointer -> id) of a quote, as its answers showed them since the last update naming objects.
   */
  private readonly objectIds = new Map<string, { ids: Map<string, string>; res: HttpResult }>()
  private readonly quoteIds = new Set<string>()
  /** The user (without the tenant) who made each quote. */
  private readonly owners = new Map<string, string>()
  /** The mta.dateEffective sent with each MTA quote (its request's success names it). */
  private readonly mtaDates = new Map<string, unknown>()
  private readonly quotes = new Map<string, QuoteAnswers>()
  private readonly payments = new Map<string, Payment>()
  private readonly events = new Map<string, AllocationEvent>()
  private readonly subscriptions = new Map<string, SubscriptionAnswers>()
  private readonly secrets = new Map<string, string>()
  /** Fields not in the table, already reported (once per model). */
  private readonly unjudgedSeen = new Set<string>()

  constructor(private readonly settings: AnswerSettings = { dayCount: 'expiry-inclusive', shortRateBase: 'return' }) {
    this.newIds = settings.newIds ?? new NewIds()
  }

  /** Patterns of an answer the table knows (cached: the table does not change during a run). */
  private readonly knownPatterns = new Map<string, boolean>()

  private wholeOnly(key: string): boolean {
    const t = ANSWER_SOURCES[key]
    return t !== undefined && Object.keys(t).length === 1 && t['/**'] !== undefined
  }

  private known(key: string, k: string, l: Leaf): boolean {
    let v = this.knownPatterns.get(k)
    if (v === undefined) {
      // an empty list or object whose items the table knows is known too
      v =
        sourceOf(key, l.pattern) !== undefined ||
        (typeof l.value === 'object' &&
          l.value !== null &&
          Object.keys(ANSWER_SOURCES[key] ?? {}).some((p) => p.startsWith(`${l.pattern}/`)))
      this.knownPatterns.set(k, v)
    }
    return v
  }

  private policy(id: string): PolicyAnswers {
    let p = this.policies.get(id)
    if (!p) this.policies.set(id, (p = { writes: 0 }))
    return p
  }

  /** A new id: none the run was answered before as a new resource. */
  private fresh(
    id: unknown,
    pointer: string,
    what: string,
    invariant: InvariantId,
    checks: Check[],
    call: AnswerCall,
  ): void {
    const overlapped = call.overlapped
    const idv = idOf(id)
    if (idv === undefined) return
    const v = `${call.tenant ?? ''}|${what}|${idv}`
    if (this.newIds.has(v) && !overlapped)
      checks.push({
        invariant,
        pointer,
        kind: 'state',
        expected: `a new ${what} id`,
        actual: `${show(id)}, an id the run was given before`,
      })
    this.newIds.add(v)
  }

  private quote(id: string): QuoteAnswers {
    let q = this.quotes.get(id)
    if (!q) this.quotes.set(id, (q = { writes: 0 }))
    return q
  }

  /**
   * Judges one answer and learns from it.
   * @returns the fields of the answer the table does not know, the first time each is seen
   */
  observe(call: AnswerCall, res: HttpResult, evaluated: Set<InvariantId>, out: Violation[]): string[] {
    const key = `${call.op} ${res.status}`
    const body = res.body
    const quoteId = call.op.startsWith('sales.quote.') ? (call.params['policyId'] ?? call.params['id']) : undefined
    if (
      quoteId !== undefined &&
      !['sales.quote.get', 'sales.quote.actions', 'sales.quote.calculation', 'sales.quote.installments'].includes(
        call.op,
      )
    ) {
      const q = this.quote(quoteId)
      q.writes += 1
      // an update makes the calculation stale: what an MTA's issue is priced from is the calculation after the last one
      if (call.op === 'sales.quote.update') delete q.calculated
      if (call.op === 'sales.quote.issue') q.issuing = true
    }
    if (call.op === 'sales.requests.get') for (const q of this.quotes.values()) if (q.issuing) q.writes += 1
    // a policy's writes: its views before them say nothing of it after (an MTA's issue ends with a request status read)
    const policyId = call.params['policyId'] ?? call.params['id']
    if (['sales.policy.data-change', 'sales.termination.terminate'].includes(call.op) && policyId !== undefined)
      this.policy(policyId).writes += 1
    if (call.op === 'sales.termination.terminate' && policyId !== undefined && res.status >= 200 && res.status < 300) {
      const p = this.policy(policyId)
      p.terminated = true
      const asked = getIn(call.json, '/policy')
      if (isObj(asked) && !call.overlapped)
        p.termination = {
          type: asked['terminationType'],
          date: asked['terminationDate'],
          ...(asked['terminationType'] === 'manual' && typeof asked['terminationSum'] === 'number'
            ? { sum: asked['terminationSum'] }
            : {}),
        }
    }
    if (call.mtaPolicy !== undefined) {
      // an MTA quote's issue changes its policy when the request ends: nothing of the policy holds meanwhile
      const p = this.policy(call.mtaPolicy)
      // the view the MTA starts from: its premium and period price the adjustment
      if (call.op === 'sales.quote.issue')
        p.mtaBase = p.view && p.view.writes === p.writes && !p.moving && !call.overlapped ? p.view.data : undefined
      p.writes += 1
      // an MTA may change what a view keeps otherwise (its expiry, say): the stable fields start afresh
      delete p.stable
      p.moving =
        call.op === 'sales.quote.issue'
          ? true
          : call.op === 'sales.requests.get' && call.requestEnded
            ? false
            : p.moving
    }
    if (res.status < 200 || res.status >= 300 || body === undefined || typeof body !== 'object' || body === null)
      return []
    // an answer the table has no entry for at all (an error status, an operation it leaves to its checks) is not walked
    if (!ANSWER_SOURCES[key]) {
      const k = `${key} (the whole answer)`
      if (this.unjudgedSeen.has(k)) return []
      this.unjudgedSeen.add(k)
      return [k]
    }
    // an answer the table leaves whole to checks (the product schema: '/**' alone) is not walked
    if (this.wholeOnly(key)) return []
    const expected = new Map<string, Expectation>()
    const checks: Check[] = []
    const leaves = leavesWithPatterns(body)
    const unjudged: string[] = []
    for (const l of leaves) {
      const k = `${key} ${l.pattern}`
      if (this.known(key, k, l) || this.unjudgedSeen.has(k)) continue
      this.unjudgedSeen.add(k)
      unjudged.push(k)
    }
    const byPointer = new Map(leaves.map((l) => [l.pointer, l.value]))
    const at = (pointer: string) => byPointer.get(pointer)
    switch (call.op) {
      case 'sales.quote.create':
      case 'sales.quote.update':
      case 'sales.quote.mta':
        if (
          call.op === 'sales.quote.create' &&
          call.actor !== undefined &&
          idOf(getIn(body, '/policy/id')) !== undefined &&
          !call.overlapped
        )
          this.owners.set(idOf(getIn(body, '/policy/id'))!, call.actor.slice(call.actor.indexOf('/') + 1))
        this.quoteAnswer(call, body as Json, '', expected)
        this.objects(call, getIn(body, '/policy/id'), body, '', res, checks)
        if (call.op === 'sales.quote.mta') this.mtaAnswer(call, body as Json, expected)
        break
      case 'sales.quote.calculate':
        this.quoteAnswer(call, body as Json, '/data', expected)
        this.objects(call, quoteId, getIn(body, '/data'), '/data', res, checks)
        this.financials(call, (body as Json)['data'], '/data/policy/financials', expected)
        this.agreeQuote(call, quoteId, body as Json, res, checks)
        if (quoteId !== undefined) {
          const f = getIn(body, '/data/policy/financials')
          if (isObj(f) && !call.overlapped)
            this.quote(quoteId).calculated = { writes: this.quote(quoteId).writes, financials: f, res }
        }
        break
      case 'sales.quote.get':
        if (quoteId !== undefined) expected.set('/data/policy/id', { value: quoteId, ids: true })
        this.objects(call, quoteId, getIn(body, '/data'), '/data', res, checks)
        this.financials(call, (body as Json)['data'], '/data/policy/financials', expected)
        this.agreeQuote(call, quoteId, body as Json, res, checks)
        this.agreeCalculation(quoteId, getIn(body, '/data/policy/financials'), '/data/policy/financials', res, checks)
        break
      case 'sales.quote.actions':
        this.agreeQuote(call, quoteId, body as Json, res, checks)
        for (const l of ['self', 'quote:changes'])
          if (quoteId !== undefined && typeof getIn(body, `/links/${l}`) === 'string')
            expected.set(`/links/${esc(l)}`, {
              test: (v) => typeof v === 'string' && namesId(v, quoteId),
              says: `a link naming quote ${quoteId}`,
            })
        break
      case 'sales.quote.installments':
        this.schedule(call, getIn(body, '/instalments'), '/instalments', expected)
        break
      case 'sales.quote.calculation':
        this.schedule(call, getIn(body, '/installments'), '/installments', expected)
        this.financials(call, undefined, '/data', expected, getIn(body, '/data'))
        this.agreeCalculation(quoteId, getIn(body, '/data'), '/data', res, checks)
        break
      case 'sales.policy.links':
        expected.set('/data/policy/id', { value: call.params['policyId'] ?? call.params['id'], ids: true })
        this.financials(call, getIn(body, '/data'), '/data/policy/financials', expected)
        if (call.tenant !== undefined) expected.set('/data/agent/code', { value: call.tenant })
        if (getIn(body, '/meta/status') !== undefined)
          expected.set('/data/policy/status', { value: getIn(body, '/meta/status') })
        this.links(call, body as Json, res, expected, checks)
        break
      case 'sales.policy.period-totals': {
        expected.set('/data/policyId', { value: call.params['id'] ?? call.params['policyId'], ids: true })
        const premium = getIn(body, '/data/premium')
        const fee = getIn(body, '/data/adminFee')
        if (typeof premium === 'number' && typeof fee === 'number' && getIn(body, '/data/total') !== undefined)
          expected.set('/data/total', {
            test: (v) => typeof v === 'number' && cents(v) === cents(premium) + cents(fee),
            says: `${premium} + ${fee}`,
          })
        const id = call.params['id'] ?? call.params['policyId']
        if (id !== undefined && !call.overlapped) {
          const p = this.policy(id)
          const view =
            p.view && p.view.writes === p.writes && !p.moving
              ? getIn(p.view.data, '/policy/financials/currency')
              : undefined
          if (view !== undefined && getIn(body, '/data/currency') !== undefined)
            expected.set('/data/currency', { value: view })
          if (p.termination?.sum !== undefined && getIn(body, '/data/returnPremium') !== undefined)
            expected.set('/data/returnPremium', { value: p.termination.sum })
          if (!p.moving) p.totals = { writes: p.writes, premium, currency: getIn(body, '/data/currency'), res }
        }
        break
      }
      case 'sales.policy.invoices': {
        if (Array.isArray(body))
          body.forEach((inv, i) => {
            if (
              !isObj(inv) ||
              typeof inv['premium'] !== 'number' ||
              typeof inv['adminfee'] !== 'number' ||
              inv['payable'] === undefined
            )
              return
            const paid = [...this.events.values()]
              .filter((e) => !e.credited && idOf(e.invoicenumber) === idOf(inv['invoicenumber']))
              .reduce((sum, e) => sum + cents(e.amount), 0)
            const want = cents(inv['premium']) + cents(inv['adminfee']) - paid
            expected.set(`/${i}/payable`, {
              test: (v) => typeof v === 'number' && cents(v) === want,
              says: `premium ${inv['premium']} + adminfee ${inv['adminfee']} - paid ${paid / 100} = ${want / 100}`,
            })
          })
        break
      }
      case 'sales.termination.premiums': {
        const p = isObj(call.json) && isObj(call.json['policy']) ? call.json['policy'] : {}
        expected.set('/data/policyId', { value: call.params['policyId'] ?? call.params['id'], ids: true })
        for (const f of ['terminationType', 'terminationDate'] as const)
          if (p[f] !== undefined) expected.set(`/data/${f}`, { value: p[f] })
        if (p['terminationType'] === 'manual' && typeof p['terminationSum'] === 'number')
          expected.set('/data/returnPremium', { value: p['terminationSum'] })
        this.terminationQuote(call, p, body as Json, expected)
        break
      }
      case 'sales.policy.data-change': {
        const id = call.params['id'] ?? call.params['policyId']
        if (id !== undefined && !call.overlapped && getIn(body, '/data/version') !== undefined)
          this.policy(id).version = { writes: this.policy(id).writes, value: getIn(body, '/data/version'), res }
        expected.set('/data/policyId', { value: call.params['id'] ?? call.params['policyId'], ids: true })
        if (isObj(call.json)) Object.keys(call.json).forEach((k, i) => expected.set(`/data/changed/${i}`, { value: k }))
        break
      }
      case 'sales.policy.renewal':
        this.renewal(call, body as Json, expected)
        break
      case 'sales.termination.terminate':
        this.fresh(getIn(body, '/event_id'), '/event_id', 'event', 'PL-INV-021', checks, call)
        break
      case 'sales.payments.insert': {
        const sent = isObj(call.json) ? call.json : {}
        for (const f of ['amount', 'paymentDate', 'reference'] as const)
          if (sent[f] !== undefined) expected.set(`/data/${f}`, { value: sent[f] })
        if (typeof sent['amount'] === 'number') {
          expected.set('/data/allocated', { test: (v) => v === undefined || v === 0, says: '0' })
          expected.set('/data/unallocated', {
            test: (v) => v === undefined || v === sent['amount'],
            says: show(sent['amount']),
          })
        }
        const id = idOf(getIn(body, '/data/id'))
        this.fresh(getIn(body, '/data/id'), '/data/id', 'payment', 'PL-INV-021', checks, call)
        if (sent['paymentDate'] === undefined && getIn(body, '/data/paymentDate') !== undefined)
          expected.set('/data/paymentDate', {
            test: (v) => typeof v === 'string' && Math.abs(Date.parse(`${v}T12:00:00Z`) - Date.now()) <= 36 * 3_600_000,
            says: 'the day of the payment (today: none was sent)',
          })
        if (id !== undefined && typeof sent['amount'] === 'number' && !call.overlapped)
          this.payments.set(id, { unallocated: cents(sent['amount']) })
        break
      }
      case 'sales.payments.allocate': {
        const sent = isObj(call.json) ? call.json : {}
        const paymentId = idOf(sent['paymentId'])
        const allocations = Array.isArray(sent['allocations']) ? sent['allocations'].filter(isObj) : []
        if (paymentId !== undefined) expected.set('/data/paymentId', { value: paymentId, ids: true })
        allocations.forEach((a, i) => {
          expected.set(`/data/events/${i}/invoicenumber`, { value: a['invoicenumber'] })
          expected.set(`/data/events/${i}/amount`, { value: a['amount'] })
          if (paymentId !== undefined && at(`/data/events/${i}/paymentId`) !== undefined)
            expected.set(`/data/events/${i}/paymentId`, { value: paymentId, ids: true })
        })
        const payment = paymentId !== undefined ? this.payments.get(paymentId) : undefined
        const sum = allocations.reduce((s, a) => s + (typeof a['amount'] === 'number' ? cents(a['amount']) : 0), 0)
        if (payment && !call.overlapped && at('/data/unallocated') !== undefined) {
          const left = payment.unallocated - sum
          expected.set('/data/unallocated', {
            test: (v) => typeof v === 'number' && cents(v) === left,
            says: show(left / 100),
          })
        }
        if (payment) payment.unallocated -= sum
        const events = getIn(body, '/data/events')
        if (Array.isArray(events) && paymentId !== undefined) {
          events.forEach((e, i) => {
            const id = isObj(e) ? idOf(e['eventId']) : undefined
            if (id === undefined) return
            this.fresh(id, `/data/events/${i}/eventId`, 'event', 'PL-INV-021', checks, call)
            const a = allocations[i]
            if (a && typeof a['amount'] === 'number')
              this.events.set(id, { paymentId, invoicenumber: a['invoicenumber'], amount: a['amount'] })
          })
        }
        break
      }
      case 'sales.invoice.credit': {
        const eventId = call.params['eventId']
        expected.set('/data/eventId', { value: eventId, ids: true })
        const e = eventId !== undefined ? this.events.get(eventId) : undefined
        // a credit gives the event's amount back to its payment
        const payment = e ? this.payments.get(e.paymentId) : undefined
        if (e && payment) payment.unallocated += cents(e.amount)
        if (e) e.credited = true
        if (e) {
          expected.set('/data/paymentId', { value: e.paymentId, ids: true })
          expected.set('/data/invoicenumber', { value: e.invoicenumber })
          expected.set('/data/amount', { value: e.amount })
          expected.set('/data/credited', { value: e.amount })
        }
        break
      }
      case 'sales.requests.get':
        expected.set('/requestId', { value: call.params['requestId'] })
        if (call.requestQuote !== undefined && getIn(body, '/data/quoteId') !== undefined)
          expected.set('/data/quoteId', { value: call.requestQuote, ids: true })
        if (
          call.requestQuote !== undefined &&
          this.mtaDates.has(call.requestQuote) &&
          getIn(body, '/data/dateEffective') !== undefined
        )
          expected.set('/data/dateEffective', { value: this.mtaDates.get(call.requestQuote) })
        if (call.requestQuote !== undefined && call.mtaPolicy !== undefined)
          this.mtaPremium(call.requestQuote, call.mtaPolicy, body as Json, expected)
        break
      case 'webhooks.subscription.delete':
        expected.set('/success', { value: true })
        break
      case 'webhooks.subscription.create':
      case 'webhooks.subscription.get':
      case 'webhooks.subscription.update':
        this.subscription(call, body as Json, '', res, checks)
        if (call.op !== 'webhooks.subscription.create' && call.params['id'] !== undefined)
          expected.set('/id', { value: call.params['id'], ids: true })
        // an update answers the event and url it was sent (webhooks §4: the updated subscription)
        if (call.op === 'webhooks.subscription.update' && isObj(call.json) && !call.overlapped)
          for (const f of ['event', 'url'] as const)
            if (typeof call.json[f] === 'string') expected.set(`/${f}`, { value: call.json[f] })
        break
      case 'webhooks.subscriptions.list':
        if (Array.isArray(body))
          body.forEach((item, i) => isObj(item) && this.subscription(call, item, `/${i}`, res, checks))
        break
    }
    // every expected pointer against the answer (a field dropped is absent), every field of the answer against the
    // table
    for (const [pointer, e] of expected) {
      const got = at(pointer)
      const ok = 'test' in e ? e.test(got) : sameValue(got, e.value, e.ids ?? false)
      if (ok) continue
      const source = sourceOf(key, patternOfPointer(pointer))
      checks.push({
        invariant: invariantOf(source, call.op),
        pointer,
        kind: source?.kind ?? 'state',
        expected: 'test' in e ? e.says : show(e.value),
        actual: show(got),
      })
    }
    const byInvariant = new Map<InvariantId, typeof checks>()
    for (const c of checks) byInvariant.set(c.invariant, [...(byInvariant.get(c.invariant) ?? []), c])
    for (const id of new Set<InvariantId>([...byInvariant.keys(), ...evaluatedBy(call.op)])) evaluated.add(id)
    for (const [invariant, list] of byInvariant) {
      out.push({
        invariant,
        expected: list.map((c) => `${c.pointer} (${c.kind}) = ${c.expected}`).join('; '),
        actual: list.map((c) => `${c.pointer} = ${c.actual}`).join('; '),
        res,
      })
    }
    return unjudged
  }

  /** A quote's document in a write's answer (create, update, MTA, calculate): the data written and the quote id. */
  private quoteAnswer(call: AnswerCall, body: Json, prefix: string, expected: Map<string, Expectation>): void {
    const doc = prefix ? body['data'] : body
    const answeredId = idOf(getIn(doc, '/policy/id'))
    if (call.op === 'sales.quote.create' || call.op === 'sales.quote.mta') {
      if (answeredId !== undefined && this.quoteIds.has(answeredId) && !call.overlapped)
        expected.set(`${prefix}/policy/id`, {
          test: () => false,
          says: `a new quote id (${answeredId} is another quote of the run)`,
        })
      if (answeredId !== undefined) this.quoteIds.add(answeredId)
    } else {
      const asked = call.params['policyId'] ?? call.params['id']
      if (asked !== undefined) expected.set(`${prefix}/policy/id`, { value: asked, ids: true })
    }
    if (call.op === 'sales.quote.mta') {
      const sent = isObj(call.json) ? call.json : {}
      const policy = isObj(sent['policy']) ? sent['policy'] : {}
      if (policy['id'] !== undefined && getIn(doc, '/policy/policyId') !== undefined)
        expected.set(`${prefix}/policy/policyId`, { value: policy['id'], ids: true })
      for (const [k, v] of Object.entries(policy))
        if (k !== 'id' && (v === null || typeof v !== 'object'))
          expected.set(`${prefix}/policy/${esc(k)}`, { value: v === null ? undefined : v })
      for (const block of ['customer'] as const)
        if (isObj(sent[block]))
          for (const l of leavesWithPatterns(sent[block], `/${block}`))
            expected.set(`${prefix}${l.pointer}`, { value: l.value })
      return
    }
    if (call.overlapped) return
    const written =
      call.op === 'sales.quote.create' && isObj(call.json)
        ? new Map(leavesWithPatterns(call.json).map((l) => [l.pointer, l.value]))
        : call.quoteLeaves
    if (!written) return
    for (const [pointer, value] of written) expected.set(`${prefix}${pointer}`, { value })
  }

  /** The financials block under `at` of an answer: its rules, and the echo of the currency written. */
  private financials(
    call: AnswerCall,
    data: unknown,
    at: string,
    expected: Map<string, Expectation>,
    direct?: unknown,
  ): void {
    const f = direct ?? getIn(data, at.replace(/^\/data/, ''))
    if (!isObj(f)) return
    const num = (k: string) => (typeof f[k] === 'number' ? (f[k] as number) : undefined)
    const premium = num('periodPremium')
    const near = (want: number) => (v: unknown) => typeof v === 'number' && roundings(want).includes(cents(v))
    const pct = (k: string, p: string) => {
      const x = num(p)
      if (premium === undefined || x === undefined || f[k] === undefined) return
      const want = (premium * x) / 100
      expected.set(`${at}/${k}`, { test: near(want), says: `${premium} × ${x} / 100 = ${cents(want) / 100}` })
    }
    pct('tax', 'taxPct')
    pct('brokerComm', 'brokerCommPct')
    pct('mgaComm', 'mgaCommPct')
    const tax = num('tax')
    const fee = num('adminFeeSum')
    if (premium !== undefined && tax !== undefined && fee !== undefined && f['total'] !== undefined) {
      const want = premium + tax + fee
      expected.set(`${at}/total`, { test: near(want), says: `${premium} + ${tax} + ${fee} = ${cents(want) / 100}` })
    }
    // the quote data beside the financials (calculate, get, links): the payment frequency and the currency written
    const policy = call.op === 'sales.quote.calculation' ? undefined : getIn(data, '/policy')
    const frequency = isObj(policy) ? policy['paymentFrequency'] : call.quoteLeaves?.get('/policy/paymentFrequency')
    const n = typeof frequency === 'string' ? FREQUENCY[frequency] : undefined
    if (n !== undefined && f['installments'] !== undefined) expected.set(`${at}/installments`, { value: n })
    const currency = isObj(policy) ? policy['currency'] : call.quoteLeaves?.get('/policy/currency')
    if (typeof currency === 'string' && f['currency'] !== undefined) expected.set(`${at}/currency`, { value: currency })
  }

  /**
   * The insured object ids of a quote (`/objects/{type}/{i}/id`): given by its create answer, the same in every later
   * answer (update, calculate, get) until an update names objects (items merged by id: new ones get ids).
   */
  private objects(
    call: AnswerCall,
    quoteId: unknown,
    doc: unknown,
    prefix: string,
    res: HttpResult,
    checks: Check[],
  ): void {
    const id = idOf(quoteId)
    if (id === undefined || call.overlapped || !isObj(doc)) return
    const objects = doc['objects']
    const now = new Map<string, string>()
    if (isObj(objects))
      for (const [type, list] of Object.entries(objects))
        if (Array.isArray(list))
          list.forEach(
            (o, i) =>
              isObj(o) && idOf(o['id']) !== undefined && now.set(`/objects/${esc(type)}/${i}/id`, idOf(o['id'])!),
          )
    const namesObjects = call.op === 'sales.quote.update' && isObj(call.json) && 'objects' in call.json
    const before = this.objectIds.get(id)
    if (before && !namesObjects && call.op !== 'sales.quote.create' && call.op !== 'sales.quote.mta') {
      for (const [pointer, was] of before.ids) {
        const got = now.get(pointer)
        if (got !== undefined && got !== was)
          checks.push({
            invariant: 'SL-INV-021',
            pointer: `${prefix}${pointer}`,
            kind: 'state',
            expected: `${show(was)}, the id the quote's earlier answer gave this object`,
            actual: show(got),
          })
      }
    }
    this.objectIds.set(id, { ids: now, res })
  }

  /**
   * An MTA answer: the blocks not sent are the policy's, as its view showed them (with no write of the policy since).
   */
  private mtaAnswer(call: AnswerCall, body: Json, expected: Map<string, Expectation>): void {
    const sent = isObj(call.json) ? call.json : {}
    const policyId = idOf(getIn(sent, '/policy/id'))
    const quoteId = idOf(getIn(body, '/policy/id'))
    if (quoteId !== undefined && getIn(sent, '/mta/dateEffective') !== undefined)
      this.mtaDates.set(quoteId, getIn(sent, '/mta/dateEffective'))
    if (isObj(sent['objects']))
      for (const l of leavesWithPatterns(sent['objects'], '/objects'))
        if (!/\/id$/.test(l.pointer)) expected.set(l.pointer, { value: l.value })
    const p = policyId !== undefined ? this.policies.get(policyId) : undefined
    if (!p?.view || p.view.writes !== p.writes || p.moving || call.overlapped) return
    const view = p.view.data
    for (const block of ['customer', 'objects'] as const) {
      if (sent[block] !== undefined || !isObj(view[block])) continue
      for (const l of leavesWithPatterns(view[block], `/${block}`))
        if (!expected.has(l.pointer)) expected.set(l.pointer, { value: l.value })
    }
    const policy = isObj(view['policy']) ? view['policy'] : {}
    const sentPolicy = isObj(sent['policy']) ? sent['policy'] : {}
    for (const [k, v] of Object.entries(policy)) {
      if (k in sentPolicy || VIEW_ONLY.has(k) || (v !== null && typeof v === 'object')) continue
      if (getIn(body, `/policy/${esc(k)}`) !== undefined || k in (isObj(body['policy']) ? body['policy'] : {}))
        expected.set(`/policy/${esc(k)}`, { value: v })
    }
  }

  /**
   * A schedule (calculation or installments read): as many installments as the payment frequency says, the first due at
   * inception.
   */
  private schedule(call: AnswerCall, list: unknown, at: string, expected: Map<string, Expectation>): void {
    if (!Array.isArray(list) || call.overlapped || !call.quoteLeaves) return
    const frequency = call.quoteLeaves.get('/policy/paymentFrequency')
    const inception = call.quoteLeaves.get('/policy/dateInception')
    const n = typeof frequency === 'string' ? FREQUENCY[frequency] : undefined
    if (n !== undefined && list.length !== n)
      expected.set(`${at}/${n - 1 < list.length ? list.length - 1 : n - 1}/premium`, {
        test: () => false,
        says: `${n} installments for a ${frequency} payment frequency (${list.length} answered)`,
      })
    if (typeof inception === 'string' && list.length > 0 && isObj(list[0]) && list[0]['dueDate'] !== undefined)
      expected.set(`${at}/0/dueDate`, { value: inception })
  }

  /**
   * An MTA request's success: its premium is the difference of the period premiums, for the rest of the period from the
   * MTA date (or in full).
   */
  private mtaPremium(quoteId: string, policyId: string, body: Json, expected: Map<string, Expectation>): void {
    const got = getIn(body, '/data/mtaPremium')
    const q = this.quotes.get(quoteId)
    const p = this.policies.get(policyId)
    const date = this.mtaDates.get(quoteId)
    const view = p?.mtaBase
    const before = getIn(view, '/policy/financials/periodPremium')
    const after = getIn(q?.calculated?.financials, '/periodPremium')
    const inception = getIn(view, '/policy/dateInception')
    const expiry = getIn(view, '/policy/dateExpiry')
    if (
      got === undefined ||
      typeof before !== 'number' ||
      typeof after !== 'number' ||
      typeof date !== 'string' ||
      typeof inception !== 'string' ||
      typeof expiry !== 'string'
    )
      return
    const day = (iso: string) => Math.round(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / 86_400_000)
    const extra = this.settings.dayCount === 'expiry-inclusive' ? 1 : 0
    const total = day(expiry) - day(inception) + extra
    const left = Math.max(0, Math.min(total, day(expiry) - day(date) + extra))
    if (!(total > 0)) return
    const want = this.settings.mtaAdjustment === 'full-difference' ? after - before : ((after - before) * left) / total
    expected.set('/data/mtaPremium', {
      test: (v) => typeof v === 'number' && roundings(want).includes(cents(v)),
      says: `(${after} - ${before}) × ${left}/${total} days = ${cents(want) / 100}`,
    })
  }

  /**
   * The policy view: links naming the policy, the fields that never change, the version a technical change answered.
   */
  private links(
    call: AnswerCall,
    body: Json,
    res: HttpResult,
    expected: Map<string, Expectation>,
    checks: Check[],
  ): void {
    const id = call.params['policyId'] ?? call.params['id']
    if (id === undefined) return
    // each link is the operation's path for this policy (sales §4: GET /policies/{id}/links, /invoices, /period-totals,
    // /renewal)
    for (const [l, tail] of [
      ['self', 'links'],
      ['invoices', 'invoices'],
      ['periodTotals', 'period-totals'],
      ['renewal', 'renewal'],
    ] as const) {
      if (typeof getIn(body, `/links/${l}`) === 'string')
        expected.set(`/links/${l}`, {
          test: (v) =>
            typeof v === 'string' && (v.split(/[?#]/)[0] ?? '').replace(/\/+$/, '').endsWith(`/policies/${id}/${tail}`),
          says: `the path of /policies/${id}/${tail}`,
        })
    }
    // the broker is the user who made the policy's quote
    const owner = call.policyQuote !== undefined ? this.owners.get(call.policyQuote) : undefined
    if (owner !== undefined && getIn(body, '/data/agent/broker') !== undefined)
      expected.set('/data/agent/broker', { value: owner })
    // the quote the policy was issued from is one of its quotes (PL-INV-005 keeps them)
    const quotes = getIn(body, '/links/quotes')
    const issuing = call.policyQuote
    if (issuing !== undefined && Array.isArray(quotes) && quotes.length > 0)
      expected.set('/links/quotes/0', {
        test: () => quotes.some((q) => typeof q === 'string' && (q === issuing || namesId(q, issuing))),
        says: `the policy's quotes, among them ${issuing}, the quote it was issued from`,
      })
    if (call.overlapped) return
    const p = this.policy(id)
    const data = getIn(body, '/data')
    if (p.version && p.version.writes === p.writes && !p.moving && getIn(body, '/meta/version') !== undefined)
      expected.set('/meta/version', { value: p.version.value })
    const t = p.termination
    if (t) {
      if (getIn(body, '/data/policy/terminationType') !== undefined || t.type === 'manual')
        expected.set('/data/policy/terminationType', { value: t.type })
      if (getIn(body, '/data/policy/terminationDate') !== undefined && typeof t.date === 'string')
        expected.set('/data/policy/terminationDate', { value: t.date })
      if (t.sum !== undefined && getIn(body, '/data/policy/returnPremium') !== undefined)
        expected.set('/data/policy/returnPremium', { value: t.sum })
    }
    delete p.version
    if (!p.terminated) {
      const stable = p.stable ?? new Map<string, unknown>()
      for (const pointer of STABLE_VIEW) {
        const v = getIn(body, pointer)
        if (v === undefined) continue
        if (stable.has(pointer) && stable.get(pointer) !== v)
          checks.push({
            invariant: 'PL-INV-021',
            pointer,
            kind: 'state',
            expected: `${show(stable.get(pointer))}, as the policy's earlier view showed`,
            actual: show(v),
          })
        else stable.set(pointer, v)
      }
      p.stable = stable
    }
    if (isObj(data) && !p.moving) p.view = { writes: p.writes, data, res }
  }

  /**
   * A renewal's data: the policy's customer, objects and product fields as its view last showed them (no write of the
   * policy since), its product, and the policy it renews; the new period is PL-REN-003's.
   */
  private renewal(call: AnswerCall, body: Json, expected: Map<string, Expectation>): void {
    const id = call.params['policyId'] ?? call.params['id']
    if (id === undefined) return
    if (getIn(body, '/meta/renewalOf') !== undefined) expected.set('/meta/renewalOf', { value: id, ids: true })
    const p = this.policies.get(id)
    if (!p?.view || p.view.writes !== p.writes || p.moving || call.overlapped) return
    const view = p.view.data
    if (getIn(body, '/meta/policyNo') !== undefined && getIn(view, '/policy/policyNo') !== undefined)
      expected.set('/meta/policyNo', { value: getIn(view, '/policy/policyNo') })
    for (const block of ['customer', 'objects'] as const)
      if (isObj(view[block]))
        for (const l of leavesWithPatterns(view[block], `/data/${block}`)) expected.set(l.pointer, { value: l.value })
    const policy = isObj(view['policy']) ? view['policy'] : {}
    const renewed = getIn(body, '/data/policy')
    if (isObj(renewed))
      for (const [k, v] of Object.entries(policy))
        if (
          !VIEW_ONLY.has(k) &&
          k !== 'dateInception' &&
          k !== 'dateExpiry' &&
          (v === null || typeof v !== 'object') &&
          k in renewed
        )
          expected.set(`/data/policy/${esc(k)}`, { value: v })
  }

  /**
   * A termination quote: the premium is the totals', the return premium its rule (pro-rata, short-rate) over the
   * policy's period.
   */
  private terminationQuote(call: AnswerCall, sent: Json, body: Json, expected: Map<string, Expectation>): void {
    const id = call.params['policyId'] ?? call.params['id']
    const p = id !== undefined ? this.policies.get(id) : undefined
    if (!p || call.overlapped || p.moving) return
    const totals = p.totals && p.totals.writes === p.writes ? p.totals : undefined
    if (totals && typeof totals.premium === 'number' && getIn(body, '/data/premium') !== undefined)
      expected.set('/data/premium', { value: totals.premium })
    const view = p.view && p.view.writes === p.writes ? p.view.data : undefined
    const inception = getIn(view, '/policy/dateInception')
    const expiry = getIn(view, '/policy/dateExpiry')
    const date = sent['terminationDate']
    const type = sent['terminationType']
    if (
      !totals ||
      typeof totals.premium !== 'number' ||
      typeof inception !== 'string' ||
      typeof expiry !== 'string' ||
      typeof date !== 'string' ||
      getIn(body, '/data/returnPremium') === undefined
    )
      return
    const day = (iso: string) => Math.round(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / 86_400_000)
    const extra = this.settings.dayCount === 'expiry-inclusive' ? 1 : 0
    const total = day(expiry) - day(inception) + extra
    const left = Math.max(0, Math.min(total, day(expiry) - day(date) + extra))
    if (!(total > 0)) return
    const proRata = (totals.premium * left) / total
    const pct = typeof sent['shortRatePct'] === 'number' ? sent['shortRatePct'] : undefined
    const want =
      type === 'pro-rata'
        ? proRata
        : type === 'short-rate' && pct !== undefined
          ? this.settings.shortRateBase === 'return'
            ? proRata * (1 - pct / 100)
            : Math.max(0, proRata - (totals.premium * pct) / 100)
          : undefined
    if (want === undefined) return
    expected.set('/data/returnPremium', {
      test: (v) => typeof v === 'number' && roundings(want).includes(cents(v)),
      says:
        `${type}: ${totals.premium} × ${left}/${total} days${type === 'short-rate' ? ` less ${pct} %` : ''} ` +
        `= ${cents(want) / 100}`,
    })
  }

  /** status, version and schemaPath of one quote agree between its answers while nothing writes it. */
  private agreeQuote(
    call: AnswerCall,
    quoteId: string | undefined,
    body: Json,
    res: HttpResult,
    checks: Check[],
  ): void {
    if (quoteId === undefined || call.overlapped) return
    const q = this.quote(quoteId)
    const meta = isObj(body['meta']) ? body['meta'] : {}
    const now = {
      writes: q.writes,
      status: meta['status'],
      version: meta['version'],
      schemaPath: meta['schemaPath'],
      res,
    }
    const before = q.shown
    if (before && !q.issuing) {
      for (const f of ['status', 'version', 'schemaPath'] as const) {
        if (f !== 'schemaPath' && before.writes !== q.writes) continue
        if (before[f] === undefined || now[f] === undefined || before[f] === now[f]) continue
        checks.push({
          invariant: 'SL-INV-023',
          pointer: `/meta/${f}`,
          kind: 'agreement',
          expected: `${show(before[f])}, as the quote's ${
            before.writes === q.writes ? 'previous answer with no write in between' : 'other answers'
          } showed`,
          actual: show(now[f]),
        })
      }
    }
    q.shown = now
  }

  /** The financials an answer shows agree with the calculate answer, while nothing wrote the quote since. */
  private agreeCalculation(
    quoteId: string | undefined,
    f: unknown,
    at: string,
    _res: HttpResult,
    checks: Check[],
  ): void {
    const c = quoteId !== undefined ? this.quotes.get(quoteId)?.calculated : undefined
    if (!c || !isObj(f) || c.writes !== this.quotes.get(quoteId!)!.writes) return
    for (const [k, v] of Object.entries(c.financials)) {
      if (f[k] === v || f[k] === undefined) continue
      checks.push({
        invariant: 'SL-INV-023',
        pointer: `${at}/${esc(k)}`,
        kind: 'agreement',
        expected: `${show(v)}, as the calculate answer showed`,
        actual: show(f[k]),
      })
    }
  }

  /** A subscription's secret: its own in the create answer, the same in every later answer. */
  private subscription(call: AnswerCall, item: Json, prefix: string, res: HttpResult, checks: Check[]): void {
    const id = idOf(item['id'])
    if (id === undefined || item['secret'] === undefined) return
    const secret = createHash('sha256').update(JSON.stringify(item['secret'])).digest('hex')
    const fp = (h: string) => `a secret with sha256 ${h.slice(0, 12)}…`
    if (call.op === 'webhooks.subscription.create') {
      this.fresh(item['id'], `${prefix}/id`, 'subscription', 'WH-INV-020', checks, call)
      const other = this.secrets.get(secret)
      if (other !== undefined && other !== id)
        checks.push({
          invariant: 'WH-INV-020',
          pointer: `${prefix}/secret`,
          kind: 'state',
          expected: 'a secret of its own',
          actual: `the secret of subscription ${other}`,
        })
      this.secrets.set(secret, id)
      this.subscriptions.set(id, { secret, setBy: res })
      return
    }
    const known = this.subscriptions.get(id)
    if (!known || known.secret === secret) return
    checks.push({
      invariant: 'WH-INV-021',
      pointer: `${prefix}/secret`,
      kind: 'agreement',
      expected: `${fp(known.secret)} (the create answer's)`,
      actual: fp(secret),
    })
  }
}

/**
 * The amounts in cents a derived amount may be, to the cent: rounded half up, or either way when it lies on a half cent
 * (the profile's rounding decides ties; float noise below 1e-6 cent is no tie-breaker).
 */
function roundings(amount: number): number[] {
  const c = amount * 100
  const floor = Math.floor(c)
  return Math.abs(c - floor - 0.5) < 1e-6 ? [floor, floor + 1] : [Math.round(c)]
}

/** Fields of the policy view that are the view's own, not product data an MTA carries. */
const VIEW_ONLY = new Set([
  'id',
  'policyNo',
  'status',
  'dateIssue',
  'financials',
  'terminationType',
  'terminationDate',
  'returnPremium',
])
/** Fields of the policy view that never change until a termination. */
const STABLE_VIEW = [
  '/data/policy/dateIssue',
  '/data/policy/dateExpiry',
  '/data/agent/code',
  '/data/agent/broker',
  '/meta/schemaPath',
]

/** A link names a resource id as a whole path segment. */
function namesId(link: string, id: string): boolean {
  return link.split(/[/?#]/).includes(id)
}

function getIn(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc
  let cur = doc
  for (const raw of pointer.split('/').slice(1)) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(cur)) cur = cur[Number(k)]
    else if (isObj(cur)) cur = cur[k]
    else return undefined
  }
  return cur
}

/** The table pattern of a pointer that may be absent from the answer: numeric segments under an array become `*`. */
function patternOfPointer(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*')
}

/** The invariant of a field's source for the invariants of this oracle's range. */
function invariantOf(source: FieldSource | undefined, op: string): InvariantId {
  // the table names the invariant of its field when it is one of this oracle's range
  if (source && /^(SL|PL|WH)-INV-0[23]\d$/.test(source.by)) return source.by as InvariantId
  const area = op.startsWith('webhooks.')
    ? 'WH'
    : ['sales.quote.', 'sales.requests.'].some((p) => op.startsWith(p))
      ? 'SL'
      : 'PL'
  const kind = source?.kind ?? 'state'
  if (area === 'WH') return kind === 'agreement' ? 'WH-INV-021' : 'WH-INV-020'
  if (area === 'SL')
    return kind === 'echo'
      ? 'SL-INV-020'
      : kind === 'rule'
        ? 'SL-INV-022'
        : kind === 'agreement'
          ? 'SL-INV-023'
          : 'SL-INV-021'
  return kind === 'echo'
    ? 'PL-INV-020'
    : kind === 'rule'
      ? 'PL-INV-022'
      : kind === 'agreement'
        ? 'PL-INV-023'
        : 'PL-INV-021'
}

/** The invariants an answer of an operation is judged for, even when all is well. */
function evaluatedBy(op: string): InvariantId[] {
  switch (op) {
    case 'sales.quote.create':
    case 'sales.quote.update':
    case 'sales.quote.mta':
      return ['SL-INV-020', 'SL-INV-021']
    case 'sales.quote.calculate':
      return ['SL-INV-020', 'SL-INV-021', 'SL-INV-022', 'SL-INV-023']
    case 'sales.quote.get':
      return ['SL-INV-021', 'SL-INV-022', 'SL-INV-023']
    case 'sales.quote.calculation':
      return ['SL-INV-022', 'SL-INV-023']
    case 'sales.requests.get':
      return ['SL-INV-021']
    case 'sales.policy.links':
      return ['PL-INV-021', 'PL-INV-022', 'PL-INV-023']
    case 'sales.policy.period-totals':
      return ['PL-INV-021', 'PL-INV-022']
    case 'sales.termination.premiums':
    case 'sales.policy.data-change':
      return ['PL-INV-020']
    case 'sales.policy.renewal':
      return ['PL-INV-020', 'PL-INV-023']
    case 'sales.payments.insert':
    case 'sales.payments.allocate':
    case 'sales.invoice.credit':
      return ['PL-INV-020', 'PL-INV-021', 'PL-INV-022']
    case 'webhooks.subscription.create':
    case 'webhooks.subscription.get':
    case 'webhooks.subscription.update':
    case 'webhooks.subscriptions.list':
      return ['WH-INV-020', 'WH-INV-021']
    default:
      return []
  }
}
