import { createHash } from 'node:crypto'
import type { HttpResult } from '../client/http/types'
import type { InvariantId, Violation } from './invariants'
import { sourceOf, type FieldSource } from './answer-sources'
import type { Leaves } from './leaves'

type Json = Record<string, unknown>
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)
const idOf = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)
const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v))
const cents = (n: number) => Math.round(n * 100)
const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1')

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

const sameValue = (a: unknown, b: unknown, ids: boolean) => (ids ? idOf(a) === idOf(b) && (a === undefined) === (b === undefined) : a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b)))

interface Payment {
  unallocated: number
}

interface AllocationEvent {
  paymentId: string
  invoicenumber: unknown
  amount: number
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
  /** The quote data the model expects now (after this answer's write), when it knows it. */
  quoteLeaves?: Leaves
}

/**
 * The answer oracle (issue 39): every field of every answer judged against its source (helpers/oracle/answer-sources.ts),
 * the answers of writes included. Echoes, ids, the financials' arithmetic, the money answers and the agreement of one
 * quote's or one subscription's answers. One answer with wrong values is one violation per invariant, naming each
 * field (its path, its source kind, expected and actual). A field the table does not know is returned in `unjudged`
 * (reported once per run by the caller, as a deviation).
 */
export class AnswerModel {
  private readonly quoteIds = new Set<string>()
  private readonly quotes = new Map<string, QuoteAnswers>()
  private readonly payments = new Map<string, Payment>()
  private readonly events = new Map<string, AllocationEvent>()
  private readonly eventIds = new Set<string>()
  private readonly subscriptions = new Map<string, SubscriptionAnswers>()
  private readonly secrets = new Map<string, string>()
  /** Fields not in the table, already reported (once per model). */
  private readonly unjudgedSeen = new Set<string>()

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
    if (quoteId !== undefined && !['sales.quote.get', 'sales.quote.actions', 'sales.quote.calculation', 'sales.quote.installments'].includes(call.op)) {
      const q = this.quote(quoteId)
      q.writes += 1
      if (call.op === 'sales.quote.issue') q.issuing = true
    }
    if (call.op === 'sales.requests.get') for (const q of this.quotes.values()) if (q.issuing) q.writes += 1
    if (res.status < 200 || res.status >= 300 || body === undefined || typeof body !== 'object' || body === null) return []
    const expected = new Map<string, Expectation>()
    const checks: { invariant: InvariantId; pointer: string; kind: string; expected: string; actual: string }[] = []
    const leaves = leavesWithPatterns(body)
    const unjudged: string[] = []
    for (const l of leaves) {
      if (sourceOf(key, l.pattern)) continue
      const k = `${key} ${l.pattern}`
      if (this.unjudgedSeen.has(k)) continue
      this.unjudgedSeen.add(k)
      unjudged.push(k)
    }
    const at = (pointer: string) => leaves.find((l) => l.pointer === pointer)?.value
    switch (call.op) {
      case 'sales.quote.create':
      case 'sales.quote.update':
      case 'sales.quote.mta':
        this.quoteAnswer(call, body as Json, '', expected)
        break
      case 'sales.quote.calculate':
        this.quoteAnswer(call, body as Json, '/data', expected)
        this.financials(call, (body as Json)['data'], '/data/policy/financials', expected)
        this.agreeQuote(call, quoteId, body as Json, res, checks)
        if (quoteId !== undefined) {
          const f = getIn(body, '/data/policy/financials')
          if (isObj(f) && !call.overlapped) this.quote(quoteId).calculated = { writes: this.quote(quoteId).writes, financials: f, res }
        }
        break
      case 'sales.quote.get':
        if (quoteId !== undefined) expected.set('/data/policy/id', { value: quoteId, ids: true })
        this.financials(call, (body as Json)['data'], '/data/policy/financials', expected)
        this.agreeQuote(call, quoteId, body as Json, res, checks)
        this.agreeCalculation(quoteId, getIn(body, '/data/policy/financials'), '/data/policy/financials', res, checks)
        break
      case 'sales.quote.calculation':
        this.financials(call, undefined, '/data', expected, getIn(body, '/data'))
        this.agreeCalculation(quoteId, getIn(body, '/data'), '/data', res, checks)
        break
      case 'sales.policy.links':
        expected.set('/data/policy/id', { value: call.params['policyId'] ?? call.params['id'], ids: true })
        this.financials(call, getIn(body, '/data'), '/data/policy/financials', expected)
        if (call.tenant !== undefined) expected.set('/data/agent/code', { value: call.tenant })
        if (getIn(body, '/meta/status') !== undefined) expected.set('/data/policy/status', { value: getIn(body, '/meta/status') })
        break
      case 'sales.policy.period-totals': {
        expected.set('/data/policyId', { value: call.params['id'] ?? call.params['policyId'], ids: true })
        const premium = getIn(body, '/data/premium')
        const fee = getIn(body, '/data/adminFee')
        if (typeof premium === 'number' && typeof fee === 'number' && getIn(body, '/data/total') !== undefined) expected.set('/data/total', { value: cents(premium + fee) / 100 })
        break
      }
      case 'sales.termination.premiums': {
        const p = isObj(call.json) && isObj(call.json['policy']) ? call.json['policy'] : {}
        expected.set('/data/policyId', { value: call.params['policyId'] ?? call.params['id'], ids: true })
        for (const f of ['terminationType', 'terminationDate'] as const) if (p[f] !== undefined) expected.set(`/data/${f}`, { value: p[f] })
        if (p['terminationType'] === 'manual' && typeof p['terminationSum'] === 'number') expected.set('/data/returnPremium', { value: p['terminationSum'] })
        break
      }
      case 'sales.policy.data-change':
        expected.set('/data/policyId', { value: call.params['id'] ?? call.params['policyId'], ids: true })
        if (isObj(call.json)) Object.keys(call.json).forEach((k, i) => expected.set(`/data/changed/${i}`, { value: k }))
        break
      case 'sales.payments.insert': {
        const sent = isObj(call.json) ? call.json : {}
        for (const f of ['amount', 'paymentDate', 'reference'] as const) if (sent[f] !== undefined) expected.set(`/data/${f}`, { value: sent[f] })
        if (typeof sent['amount'] === 'number') {
          expected.set('/data/allocated', { test: (v) => v === undefined || v === 0, says: '0' })
          expected.set('/data/unallocated', { test: (v) => v === undefined || v === sent['amount'], says: show(sent['amount']) })
        }
        const id = idOf(getIn(body, '/data/id'))
        if (id !== undefined && typeof sent['amount'] === 'number' && !call.overlapped) this.payments.set(id, { unallocated: cents(sent['amount']) })
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
          if (paymentId !== undefined && at(`/data/events/${i}/paymentId`) !== undefined) expected.set(`/data/events/${i}/paymentId`, { value: paymentId, ids: true })
        })
        const payment = paymentId !== undefined ? this.payments.get(paymentId) : undefined
        const sum = allocations.reduce((s, a) => s + (typeof a['amount'] === 'number' ? cents(a['amount']) : 0), 0)
        if (payment && !call.overlapped && at('/data/unallocated') !== undefined) {
          const left = payment.unallocated - sum
          expected.set('/data/unallocated', { test: (v) => typeof v === 'number' && cents(v) === left, says: show(left / 100) })
        }
        if (payment) payment.unallocated -= sum
        const events = getIn(body, '/data/events')
        if (Array.isArray(events) && paymentId !== undefined) {
          events.forEach((e, i) => {
            const id = isObj(e) ? idOf(e['eventId']) : undefined
            if (id === undefined) return
            if (this.eventIds.has(id)) checks.push({ invariant: 'PL-INV-021', pointer: `/data/events/${i}/eventId`, kind: 'state', expected: 'a new event id', actual: `${show(id)}, the id of an earlier allocation event` })
            this.eventIds.add(id)
            const a = allocations[i]
            if (a && typeof a['amount'] === 'number') this.events.set(id, { paymentId, invoicenumber: a['invoicenumber'], amount: a['amount'] })
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
        break
      case 'webhooks.subscription.create':
      case 'webhooks.subscription.get':
      case 'webhooks.subscription.update':
        this.subscription(call, body as Json, '', res, checks)
        if (call.op !== 'webhooks.subscription.create' && call.params['id'] !== undefined) expected.set('/id', { value: call.params['id'], ids: true })
        break
      case 'webhooks.subscriptions.list':
        if (Array.isArray(body)) body.forEach((item, i) => isObj(item) && this.subscription(call, item, `/${i}`, res, checks))
        break
    }
    // every expected pointer against the answer (a field dropped is absent), every field of the answer against the table
    for (const [pointer, e] of expected) {
      const got = at(pointer)
      const ok = 'test' in e ? e.test(got) : sameValue(got, e.value, e.ids ?? false)
      if (ok) continue
      const source = sourceOf(key, patternOfPointer(pointer))
      checks.push({ invariant: invariantOf(source, call.op), pointer, kind: source?.kind ?? 'state', expected: 'test' in e ? e.says : show(e.value), actual: show(got) })
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
      if (answeredId !== undefined && this.quoteIds.has(answeredId) && !call.overlapped) expected.set(`${prefix}/policy/id`, { test: () => false, says: `a new quote id (${answeredId} is another quote of the run)` })
      if (answeredId !== undefined) this.quoteIds.add(answeredId)
    } else {
      const asked = call.params['policyId'] ?? call.params['id']
      if (asked !== undefined) expected.set(`${prefix}/policy/id`, { value: asked, ids: true })
    }
    if (call.op === 'sales.quote.mta') {
      const sent = isObj(call.json) ? call.json : {}
      const policy = isObj(sent['policy']) ? sent['policy'] : {}
      if (policy['id'] !== undefined && getIn(doc, '/policy/policyId') !== undefined) expected.set(`${prefix}/policy/policyId`, { value: policy['id'], ids: true })
      for (const [k, v] of Object.entries(policy)) if (k !== 'id' && (v === null || typeof v !== 'object')) expected.set(`${prefix}/policy/${esc(k)}`, { value: v === null ? undefined : v })
      for (const block of ['customer'] as const) if (isObj(sent[block])) for (const l of leavesWithPatterns(sent[block], `/${block}`)) expected.set(`${prefix}${l.pointer}`, { value: l.value })
      return
    }
    if (call.overlapped) return
    const written = call.op === 'sales.quote.create' && isObj(call.json) ? new Map(leavesWithPatterns(call.json).map((l) => [l.pointer, l.value])) : call.quoteLeaves
    if (!written) return
    for (const [pointer, value] of written) expected.set(`${prefix}${pointer}`, { value })
  }

  /** The financials block under `at` of an answer: its rules, and the echo of the currency written. */
  private financials(call: AnswerCall, data: unknown, at: string, expected: Map<string, Expectation>, direct?: unknown): void {
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

  /** status, version and schemaPath of one quote agree between its answers while nothing writes it. */
  private agreeQuote(call: AnswerCall, quoteId: string | undefined, body: Json, res: HttpResult, checks: { invariant: InvariantId; pointer: string; kind: string; expected: string; actual: string }[]): void {
    if (quoteId === undefined || call.overlapped) return
    const q = this.quote(quoteId)
    const meta = isObj(body['meta']) ? body['meta'] : {}
    const now = { writes: q.writes, status: meta['status'], version: meta['version'], schemaPath: meta['schemaPath'], res }
    const before = q.shown
    if (before && !q.issuing) {
      for (const f of ['status', 'version', 'schemaPath'] as const) {
        if (f !== 'schemaPath' && before.writes !== q.writes) continue
        if (before[f] === undefined || now[f] === undefined || before[f] === now[f]) continue
        checks.push({ invariant: 'SL-INV-023', pointer: `/meta/${f}`, kind: 'agreement', expected: `${show(before[f])}, as the quote's ${before.writes === q.writes ? 'previous answer with no write in between' : 'other answers'} showed`, actual: show(now[f]) })
      }
    }
    q.shown = now
  }

  /** The financials an answer shows agree with the calculate answer, while nothing wrote the quote since. */
  private agreeCalculation(quoteId: string | undefined, f: unknown, at: string, _res: HttpResult, checks: { invariant: InvariantId; pointer: string; kind: string; expected: string; actual: string }[]): void {
    const c = quoteId !== undefined ? this.quotes.get(quoteId)?.calculated : undefined
    if (!c || !isObj(f) || c.writes !== this.quotes.get(quoteId!)!.writes) return
    for (const [k, v] of Object.entries(c.financials)) {
      if (f[k] === v || f[k] === undefined) continue
      checks.push({ invariant: 'SL-INV-023', pointer: `${at}/${esc(k)}`, kind: 'agreement', expected: `${show(v)}, as the calculate answer showed`, actual: show(f[k]) })
    }
  }

  /** A subscription's secret: its own in the create answer, the same in every later answer. */
  private subscription(call: AnswerCall, item: Json, prefix: string, res: HttpResult, checks: { invariant: InvariantId; pointer: string; kind: string; expected: string; actual: string }[]): void {
    const id = idOf(item['id'])
    if (id === undefined || item['secret'] === undefined) return
    const secret = createHash('sha256').update(JSON.stringify(item['secret'])).digest('hex')
    const fp = (h: string) => `a secret with sha256 ${h.slice(0, 12)}…`
    if (call.op === 'webhooks.subscription.create') {
      const other = this.secrets.get(secret)
      if (other !== undefined && other !== id) checks.push({ invariant: 'WH-INV-020', pointer: `${prefix}/secret`, kind: 'state', expected: 'a secret of its own', actual: `the secret of subscription ${other}` })
      this.secrets.set(secret, id)
      this.subscriptions.set(id, { secret, setBy: res })
      return
    }
    const known = this.subscriptions.get(id)
    if (!known || known.secret === secret) return
    checks.push({ invariant: 'WH-INV-021', pointer: `${prefix}/secret`, kind: 'agreement', expected: `${fp(known.secret)} (the create answer's)`, actual: fp(secret) })
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
  const area = op.startsWith('webhooks.') ? 'WH' : ['sales.quote.', 'sales.requests.'].some((p) => op.startsWith(p)) ? 'SL' : 'PL'
  const kind = source?.kind ?? 'state'
  if (area === 'WH') return kind === 'agreement' ? 'WH-INV-021' : 'WH-INV-020'
  if (area === 'SL') return kind === 'echo' ? 'SL-INV-020' : kind === 'rule' ? 'SL-INV-022' : kind === 'agreement' ? 'SL-INV-023' : 'SL-INV-021'
  return kind === 'echo' ? 'PL-INV-020' : kind === 'rule' ? 'PL-INV-022' : kind === 'agreement' ? 'PL-INV-023' : 'PL-INV-021'
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
