import fc from 'fast-check'
import { runningInvariants, withRunningCheck } from '../../helpers/checks/running'
import { getPointer } from '../../helpers/data/json-pointer'
import { documentIdOf } from '../../helpers/sales/documents'
import { perform, QUOTE_STATES, reachState, TABLE_OPERATIONS, type QuoteStateName, type TableOperation } from '../../helpers/sales/state-table'
import { pick, type ExploreModel, type World } from './world'

const EVENTS = ['extracted', 'export', 'validation-success'] as const

/** A step's invariants were broken: fast-check shrinks the sequence that led here. */
export class InvariantBroken extends Error {
  constructor(readonly step: string, readonly ids: string[]) {
    super(`${step}: broke ${ids.join(', ')}`)
    this.name = 'InvariantBroken'
  }
}

/** Options every step shares: the pacing (at most so many steps per second). */
export interface StepPacing {
  minIntervalMs: number
  last: { at: number }
}

/**
 * One generated operation on the target. run() sends it through the suite context (the model judges every answer),
 * logs it, and throws InvariantBroken when an answer broke an invariant. A step whose own flow fails (a lock never
 * released, a refused create) is logged and ends without judging more: the invariants are the only oracle here.
 */
abstract class Step implements fc.AsyncCommand<ExploreModel, World> {
  constructor(protected readonly pacing: StepPacing) {}
  abstract toString(): string
  abstract act(w: World): Promise<void>
  check(_m: Readonly<ExploreModel>): boolean {
    return true
  }
  update(_m: ExploreModel, _w: World): void {}

  async run(m: ExploreModel, w: World): Promise<void> {
    const wait = this.pacing.last.at + this.pacing.minIntervalMs - Date.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    this.pacing.last.at = Date.now()
    w.current = []
    const name = this.toString()
    const tally = await withRunningCheck(`explore > ${name}`, async () => {
      let error: string | undefined
      try {
        await this.act(w)
      } catch (e) {
        error = (e as Error).message
      }
      return { ...runningInvariants()!, error }
    })
    w.log.push({ step: name + (tally.error ? ` (flow stopped: ${w.t.redactor.text(tally.error).slice(0, 200)})` : ''), exchanges: w.current, evaluated: Object.keys(tally.evaluated), violations: tally.violations })
    this.update(m, w)
    if (tally.violations.length > 0) throw new InvariantBroken(name, [...new Set(tally.violations.map((v) => v.invariant))])
  }
}

class CreateSub extends Step {
  constructor(p: StepPacing, private readonly event: string) {
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
  constructor(p: StepPacing, private readonly k: number, private readonly change: string) {
    super(p)
  }
  override check(m: Readonly<ExploreModel>) {
    return m.subs > 0
  }
  toString() {
    return `update subscription #${this.k} (${this.change})`
  }
  async act(w: World) {
    const id = pick(w.subIds, this.k)!
    const json = this.change === 'url' ? { url: w.subs.url(`moved${this.k}`) } : this.change === 'invalid' ? { event: 'no-such-event' } : { event: this.change }
    await w.t.webhooks.call({ op: 'webhooks.subscription.update', params: { id }, json })
  }
}

class SubOp extends Step {
  constructor(p: StepPacing, private readonly k: number, private readonly op: 'get' | 'delete' | 'foreign-get' | 'foreign-update' | 'foreign-delete') {
    super(p)
  }
  override check(m: Readonly<ExploreModel>) {
    return m.subs > 0
  }
  toString() {
    return `${this.op} subscription #${this.k}`
  }
  async act(w: World) {
    const id = pick(w.subIds, this.k)!
    const other = w.t.user('otherTenant')
    const as = this.op.startsWith('foreign') ? (other ? { as: other } : undefined) : {}
    if (!as) return
    const op = this.op.endsWith('get') ? 'webhooks.subscription.get' : this.op.endsWith('delete') ? 'webhooks.subscription.delete' : 'webhooks.subscription.update'
    await w.t.webhooks.call({ op, params: { id }, ...as, ...(op === 'webhooks.subscription.update' ? { json: { url: w.subs.url('foreign') } } : {}) })
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

/** A new quote brought to a state through the API in one step (create, then calculate, referral, bind, issue as needed). */
class NewQuote extends Step {
  constructor(p: StepPacing, private readonly state: QuoteStateName) {
    super(p)
  }
  toString() {
    return `new quote in state ${this.state}`
  }
  override check(m: Readonly<ExploreModel>) {
    return m.quotes < 3
  }
  async act(w: World) {
    const q = await reachState(w.flow, w.t.config.product, this.state, `explore-${w.quoteIds.length}`)
    w.quoteIds.push(q.quoteId)
    if (!q.requestId) return
    w.requests.push({ id: q.requestId, quoteId: q.quoteId })
    const r = await w.t.sales.call({ op: 'sales.requests.get', params: { requestId: q.requestId } })
    const policyId = getPointer(r.body, w.flow.settings.policyIdPointer)
    if (typeof policyId === 'string' || typeof policyId === 'number') w.policies.push(String(policyId))
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, { quotes: w.quoteIds.length, requests: w.requests.length, documents: w.documents.length, policies: w.policies.length })
  }
}

class QuoteOp extends Step {
  constructor(p: StepPacing, private readonly k: number, private readonly op: TableOperation) {
    super(p)
  }
  override check(m: Readonly<ExploreModel>) {
    return m.quotes > 0
  }
  toString() {
    return `${this.op} quote #${this.k}`
  }
  async act(w: World) {
    const id = pick(w.quoteIds, this.k)!
    // the actions list first (sales §3 rule 4): the model judges the operation against it
    await w.flow.waitActions(id)
    const res = await perform(w.flow, id, this.op, w.t.config.product)
    if (res.status < 200 || res.status >= 300) return
    if (this.op === 'documents') {
      const doc = documentIdOf(res, w.flow.settings.documentIdFrom)
      if (doc !== undefined) {
        w.documents.push(doc)
        await w.t.sales.call({ op: 'sales.documents.download', params: { id: doc }, headers: { accept: '*/*' } })
      }
    }
    if (this.op === 'issue') {
      const requestId = w.flow.requestIdOf(res)
      if (!requestId) return
      w.requests.push({ id: requestId, quoteId: id })
      const r = await w.flow.waitRequest(requestId)
      const policyId = r.outcome === 'success' ? getPointer(r.value?.body, w.flow.settings.policyIdPointer) : undefined
      if (typeof policyId === 'string' || typeof policyId === 'number') w.policies.push(String(policyId))
    }
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, { requests: w.requests.length, documents: w.documents.length, policies: w.policies.length })
  }
}

class ReadQuote extends Step {
  constructor(p: StepPacing, private readonly k: number, private readonly what: 'get' | 'foreign') {
    super(p)
  }
  override check(m: Readonly<ExploreModel>) {
    return m.quotes > 0
  }
  toString() {
    return `${this.what === 'get' ? 'read' : 'read and update from another tenant'} quote #${this.k}`
  }
  async act(w: World) {
    const id = pick(w.quoteIds, this.k)!
    if (this.what === 'get') {
      await w.flow.waitActions(id)
      await w.flow.getQuote(id)
      return
    }
    const other = w.t.user('otherTenant')
    if (!other) return
    await w.t.sales.call({ op: 'sales.quote.get', params: { policyId: id }, as: other })
    await w.t.sales.call({ op: 'sales.quote.update', params: { policyId: id }, as: other, json: { policy: { externalReference: w.t.tag('foreign') } } })
  }
}

class ReadOther extends Step {
  constructor(p: StepPacing, private readonly k: number, private readonly what: 'request' | 'document' | 'totals' | 'invoices' | 'foreign-request' | 'foreign-document' | 'foreign-totals') {
    super(p)
  }
  override check(m: Readonly<ExploreModel>) {
    return this.what.endsWith('request') ? m.requests > 0 : this.what.endsWith('document') ? m.documents > 0 : m.policies > 0
  }
  toString() {
    return `${this.what} #${this.k}`
  }
  async act(w: World) {
    const foreign = this.what.startsWith('foreign')
    const other = w.t.user('otherTenant')
    if (foreign && !other) return
    const as = foreign ? { as: other! } : {}
    const kind = this.what.replace('foreign-', '')
    if (kind === 'request') await w.t.sales.call({ op: 'sales.requests.get', params: { requestId: pick(w.requests, this.k)!.id }, ...as })
    if (kind === 'document') await w.t.sales.call({ op: 'sales.documents.download', params: { id: pick(w.documents, this.k)! }, headers: { accept: '*/*' }, ...as })
    if (kind === 'totals') await w.t.sales.call({ op: 'sales.policy.period-totals', params: { id: pick(w.policies, this.k)! }, ...as })
    if (kind === 'invoices') await w.t.sales.call({ op: 'sales.policy.invoices', params: { policyId: pick(w.policies, this.k)! } })
  }
}

/** The generated operations, each equally likely: webhooks subscriptions, quotes in every state, requests, documents, policies. */
export function stepArbitraries(pacing: StepPacing): fc.Arbitrary<fc.AsyncCommand<ExploreModel, World>>[] {
  const k = fc.nat({ max: 99 })
  // quote operations weigh more: a state defect needs a quote in the state and the operation on it
  const w = (arbitrary: fc.Arbitrary<fc.AsyncCommand<ExploreModel, World>>, weight: number) => ({ arbitrary, weight })
  return [
    fc.oneof(
      w(fc.constantFrom(...EVENTS).map((e) => new CreateSub(pacing, e)), 2),
      w(fc.tuple(k, fc.constantFrom('url', 'invalid', ...EVENTS)).map(([i, c]) => new UpdateSub(pacing, i, c)), 2),
      w(fc.tuple(k, fc.constantFrom('get', 'delete', 'foreign-get', 'foreign-update', 'foreign-delete' as const)).map(([i, op]) => new SubOp(pacing, i, op)), 2),
      w(fc.constant(null).map(() => new ListSubs(pacing)), 1),
      w(fc.constantFrom(...QUOTE_STATES).map((st) => new NewQuote(pacing, st)), 3),
      w(fc.tuple(k, fc.constantFrom(...TABLE_OPERATIONS)).map(([i, op]) => new QuoteOp(pacing, i, op)), 4),
      w(fc.tuple(k, fc.constantFrom('get', 'foreign' as const)).map(([i, x]) => new ReadQuote(pacing, i, x)), 2),
      w(fc.tuple(k, fc.constantFrom('request', 'document', 'totals', 'invoices', 'foreign-request', 'foreign-document', 'foreign-totals' as const)).map(([i, x]) => new ReadOther(pacing, i, x)), 2),
    ),
  ]
}
