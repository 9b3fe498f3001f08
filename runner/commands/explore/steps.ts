import fc from 'fast-check'
import { getPointer } from '../../../helpers/client/data/json-pointer'
import { documentIdOf } from '../../../helpers/oracle/documents'
import {
  perform,
  QUOTE_STATES,
  reachState,
  TABLE_OPERATIONS,
  type QuoteStateName,
  type TableOperation,
} from '../../../helpers/checks/sales/state-table'
import { takeExpiredToken, expiryLeewaySeconds, msUntilExpired } from '../../../helpers/client/auth/expiring-token'
import { getPointer as at } from '../../../helpers/client/data/json-pointer'
import { addDays, daysBetween } from '../../../helpers/checks/policies/dates'
import { roundMoney } from '../../../helpers/checks/policies/money'
import { deepMerge, fillTemplate } from '../../../helpers/checks/policies/template'
import { setPointer } from '../../../helpers/checks/sales/json-set'
import { resolveDateToken } from '../../../helpers/checks/sales/date-tokens'
import { schemaAt } from '../../../helpers/oracle/real-world'
import { pick, type ExploreAction, type ExploreModel, type World } from './world'
import { parallelStepArbitraries } from './parallel-steps'
import { Step, type StepPacing } from './step'

const EVENTS = ['extracted', 'export', 'validation-success'] as const

export { InvariantBroken, Step, type StepPacing } from './step'

/** How often a step is drawn from the exercise model's cells, against the 35 of the other families together. */
const CELL_WEIGHT = 6

/**
 * What a step does right after its write, on the same subscription and as the same caller: nothing; read it back (the
 * subscription, then the list); read it back, then update its url and read it again.
 */
const FOLLOW_UPS = ['none', 'read', 'read-update'] as const
type FollowUp = (typeof FOLLOW_UPS)[number]

async function followUp(w: World, id: string, then: FollowUp): Promise<void> {
  if (then === 'none') return
  const read = () => w.t.webhooks.call({ op: 'webhooks.subscription.get', params: { id } })
  await read()
  await w.t.webhooks.call({ op: 'webhooks.subscriptions.list' })
  if (then === 'read') return
  await w.t.webhooks.call({ op: 'webhooks.subscription.update', params: { id }, json: { url: w.subs.url('then') } })
  await read()
}

const suffix = (then: FollowUp) =>
  then === 'none' ? '' : then === 'read' ? ', then read it and list' : ', then read it, list, update its url, read it'

class CreateSub extends Step {
  constructor(
    p: StepPacing,
    private readonly event: string,
  ) {
    super(p)
  }
  toString() {
    return `create subscription (${this.event})`
  }
  async act(w: World) {
    const c = await w.subs.create(this.event, w.subs.url(`x${w.subIds.length}`))
    if (c.id !== undefined) w.subIds.push(c.id)
  }
  override update(m: ExploreModel, w: World) {
    m.subs = w.subIds.length
  }
}

class UpdateSub extends Step {
  constructor(
    p: StepPacing,
    private readonly k: number,
    private readonly change: string,
    private readonly then: FollowUp,
  ) {
    super(p)
  }
  override check(m: Readonly<ExploreModel>) {
    return m.subs > 0
  }
  toString() {
    return `update subscription #${this.k} (${this.change})${suffix(this.then)}`
  }
  async act(w: World) {
    const id = pick(w.subIds, this.k)!
    const json =
      this.change === 'url'
        ? { url: w.subs.url(`moved${this.k}`) }
        : this.change === 'invalid'
          ? { event: 'no-such-event' }
          : { event: this.change }
    await w.t.webhooks.call({ op: 'webhooks.subscription.update', params: { id }, json })
    await followUp(w, id, this.then)
  }
}

/** A read or a delete of one subscription, and what follows it. */
class SubOp extends Step {
  constructor(
    p: StepPacing,
    private readonly k: number,
    private readonly op: 'get' | 'delete',
    private readonly then: FollowUp,
  ) {
    super(p)
  }
  override check(m: Readonly<ExploreModel>) {
    return m.subs > 0
  }
  toString() {
    return `${this.op} subscription #${this.k}${suffix(this.then)}`
  }
  async act(w: World) {
    const id = pick(w.subIds, this.k)!
    await w.t.webhooks.call({
      op: this.op === 'get' ? 'webhooks.subscription.get' : 'webhooks.subscription.delete',
      params: { id },
    })
    await followUp(w, id, this.then)
  }
}

class ListSubs extends Step {
  toString() {
    return 'list subscriptions'
  }
  async act(w: World) {
    await w.t.webhooks.call({ op: 'webhooks.subscriptions.list' })
  }
}

/**
 * Every kind of resource the sequence made, read (and written, for subscriptions and quotes) by a user of another
 * tenant (users.otherTenant; skipped when the profile has none): the model requires each answer to be a refusal.
 */
class ForeignProbe extends Step {
  constructor(
    p: StepPacing,
    private readonly k: number,
  ) {
    super(p)
  }
  override check(m: Readonly<ExploreModel>) {
    return m.subs + m.quotes > 0
  }
  toString() {
    return `another tenant tries resource #${this.k} of each kind`
  }
  async act(w: World) {
    const as = w.t.user('otherTenant')
    if (!as) return
    const sub = pick(w.subIds, this.k)
    if (sub !== undefined) {
      await w.t.webhooks.call({ op: 'webhooks.subscription.get', params: { id: sub }, as })
      await w.t.webhooks.call({
        op: 'webhooks.subscription.update',
        params: { id: sub },
        as,
        json: { url: w.subs.url('foreign') },
      })
      await w.t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id: sub }, as })
    }
    const quote = pick(w.quoteIds, this.k)
    if (quote !== undefined) {
      await w.t.sales.call({ op: 'sales.quote.get', params: { policyId: quote }, as })
      await w.t.sales.call({
        op: 'sales.quote.update',
        params: { policyId: quote },
        as,
        json: { policy: { externalReference: w.t.tag('foreign') } },
      })
    }
    const request = pick(w.requests, this.k)
    if (request) await w.t.sales.call({ op: 'sales.requests.get', params: { requestId: request.id }, as })
    const doc = pick(w.documents, this.k)
    if (doc !== undefined)
      await w.t.sales.call({ op: 'sales.documents.download', params: { id: doc }, headers: { accept: '*/*' }, as })
    const policy = pick(w.policies, this.k)
    if (policy) {
      await w.t.sales.call({ op: 'sales.policy.links', params: { policyId: policy.id }, as })
      await w.api.invoices(policy.id, as)
      await w.api.totals(policy.id, as)
    }
  }
}

/**
 * Reads with a token past its exp (plus the profile's leeway): the profile's users.expired, or users.shortLived once
 * expired (no wait: skipped while it is not). The subscription list and subscription #k, the product schema, quote #k,
 * the period totals of policy #k: the model requires each answer to be a refusal.
 */
class ExpiredProbe extends Step {
  constructor(
    p: StepPacing,
    private readonly k: number,
  ) {
    super(p)
  }
  toString() {
    return `reads with an expired token (#${this.k})`
  }
  async act(w: World) {
    const token = await takeExpiredToken(w.t)
    if (!token || msUntilExpired(token, expiryLeewaySeconds(w.t)) > 0) return
    const bearer = token.token
    await w.t.webhooks.call({ op: 'webhooks.subscriptions.list', bearer })
    const sub = pick(w.subIds, this.k)
    if (sub !== undefined) await w.t.webhooks.call({ op: 'webhooks.subscription.get', params: { id: sub }, bearer })
    await w.t.sales.call({
      op: 'sales.schemes.get',
      params: { type: w.flow.settings.schemaType, name: w.t.config.product },
      bearer,
    })
    const quote = pick(w.quoteIds, this.k)
    if (quote !== undefined) await w.t.sales.call({ op: 'sales.quote.get', params: { policyId: quote }, bearer })
    const policy = pick(w.policies, this.k)
    if (policy) await w.t.sales.call({ op: 'sales.policy.period-totals', params: { id: policy.id }, bearer })
  }
}

/** Policy #k of the sequence; when the sequence has none yet, one is issued first. */
/**
 * Sends an MTA and takes its quote through calculate, bind and issue (waiting for the issue's request); stops at the
 * first refusal. Shared by the MTA step and the exercise model's MTA cells (cell-steps.ts).
 */
export async function mtaIssued(w: World, body: unknown): Promise<void> {
  const res = await w.api.mta(body)
  const id = at(res.body, w.api.s.mta.quoteIdPointer)
  if (res.status >= 300 || (typeof id !== 'string' && typeof id !== 'number')) return
  const mtaId = String(id)
  w.flow.created.set(mtaId, { product: w.t.config.product, final: false })
  for (const op of ['calculate', 'bind', 'issue'] as const) {
    await w.flow.unlocked(mtaId, `the MTA quote before ${op}`)
    const r = await perform(w.flow, mtaId, op, w.t.config.product)
    if (r.status >= 300) return
    if (op === 'issue') {
      w.flow.markFinal(mtaId)
      const requestId = w.flow.requestIdOf(r)
      if (requestId) await w.flow.waitRequest(requestId)
    }
  }
}

export async function policyOrNew(w: World, k: number): Promise<World['policies'][number] | undefined> {
  if (w.policies.length === 0) await newQuote(w, 'issued')
  return pick(w.policies, k)
}

/** Issues new policies until the sequence has n; false when an issue made none. */
export async function policiesAtLeast(w: World, n: number): Promise<boolean> {
  while (w.policies.length < n) {
    const before = w.policies.length
    await newQuote(w, 'issued')
    if (w.policies.length === before) return false
  }
  return true
}

/** Brings a new quote to a state (create, then calculate, referral, bind, issue as needed) and records what it made. */
export async function newQuote(w: World, state: QuoteStateName): Promise<string> {
  const q = await reachState(w.flow, w.t.config.product, state, `explore-${w.quoteIds.length}`)
  w.quoteIds.push(q.quoteId)
  w.payloads.set(q.quoteId, q.payload)
  if (q.requestId) {
    w.requests.push({ id: q.requestId, quoteId: q.quoteId })
    const r = await w.t.sales.call({ op: 'sales.requests.get', params: { requestId: q.requestId } })
    const policyId = getPointer(r.body, w.flow.settings.policyIdPointer)
    if (typeof policyId === 'string' || typeof policyId === 'number')
      w.policies.push({ id: String(policyId), quoteId: q.quoteId })
  }
  return q.quoteId
}

const counts = (w: World) => ({
  quotes: w.quoteIds.length,
  requests: w.requests.length,
  documents: w.documents.length,
  policies: w.policies.length,
})

/**
 * One quote operation after reading the actions list (sales §3 rule 4: the model judges the operation against it);
 * a generated document is downloaded, an issue's request followed to its end; then the actions and the quote are read
 * back (the model judges the data, the types and the list after the operation).
 */
async function operate(w: World, id: string, op: TableOperation): Promise<void> {
  await w.flow.waitActions(id)
  const res = await perform(w.flow, id, op, w.t.config.product)
  if (res.status >= 200 && res.status < 300) {
    if (op === 'documents') {
      const doc = documentIdOf(res, w.flow.settings.documentIdFrom)
      if (doc !== undefined) {
        w.documents.push(doc)
        await w.t.sales.call({ op: 'sales.documents.download', params: { id: doc }, headers: { accept: '*/*' } })
      }
    }
    if (op === 'issue') {
      const requestId = w.flow.requestIdOf(res)
      if (requestId) {
        w.requests.push({ id: requestId, quoteId: id })
        const r = await w.flow.waitRequest(requestId)
        const policyId =
          r.outcome === 'success' ? getPointer(r.value?.body, w.flow.settings.policyIdPointer) : undefined
        if (typeof policyId === 'string' || typeof policyId === 'number')
          w.policies.push({ id: String(policyId), quoteId: id })
      }
    }
  }
  await w.flow.waitActions(id)
  await w.flow.getQuote(id)
}

/** A new quote in a state, shown in its actions list (and its request and policy when issued). */
class NewQuote extends Step {
  constructor(
    p: StepPacing,
    private readonly state: QuoteStateName,
  ) {
    super(p)
  }
  toString() {
    return `new quote in state ${this.state}`
  }
  override check(m: Readonly<ExploreModel>) {
    return m.quotes < 12
  }
  async act(w: World) {
    await newQuote(w, this.state)
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, counts(w))
  }
}

/** Any quote operation in any state the API reaches: a new quote brought to the state, then the operation. */
class OperationInState extends Step {
  constructor(
    p: StepPacing,
    private readonly state: QuoteStateName,
    private readonly op: TableOperation,
  ) {
    super(p)
  }
  toString() {
    return `${this.op} a new quote in state ${this.state}`
  }
  override check(m: Readonly<ExploreModel>) {
    return m.quotes < 12
  }
  async act(w: World) {
    await operate(w, await newQuote(w, this.state), this.op)
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, counts(w))
  }
}

/**
 * One quote operation in every state the API reaches: per state a new quote brought to it, then the operation (as in
 * OperationInState). A state whose quote could not be reached is passed over; the first such failure ends the step's
 * log.
 */
class OperationInEveryState extends Step {
  constructor(
    p: StepPacing,
    private readonly op: TableOperation,
  ) {
    super(p)
  }
  toString() {
    return `${this.op} a new quote in each state (${QUOTE_STATES.join(', ')})`
  }
  override check(m: Readonly<ExploreModel>) {
    return m.quotes < 12
  }
  async act(w: World) {
    let failure: unknown
    for (const state of QUOTE_STATES) {
      try {
        await operate(w, await newQuote(w, state), this.op)
      } catch (e) {
        failure ??= e
      }
    }
    if (failure !== undefined) throw failure
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, counts(w))
  }
}

/** Any quote operation on a quote the sequence made (whatever state earlier steps left it in). */
class QuoteOp extends Step {
  constructor(
    p: StepPacing,
    private readonly k: number,
    private readonly op: TableOperation,
  ) {
    super(p)
  }
  override check(m: Readonly<ExploreModel>) {
    return m.quotes > 0
  }
  toString() {
    return `${this.op} quote #${this.k}`
  }
  async act(w: World) {
    await operate(w, pick(w.quoteIds, this.k)!, this.op)
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, counts(w))
  }
}

const READ_KINDS = ['quote', 'request', 'document', 'totals', 'invoices', 'links'] as const
type Read = (typeof READ_KINDS)[number]

/**
 * A read of a quote (its actions, then its data), a request, a document or a policy (links, invoices, period totals).
 */
class ReadOne extends Step {
  constructor(
    p: StepPacing,
    private readonly k: number,
    private readonly what: Read,
  ) {
    super(p)
  }
  override check(m: Readonly<ExploreModel>) {
    return this.what === 'quote'
      ? m.quotes > 0
      : this.what === 'request'
        ? m.requests > 0
        : this.what === 'document'
          ? m.documents > 0
          : m.policies > 0
  }
  toString() {
    return `read ${this.what} #${this.k}${this.what === 'invoices' ? ', then the totals' : ''}`
  }
  async act(w: World) {
    const kind = this.what
    if (kind === 'quote') {
      const id = pick(w.quoteIds, this.k)!
      await w.flow.waitActions(id)
      await w.flow.getQuote(id)
    }
    if (kind === 'request')
      await w.t.sales.call({ op: 'sales.requests.get', params: { requestId: pick(w.requests, this.k)!.id } })
    if (kind === 'document')
      await w.t.sales.call({
        op: 'sales.documents.download',
        params: { id: pick(w.documents, this.k)! },
        headers: { accept: '*/*' },
      })
    const policy = pick(w.policies, this.k)?.id
    if (policy === undefined) return
    if (kind === 'totals') await w.api.totals(policy)
    if (kind === 'links') await w.t.sales.call({ op: 'sales.policy.links', params: { policyId: policy } })
    if (kind === 'invoices') {
      await w.api.invoices(policy)
      await w.api.totals(policy) // a money read: the balance after it
    }
  }
}

/**
 * A money operation on a policy the sequence issued, between two reads of its period totals (the model judges the
 * balance after every operation, PL-INV-001, and that paid and premium moved by what the operation moved, PL-INV-002):
 * a manual termination, a payment allocated to its first invoice, a credit of that allocation, a mid-term adjustment
 * (the profile's MTA change through a new quote: calculate, bind, issue).
 */
class MoneyOp extends Step {
  constructor(
    p: StepPacing,
    private readonly k: number,
    private readonly op: 'terminate' | 'allocate' | 'credit' | 'mta',
  ) {
    super(p)
  }
  toString() {
    return `${this.op} policy #${this.k} (a new one when the sequence has none), the totals read before and after`
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, counts(w))
  }
  async act(w: World) {
    const policy = await policyOrNew(w, this.k)
    if (!policy) return
    const api = w.api
    const s = api.s
    await api.links(policy.id)
    await api.totals(policy.id)
    try {
      if (this.op === 'allocate' || this.op === 'credit') {
        const first = api.readInvoices(await api.invoices(policy.id))?.[0]
        if (!first || first.amount === undefined || first.invoicenumber === '') return
        const amount = roundMoney(first.amount * 0.5)
        const pay = await api.insertPayment(amount, new Date().toISOString().slice(0, 10))
        const paymentId = api.paymentIdOf(pay)
        if (paymentId === undefined) return
        const events =
          api.eventIdsOf(await api.allocate(paymentId, [{ invoicenumber: first.invoicenumber, amount }])) ?? []
        for (const e of events) w.allocations.add(e)
        if (this.op === 'credit') {
          await api.totals(policy.id)
          for (const e of events) if ((await api.credit(e)).status < 300) w.allocations.delete(e)
        }
        return
      }
      const links = await api.links(policy.id)
      const inception = at(links.body, s.links.dateInceptionPointer)
      const expiry = at(links.body, s.links.dateExpiryPointer)
      if (typeof inception !== 'string' || typeof expiry !== 'string') return
      const span = Math.max(0, daysBetween(inception, expiry) - 1)
      if (this.op === 'terminate') {
        const premium = api.readTotals(await api.totals(policy.id)).premium
        if (premium === undefined) return
        await api.terminate(policy.id, {
          date: addDays(inception, Math.min(s.termination.afterDays, span)),
          sum: roundMoney(premium * 0.37),
        })
        return
      }
      const payload = w.payloads.get(policy.quoteId)
      if (!payload) return
      const vars = api.vars({
        policyId: policy.id,
        dateEffective: addDays(inception, Math.min(s.mta.effectiveAfterDays, span)),
      })
      const body = structuredClone(payload)
      for (const [ptr, v] of Object.entries(fillTemplate(s.mta.set, vars) as Record<string, unknown>))
        setPointer(body, ptr, v)
      await mtaIssued(w, deepMerge(body, fillTemplate(s.mta.body, vars)))
    } finally {
      await api.totals(policy.id)
      await api.links(policy.id)
    }
  }
}

/**
 * One payment allocated in one request to the first invoice of two policies (policy #k and the one after it; issued
 * first while the sequence has fewer than two), then each allocation event credited in turn; the period totals of both
 * policies read before, between and after (PL-INV-002: each policy's paid moves by exactly its own allocations minus
 * its own credits, so an amount booked on the wrong policy or a credit reversing the other event breaks it).
 */
class SplitPayment extends Step {
  constructor(
    p: StepPacing,
    private readonly k: number,
  ) {
    super(p)
  }
  toString() {
    return `a payment split across the first invoices of policies #${this.k} and #${this.k + 1} (issued when the sequence has fewer than two), then each allocation credited, both totals read between`
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, counts(w))
  }
  async act(w: World) {
    if (!(await policiesAtLeast(w, 2))) return
    const i = this.k % w.policies.length
    const both = [w.policies[i]!, w.policies[(i + 1) % w.policies.length]!]
    const api = w.api
    const totals = async () => {
      for (const p of both) await api.totals(p.id)
    }
    const wanted: { invoicenumber: string; amount: number }[] = []
    for (const p of both) {
      const first = api.readInvoices(await api.invoices(p.id))?.[0]
      if (!first || first.amount === undefined || first.invoicenumber === '') return
      wanted.push({ invoicenumber: first.invoicenumber, amount: roundMoney(first.amount * 0.5) })
    }
    await totals()
    const pay = await api.insertPayment(
      roundMoney(wanted.reduce((sum, a) => sum + a.amount, 0)),
      new Date().toISOString().slice(0, 10),
    )
    const paymentId = api.paymentIdOf(pay)
    if (paymentId === undefined) return
    const events = api.eventIdsOf(await api.allocate(paymentId, wanted)) ?? []
    for (const e of events) w.allocations.add(e)
    await totals()
    for (const e of events) {
      if ((await api.credit(e)).status < 300) w.allocations.delete(e)
      await totals()
    }
  }
}

/**
 * Every view of a policy and of the quote it was issued from (the model judges what they show: PL-INV-003..006). The
 * customer custom view is read only when the sequence has issued two policies or more: what it shows may depend on
 * the tenant's other policies, and a replay must find them on a fresh target too (the custom-view step and the split
 * payment issue the second one).
 */
async function readPolicyViews(w: World, policy: { id: string; quoteId: string }): Promise<void> {
  const links = await w.api.links(policy.id)
  await w.api.invoices(policy.id)
  await w.api.totals(policy.id)
  await w.flow.calculation(policy.quoteId)
  await w.flow.installments(policy.quoteId)
  const identity = (w.t.config.features['customer_identity'] as { params?: Record<string, string> } | undefined)?.params
  if (identity && Object.keys(identity).length > 0 && links.status === 200 && w.policies.length >= 2) {
    const data = at(links.body, w.api.s.links.dataPointer)
    const query = Object.fromEntries(Object.entries(identity).map(([name, ptr]) => [name, String(at(data, ptr) ?? '')]))
    await w.api.customView(policy.id, query)
  }
  await w.api.links(policy.id)
}

const POLICY_VIEW_OPS = ['renewal', 'termination-quote', 'custom-view', 'data-change', 'views'] as const
type PolicyViewOp = (typeof POLICY_VIEW_OPS)[number]

/**
 * An operation on a policy that must change nothing of its money, number, dates, quotes or documents (issue 29): a
 * renewal preparation, a termination premium quote, a read of the customer custom view (with a second policy of the
 * tenant issued first when the sequence has fewer than two: each policy's view shows its own installments), a
 * technical change of its non-financial data, or nothing; every view of the policy read before and after
 * (PL-INV-003..006 judge them).
 */
class PolicyView extends Step {
  constructor(
    p: StepPacing,
    private readonly k: number,
    private readonly op: PolicyViewOp,
  ) {
    super(p)
  }
  toString() {
    return `${
      this.op === 'views' ? 'read' : `${this.op} of`
    } policy #${this.k} (a new one when the sequence has none), every view read before and after`
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, counts(w))
  }
  async act(w: World) {
    // the custom view of one of two policies of the tenant: each must show its own installments (PL-INV-006)
    if (this.op === 'custom-view') await policiesAtLeast(w, 2)
    const policy = await policyOrNew(w, this.k)
    if (!policy) return
    const api = w.api
    const s = api.s
    await readPolicyViews(w, policy)
    if (this.op === 'renewal') await api.renewal(policy.id)
    if (this.op === 'custom-view') await readPolicyViews(w, policy)
    if (this.op === 'data-change') {
      const body: Record<string, unknown> = {}
      for (const [ptr, v] of Object.entries(fillTemplate(s.technicalChange.set, api.vars()) as Record<string, unknown>))
        setPointer(body, ptr, v)
      await api.dataChange(policy.id, body)
    }
    if (this.op === 'termination-quote') {
      const links = await api.links(policy.id)
      const inception = at(links.body, s.links.dateInceptionPointer)
      const expiry = at(links.body, s.links.dateExpiryPointer)
      if (typeof inception !== 'string' || typeof expiry !== 'string') return
      await api.terminationPremiums(policy.id, {
        type: 'pro-rata',
        date: addDays(inception, Math.min(s.termination.afterDays, Math.max(0, daysBetween(inception, expiry) - 1))),
      })
    }
    await readPolicyViews(w, policy)
  }
}

/**
 * A new calculated quote (created with other values than the profile's update sets), its calculation, schedule and
 * actions read; changed by the profile's update and calculated again; then its calculation, schedule and actions read
 * again, the actions twice (PL-INV-004: the views agree, the new calculation's, and both answer; SL-INV-010: the list
 * holds). With `issue`, the quote is then bound and issued (each read back as in QuoteOp) and every view of its policy
 * read (PL-INV-003: the policy carries the data as updated, not as created; PL-INV-004..006).
 */
class Recalculate extends Step {
  constructor(
    p: StepPacing,
    private readonly issue: boolean,
  ) {
    super(p)
  }
  toString() {
    return `a new calculated quote changed and calculated again, its calculation, schedule and actions read before and after${this.issue ? '; then bound and issued, every view of its policy read' : ''}`
  }
  override check(m: Readonly<ExploreModel>) {
    return m.quotes < 12
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, counts(w))
  }
  async act(w: World) {
    const product = w.t.config.product
    const update = w.flow.payloadOverrides(product).update ?? { '/policy/paymentFrequency': 'annual' }
    const schema = await w.flow.schema(product)
    const set: Record<string, unknown> = {}
    for (const [pointer, value] of Object.entries(update)) {
      const other = (schemaAt(schema, pointer) as { enum?: unknown[] } | undefined)?.enum?.find(
        (o) => o !== resolveDateToken(value, new Date()),
      )
      if (other !== undefined) set[pointer] = other
    }
    const q = await w.flow.calculatedQuote(product, { label: `explore-${w.quoteIds.length}`, set, unlike: update })
    w.quoteIds.push(q.quoteId)
    w.payloads.set(q.quoteId, q.payload)
    const reads = async () => {
      await w.flow.calculation(q.quoteId)
      await w.flow.installments(q.quoteId)
      await w.flow.waitActions(q.quoteId)
    }
    await reads()
    const json: Record<string, unknown> = {}
    for (const [pointer, value] of Object.entries(update))
      setPointer(json, pointer, resolveDateToken(value, new Date()))
    if ((await w.flow.update(q.quoteId, json)).status >= 300) return
    await w.flow.waitActions(q.quoteId)
    if ((await w.flow.calculate(q.quoteId)).status >= 300) return
    await w.flow.waitActions(q.quoteId)
    await reads()
    await w.flow.waitActions(q.quoteId)
    if (!this.issue) return
    // the recalculated quote issued: its policy carries the data as last written (PL-INV-003), its views agree
    await operate(w, q.quoteId, 'bind')
    await operate(w, q.quoteId, 'issue')
    const policy = w.policies.find((p) => p.quoteId === q.quoteId)
    if (policy) await readPolicyViews(w, policy)
  }
}

/**
 * A step drawn from the exercise model's cells (runner/commands/explore/cell-steps.ts): what it does is the action's.
 */
class ActionStep extends Step {
  constructor(
    p: StepPacing,
    private readonly action: ExploreAction,
  ) {
    super(p)
  }
  toString() {
    return this.action.name
  }
  async act(w: World) {
    await this.action.act(w)
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, counts(w), { subs: w.subIds.length })
  }
}

/**
 * The generated operations: webhooks subscriptions (each write followed by a read, a list, an update or nothing),
 * quotes (any operation in any state the API reaches, or on a quote an earlier step made), reads of quotes, requests,
 * documents and policies, money operations on policies, a payment split across two policies then credited, every
 * view of a policy around a read or a change, a recalculation of a changed quote (then issued in half the draws),
 * probes from another tenant and with an expired token. Quotes carry the suites' generated payloads (real-world data
 * included, helpers/checks/sales/payload.ts). The quote operations weigh most (42 operation x state pairs; one
 * operation in every state covers 6 at once).
 * `cells`: the exercise model's cells as actions (runner/commands/explore/cell-steps.ts), drawn beside the others
 * (issue 40).
 */
export function stepArbitraries(
  pacing: StepPacing,
  cells?: fc.Arbitrary<ExploreAction>,
): fc.Arbitrary<fc.AsyncCommand<ExploreModel, World>>[] {
  const k = fc.nat({ max: 99 })
  const then = fc.constantFrom(...FOLLOW_UPS)
  const change = fc.oneof(fc.constantFrom('url', 'invalid'), fc.constantFrom(...EVENTS))
  const w = (arbitrary: fc.Arbitrary<fc.AsyncCommand<ExploreModel, World>>, weight: number) => ({ arbitrary, weight })
  return [
    fc.oneof(
      w(
        fc.constantFrom(...EVENTS).map((e) => new CreateSub(pacing, e)),
        3,
      ),
      w(
        fc.tuple(k, change, then).map(([i, c, r]) => new UpdateSub(pacing, i, c, r)),
        3,
      ),
      w(
        fc.tuple(k, fc.constantFrom('get', 'delete' as const), then).map(([i, op, r]) => new SubOp(pacing, i, op, r)),
        3,
      ),
      w(
        fc.constant(null).map(() => new ListSubs(pacing)),
        1,
      ),
      w(
        fc.constantFrom(...QUOTE_STATES).map((st) => new NewQuote(pacing, st)),
        2,
      ),
      w(
        fc
          .tuple(fc.constantFrom(...QUOTE_STATES), fc.constantFrom(...TABLE_OPERATIONS))
          .map(([st, op]) => new OperationInState(pacing, st, op)),
        3,
      ),
      w(
        fc.constantFrom(...TABLE_OPERATIONS).map((op) => new OperationInEveryState(pacing, op)),
        2,
      ),
      w(
        fc.tuple(k, fc.constantFrom(...TABLE_OPERATIONS)).map(([i, op]) => new QuoteOp(pacing, i, op)),
        2,
      ),
      w(
        fc.tuple(k, fc.constantFrom(...READ_KINDS)).map(([i, x]) => new ReadOne(pacing, i, x)),
        3,
      ),
      w(
        fc
          .tuple(k, fc.constantFrom('terminate', 'allocate', 'credit', 'mta' as const))
          .map(([i, op]) => new MoneyOp(pacing, i, op)),
        3,
      ),
      w(
        k.map((i) => new SplitPayment(pacing, i)),
        1,
      ),
      w(
        fc.tuple(k, fc.constantFrom(...POLICY_VIEW_OPS)).map(([i, op]) => new PolicyView(pacing, i, op)),
        3,
      ),
      w(
        fc.boolean().map((issue) => new Recalculate(pacing, issue)),
        1,
      ),
      w(
        k.map((i) => new ForeignProbe(pacing, i)),
        2,
      ),
      w(
        k.map((i) => new ExpiredProbe(pacing, i)),
        1,
      ),
      ...parallelStepArbitraries(pacing),
      ...(cells
        ? [
            w(
              cells.map((a) => new ActionStep(pacing, a)),
              CELL_WEIGHT,
            ),
          ]
        : []),
    ),
  ]
}
