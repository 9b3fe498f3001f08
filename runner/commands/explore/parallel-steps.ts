import fc from 'fast-check'
import { getPointer } from '../../../helpers/client/data/json-pointer'
import type { HttpResult } from '../../../helpers/client/http/types'
import { asClient } from '../../../helpers/client/http/running-check'
import { roundMoney } from '../../../helpers/checks/policies/money'
import { resolveDateToken } from '../../../helpers/checks/sales/date-tokens'
import { setPointer } from '../../../helpers/checks/sales/json-set'
import { reachState } from '../../../helpers/checks/sales/state-table'
import { pick, type ExploreModel, type World } from './world'
import { Step, type StepPacing } from './step'

/**
 * Explore's parallel steps (issue 41): two (or more) operations on one resource sent at once, then read back. What
 * each answer may be is the run history's to judge (helpers/oracle/run-history.ts: SL-INV-050 a quote's data,
 * SL-INV-051 its issue, PL-INV-050 a policy's paid, PL-INV-051 a payment, WH-INV-050 a subscription): some order of
 * the operations that respects real time must explain every answer and the reads after them.
 *
 * The order in which the calls are sent is fast-check's: each step carries a `fc.scheduler()` whose seed-derived choice
 * releases the calls one after the other in the same event-loop turn (all of them in flight together). The scheduler
 * decides the order of sending, never the target's order of serving (the network and the target decide that): a
 * failure replays with the same sending order, not necessarily the same interleaving (docs/concurrency.md).
 */

/**
 * Sends the calls in the scheduler's order, all before any answer is awaited; resolves to their answers in call order.
 */
export async function sendTogether(
  s: fc.Scheduler,
  calls: readonly (() => Promise<HttpResult>)[],
): Promise<HttpResult[]> {
  const started: Promise<HttpResult>[] = new Array(calls.length)
  // each call as a client of its own: its own lane in the history's timeline
  const releases = calls.map((send, i) =>
    s.schedule(Promise.resolve(i)).then(() => void (started[i] = asClient(`client ${i + 1}`, send))),
  )
  await s.waitNext(calls.length)
  await Promise.all(releases)
  return Promise.all(started)
}

const scheduled = (s: fc.Scheduler) => ` (sent in the order ${orderOf(s)})`
/** The order the scheduler released the calls in, as the step's name shows it once run (fast-check's own report). */
function orderOf(s: fc.Scheduler): string {
  const report = s
    .report()
    .filter((r) => r.status === 'resolved')
    .map((r) => String(r.outputValue))
  return report.length > 0 ? report.map((i) => `#${Number(i) + 1}`).join(', ') : 'not yet drawn'
}

abstract class ParallelStep extends Step {
  override readonly parallel = true
  constructor(
    pacing: StepPacing,
    protected readonly s: fc.Scheduler,
  ) {
    super(pacing)
  }
  abstract what(): string
  toString() {
    return `${this.what()}${scheduled(this.s)}`
  }
  /** A copy with a fresh copy of its scheduler: a replay of the sequence sends in the same order (fc.cloneMethod). */
  [fc.cloneMethod](): this {
    const copy = Object.assign(Object.create(Object.getPrototypeOf(this)) as this, this)
    Object.assign(copy, { s: (this.s as unknown as { [fc.cloneMethod](): fc.Scheduler })[fc.cloneMethod]() })
    return copy
  }
}

/** An update of a subscription and a delete of it (or another update) at once, then a read. */
export class ParallelSubWrites extends ParallelStep {
  constructor(
    p: StepPacing,
    s: fc.Scheduler,
    private readonly k: number,
    private readonly with_: 'delete' | 'update',
  ) {
    super(p, s)
  }
  override check(m: Readonly<ExploreModel>) {
    return m.subs > 0
  }
  what() {
    return `update subscription #${this.k} and ${
      this.with_ === 'delete' ? 'delete it' : 'update its event'
    } at once, then read it`
  }
  async act(w: World) {
    const id = pick(w.subIds, this.k)!
    await sendTogether(this.s, [
      () =>
        w.t.webhooks.call({
          op: 'webhooks.subscription.update',
          params: { id },
          json: { url: w.subs.url(`par${this.k}`) },
        }),
      () =>
        this.with_ === 'delete'
          ? w.t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id } })
          : w.t.webhooks.call({
              op: 'webhooks.subscription.update',
              params: { id },
              json: { event: 'validation-success' },
            }),
    ])
    await w.t.webhooks.call({ op: 'webhooks.subscription.get', params: { id } })
  }
}

/** The product's update (pointer -> value), its date tokens resolved. */
function updateOf(w: World): [string, unknown][] {
  return Object.entries(
    w.flow.payloadOverrides(w.t.config.product).update ?? { '/policy/paymentFrequency': 'annual' },
  ).map(([p, v]) => [p, resolveDateToken(v, new Date())])
}
function patchOf(entries: readonly [string, unknown][]): Record<string, unknown> {
  const json: Record<string, unknown> = {}
  for (const [pointer, value] of entries) setPointer(json, pointer, value)
  return json
}

/**
 * Two updates of one quote at once, then its actions and data: `disjoint` (each writer its own fields: none may be
 * lost) or `same` (both writers the same fields, one the update's values, the other the values the quote holds: one
 * writer's whole, never a mix).
 */
export class ParallelQuoteUpdates extends ParallelStep {
  constructor(
    p: StepPacing,
    s: fc.Scheduler,
    private readonly k: number,
    private readonly fields: 'disjoint' | 'same',
  ) {
    super(p, s)
  }
  override check(m: Readonly<ExploreModel>) {
    return this.fields === 'same' ? m.quotes < 12 : m.quotes > 0
  }
  what() {
    return this.fields === 'same'
      ? 'two updates of the same fields of a new quote (created unlike the update) at once, then its actions and data'
      : `two updates of quote #${this.k} at once (different fields), then its actions and data`
  }
  async act(w: World) {
    const fields = updateOf(w)
    let id: string
    let patches: Record<string, unknown>[]
    if (this.fields === 'same') {
      // a new quote whose values differ from the update's: one writer the update, the other the values it holds now
      const q = await w.flow.createQuote(w.t.config.product, {
        label: `explore-${w.quoteIds.length}`,
        unlike: Object.fromEntries(fields),
      })
      w.quoteIds.push(q.quoteId)
      w.payloads.set(q.quoteId, q.payload)
      id = q.quoteId
      await w.flow.waitActions(id)
      const now = await w.flow.getQuote(id)
      patches = [patchOf(fields), patchOf(fields.map(([p]) => [p, getPointer(now.body, `/data${p}`) ?? null]))]
    } else {
      id = pick(w.quoteIds, this.k)!
      await w.flow.waitActions(id)
      patches =
        fields.length > 1 ? [patchOf(fields.slice(0, 1)), patchOf(fields.slice(1))] : [patchOf(fields), patchOf(fields)]
    }
    await sendTogether(
      this.s,
      patches.map((json) => () => w.flow.update(id, json)),
    )
    await w.flow.waitActions(id)
    await w.flow.getQuote(id)
  }
  override update(m: ExploreModel, w: World) {
    m.quotes = w.quoteIds.length
  }
}

/** A calculation and an update of one quote at once (a new calculated quote), then its actions and data. */
export class ParallelCalculateUpdate extends ParallelStep {
  override check(m: Readonly<ExploreModel>) {
    return m.quotes < 12
  }
  what() {
    return 'a calculation and an update of a new calculated quote at once, then its actions and data'
  }
  async act(w: World) {
    const product = w.t.config.product
    const q = await w.flow.calculatedQuote(product, {
      label: `explore-${w.quoteIds.length}`,
      unlike: Object.fromEntries(updateOf(w)),
    })
    w.quoteIds.push(q.quoteId)
    w.payloads.set(q.quoteId, q.payload)
    await w.flow.waitActions(q.quoteId)
    await sendTogether(this.s, [
      () => w.flow.calculate(q.quoteId),
      () => w.flow.update(q.quoteId, patchOf(updateOf(w).slice(0, 1))),
    ])
    await w.flow.waitActions(q.quoteId)
    await w.flow.getQuote(q.quoteId)
  }
  override update(m: ExploreModel, w: World) {
    m.quotes = w.quoteIds.length
  }
}

/** Two or three new quotes (their data differ: each its own customer) calculated at once, then each read. */
export class ParallelCalculations extends ParallelStep {
  constructor(
    p: StepPacing,
    s: fc.Scheduler,
    private readonly n: number,
  ) {
    super(p, s)
  }
  override check(m: Readonly<ExploreModel>) {
    return m.quotes < 12
  }
  what() {
    return `${this.n} new quotes calculated at once, then each read`
  }
  async act(w: World) {
    const product = w.t.config.product
    const ids: string[] = []
    for (let i = 0; i < this.n; i++) {
      const q = await w.flow.createQuote(product, { label: `explore-${w.quoteIds.length}` })
      w.quoteIds.push(q.quoteId)
      w.payloads.set(q.quoteId, q.payload)
      ids.push(q.quoteId)
    }
    for (const id of ids) await w.flow.waitActions(id)
    await sendTogether(
      this.s,
      ids.map((id) => () => w.flow.calculate(id)),
    )
    for (const id of ids) {
      await w.flow.waitActions(id)
      await w.flow.getQuote(id)
    }
  }
  override update(m: ExploreModel, w: World) {
    m.quotes = w.quoteIds.length
  }
}

/** A new bound quote issued twice at once, then every accepted request followed to its end. */
export class ParallelIssues extends ParallelStep {
  override check(m: Readonly<ExploreModel>) {
    return m.quotes < 12
  }
  what() {
    return 'a new bound quote issued twice at once, then each accepted request followed to its end'
  }
  async act(w: World) {
    const q = await reachState(w.flow, w.t.config.product, 'bound', `explore-${w.quoteIds.length}`)
    w.quoteIds.push(q.quoteId)
    w.payloads.set(q.quoteId, q.payload)
    await w.flow.waitActions(q.quoteId)
    const answers = await sendTogether(this.s, [() => w.flow.issue(q.quoteId), () => w.flow.issue(q.quoteId)])
    w.flow.markFinal(q.quoteId)
    for (const res of answers) {
      const requestId = res.status < 300 ? w.flow.requestIdOf(res) : undefined
      if (!requestId) continue
      w.requests.push({ id: requestId, quoteId: q.quoteId })
      const r = await w.flow.waitRequest(requestId)
      const policyId = r.outcome === 'success' ? getPointer(r.value?.body, w.flow.settings.policyIdPointer) : undefined
      if (
        (typeof policyId === 'string' || typeof policyId === 'number') &&
        !w.policies.some((p) => p.id === String(policyId))
      )
        w.policies.push({ id: String(policyId), quoteId: q.quoteId })
    }
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, { quotes: w.quoteIds.length, requests: w.requests.length, policies: w.policies.length })
  }
}

/**
 * A payment allocated in part to the first invoice of policy #k, then at once a second allocation of it and the credit
 * of the first; the period totals read before, between and after (PL-INV-050: paid moves by exactly what was done in
 * some order; PL-INV-051: never more allocated than the payment holds).
 */
export class ParallelAllocateCredit extends ParallelStep {
  constructor(
    p: StepPacing,
    s: fc.Scheduler,
    private readonly k: number,
  ) {
    super(p, s)
  }
  what() {
    return `a payment allocated to policy #${this.k} (a new one when the sequence has none), then a second allocation of it and the credit of the first at once, the totals read before and after`
  }
  async act(w: World) {
    if (w.policies.length === 0) {
      const q = await reachState(w.flow, w.t.config.product, 'issued', `explore-${w.quoteIds.length}`)
      w.quoteIds.push(q.quoteId)
      w.payloads.set(q.quoteId, q.payload)
      if (q.requestId) {
        w.requests.push({ id: q.requestId, quoteId: q.quoteId })
        const r = await w.t.sales.call({ op: 'sales.requests.get', params: { requestId: q.requestId } })
        const policyId = getPointer(r.body, w.flow.settings.policyIdPointer)
        if (typeof policyId === 'string' || typeof policyId === 'number')
          w.policies.push({ id: String(policyId), quoteId: q.quoteId })
      }
    }
    const policy = pick(w.policies, this.k)
    if (!policy) return
    const api = w.api
    const first = api.readInvoices(await api.invoices(policy.id))?.[0]
    if (!first || first.amount === undefined || first.invoicenumber === '' || first.amount < 0.05) return
    const amount = roundMoney(first.amount * 0.6)
    const paymentId = api.paymentIdOf(await api.insertPayment(amount, new Date().toISOString().slice(0, 10)))
    if (paymentId === undefined) return
    await api.totals(policy.id)
    const one = api.eventIdsOf(
      await api.allocate(paymentId, [{ invoicenumber: first.invoicenumber, amount: roundMoney(amount * 0.5) }]),
    )?.[0]
    if (one === undefined) return
    w.allocations.add(one)
    await api.totals(policy.id)
    const [alloc, credit] = await sendTogether(this.s, [
      () => api.allocate(paymentId, [{ invoicenumber: first.invoicenumber, amount: roundMoney(amount * 0.3) }]),
      () => api.credit(one),
    ])
    if (credit!.status < 300) w.allocations.delete(one)
    for (const e of api.eventIdsOf(alloc!) ?? []) w.allocations.add(e)
    await api.totals(policy.id)
  }
  override update(m: ExploreModel, w: World) {
    Object.assign(m, { quotes: w.quoteIds.length, requests: w.requests.length, policies: w.policies.length })
  }
}

/**
 * The parallel steps' arbitraries, each with its weight among explore's steps (runner/commands/explore/commands.ts).
 */
export function parallelStepArbitraries(
  pacing: StepPacing,
): { arbitrary: fc.Arbitrary<fc.AsyncCommand<ExploreModel, World>>; weight: number }[] {
  const k = fc.nat({ max: 99 })
  const s = fc.scheduler()
  return [
    {
      arbitrary: fc
        .tuple(s, k, fc.constantFrom('delete', 'update' as const))
        .map(([sc, i, x]) => new ParallelSubWrites(pacing, sc, i, x)),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(s, k, fc.constantFrom('disjoint', 'same' as const))
        .map(([sc, i, f]) => new ParallelQuoteUpdates(pacing, sc, i, f)),
      weight: 2,
    },
    { arbitrary: s.map((sc) => new ParallelCalculateUpdate(pacing, sc)), weight: 2 },
    {
      arbitrary: fc.tuple(s, fc.integer({ min: 2, max: 3 })).map(([sc, n]) => new ParallelCalculations(pacing, sc, n)),
      weight: 2,
    },
    { arbitrary: s.map((sc) => new ParallelIssues(pacing, sc)), weight: 2 },
    { arbitrary: fc.tuple(s, k).map(([sc, i]) => new ParallelAllocateCredit(pacing, sc, i)), weight: 2 },
  ]
}
