import type { SalesSettings } from '../../common/config/sales-settings'
import { POLICIES_DEFAULTS, type PoliciesSettings } from '../../common/config/policies-settings'
import type { StatusSpellings } from '../../common/config/types'
import { getPointer } from '../client/data/json-pointer'
import { actorKey, instant, type CallInfo, type Instant } from '../client/http/observer'
import type { HttpResult } from '../client/http/types'
import type { InvariantId, Violation } from './invariants'
import { violationList } from './judged-at'
import { leavesOf } from './leaves'
import { checkOperations, type Budget, type Model, type Operation } from './linearizability/checker'
import { issueModel, moneyModel, paymentModel, quoteDataModel, subscriptionModel } from './linearizability/models'
import { pointerOf } from './money-model'
import { renderTimelineText, timelineRecord } from './linearizability/timeline'
import { shrinkHistory } from './linearizability/shrink'

/**
 * The run's history per resource (every exchange of every check, and of explore), judged for linearizability by the
 * checker whenever a resource falls quiet (no call on it in flight) after new operations: the model's invariants
 * SL-INV-050 (a quote's data), SL-INV-051 (a bound quote's issue), PL-INV-050 (a policy's paid), PL-INV-051 (a
 * payment's allocations) and WH-INV-050 (a subscription). A history is judged
 * whole each time (histories per resource are short); a resource whose history broke, or whose call lost its answer
 * (a write that may or may not have happened), is no longer followed. A history the checker cannot decide within its
 * budget is not judged (undecided), never given a verdict.
 */

/** The checker's budget per judgement of one resource's history: small, the run's wall time must not grow. */
export const RUN_HISTORY_BUDGET: Budget = { maxSteps: 20_000, maxMs: 25 }

interface Track {
  invariant: InvariantId
  resource: string
  model: Model<any, any, any>
  /** Who may act on it: calls of another tenant or owner are not its history (their 2xx writes end the track). */
  owner: string
  ops: Operation<unknown, unknown>[]
  /** The answers each operation came with (the violation names the last). */
  answers: HttpResult[]
  inFlight: number
  judged: number
  /**
   * Writes answered but not yet settled: the spec lets a change be done only when the actions list after it says so
   * (sales §3 rule 4), so a quote update's interval runs until the next list answered for the quote. Not judged before.
   */
  unsettled: Operation<unknown, unknown>[]
  ended?: 'broken' | 'undecided' | 'lost'
}

/**
 * One call's part in a track: what it asked, and how its answer reads in the model's terms (undefined: the track ends).
 */
interface Part {
  key: string
  input: unknown
  output: (res: HttpResult) => unknown | 'skip' | undefined
  /** A write by someone else than the owner: ends the track when answered 2xx. */
  foreign?: boolean
  /** A quote write whose interval runs until the quote settles. */
  settles?: boolean
  /** An actions list: settles the quote's writes answered before it. */
  settling?: boolean
}

export interface HistoryVerdict {
  evaluated: InvariantId[]
  violations: Violation[]
  /** Histories the checker could not decide within its budget: the invariant and the resource. */
  undecided: { invariant: InvariantId; resource: string }[]
}

const ok = (res: HttpResult) => res.status >= 200 && res.status < 300
const refused = (res: HttpResult) => res.status >= 400 && res.status < 500
const idOf = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)

const cents = (n: number) => Math.round(n * 100)
const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** What the checker cost: judgements made and the time spent in them (docs/concurrency.md, "The bound"). */
export interface HistoryCost {
  judgements: number
  ms: number
  steps: number
}

export class RunHistory {
  private readonly tracks = new Map<string, Track>()
  /** Issue requests -> the quote they issue. */
  private readonly requests = new Map<string, string>()
  /** Invoice number -> its policy (from the invoices the run read), per tenant. */
  private readonly invoices = new Map<string, string>()
  /** Allocation event -> its policy, payment and amount (from the allocations answered). */
  private readonly events = new Map<string, { policy?: string; payment?: string; cents: number }>()
  /** Money writes (allocations, credits) in flight per tenant: a policy's money history does not start under one. */
  private readonly moneyInFlight = new Map<string, number>()
  private seq = 0
  /** Histories left undecided (the checker's budget spent), for the run's notes. */
  readonly undecided: string[] = []
  /** The checker's own cost over the run. */
  readonly cost: HistoryCost = { judgements: 0, ms: 0, steps: 0 }

  constructor(
    private readonly settings: Pick<SalesSettings, 'quoteIdPointer' | 'requestIdPointer' | 'policyIdPointer'>,
    private readonly statuses: StatusSpellings,
    private readonly budget: Budget = RUN_HISTORY_BUDGET,
    private readonly money: Pick<PoliciesSettings, 'payments' | 'totals' | 'invoices'> = POLICIES_DEFAULTS,
  ) {}

  /** A call begins: the tracks it belongs to, and how to record it when it ends. */
  begin(call: CallInfo): ((res: HttpResult | undefined, completedAt?: Instant) => HistoryVerdict) | undefined {
    const invokedAt = call.invokedAt ?? instant()
    const parts = this.partsOf(call)
    const birth = this.birthOf(call)
    const moneyWrite =
      call.operationId === 'sales.payments.allocate' || call.operationId === 'sales.invoice.credit'
        ? (ownerOf(call) ?? '')
        : undefined
    if (parts.length === 0 && !birth && moneyWrite === undefined) return undefined
    for (const p of parts) this.tracks.get(p.key)!.inFlight += 1
    if (moneyWrite !== undefined) this.moneyInFlight.set(moneyWrite, (this.moneyInFlight.get(moneyWrite) ?? 0) + 1)
    return (res, completedAt = instant()) => {
      const out: HistoryVerdict = { evaluated: [], violations: violationList(), undecided: [] }
      if (moneyWrite !== undefined) this.moneyInFlight.set(moneyWrite, (this.moneyInFlight.get(moneyWrite) ?? 1) - 1)
      if (birth) birth(res)
      for (const p of parts) {
        const t = this.tracks.get(p.key)!
        t.inFlight -= 1
        if (t.ended) continue
        if (p.settling) {
          if (res !== undefined && res.status === 200) {
            // the writes answered before this list was asked for are done by its answer
            const done = t.unsettled.filter((op) => op.ret <= invokedAt.mono)
            for (const op of done) op.ret = completedAt.mono
            t.unsettled = t.unsettled.filter((op) => !done.includes(op))
          }
        } else if (p.foreign) {
          if (res === undefined || ok(res)) t.ended = 'lost'
          continue
        } else {
          const output = res === undefined ? undefined : p.output(res)
          if (output === undefined) {
            t.ended = 'lost'
            continue
          }
          if (output !== 'skip') {
            const recorded = {
              id: this.seq++,
              caller: call.caller ?? 'outside any check',
              input: p.input,
              output,
              call: invokedAt.mono,
              ret: completedAt.mono,
            }
            t.ops.push(recorded)
            t.answers.push(res!)
            if (p.settles && (output as { status?: string }).status === 'ok') t.unsettled.push(recorded)
          }
        }
        if (t.inFlight === 0 && t.unsettled.length === 0 && t.ops.length > t.judged) this.judge(t, out)
      }
      return out
    }
  }

  private judge(t: Track, out: HistoryVerdict): void {
    t.judged = t.ops.length
    const started = performance.now()
    const outcome = checkOperations(t.model, t.ops, this.budget)
    this.cost.judgements += 1
    this.cost.steps += outcome.steps
    this.cost.ms += performance.now() - started
    if (outcome.result === 'ok') {
      out.evaluated.push(t.invariant)
      return
    }
    if (outcome.result === 'unknown') {
      t.ended = 'undecided'
      this.undecided.push(t.resource)
      out.undecided.push({ invariant: t.invariant, resource: t.resource })
      return
    }
    t.ended = 'broken'
    out.evaluated.push(t.invariant)
    const res = t.answers.at(-1)!
    const first = t.answers[0]
    // the history shrunk to the fewest operations that still fail (helpers/oracle/linearizability/shrink.ts)
    const shrunk = shrinkHistory(t.model, t.ops, outcome)
    const record = timelineRecord(
      { resource: t.resource, model: t.model, ops: shrunk.ops, outcome: shrunk.outcome },
      { total: t.ops.length, ...(shrunk.dropped ? { dropped: shrunk.dropped } : {}) },
    )
    out.violations.push({
      invariant: t.invariant,
      expected:
        `an order of the ${t.ops.length} operations on ${t.resource}, respecting real time, that explains ` +
        `every answer (linearizability)`,
      actual: 'no order explains the answers: see the timeline',
      res,
      ...(first && first !== res ? { setBy: first } : {}),
      note: `timeline:\n${renderTimelineText(record)}`,
      timeline: [record],
    })
  }

  /**
   * A call that makes a resource (its track starts from what the answer says) or that tells the model what later calls
   * refer to (the invoices of a policy, the events of an allocation); given no answer when the call lost it.
   */
  private birthOf(call: CallInfo): ((res: HttpResult | undefined) => void) | undefined {
    const op = call.operationId
    const owner = ownerOf(call)
    const money = this.moneyBirthOf(call)
    if (money) return money
    if (op === 'sales.quote.create' && owner !== undefined) {
      return (res) => {
        if (!res) return
        const id = idOf(getPointer(res.body, this.settings.quoteIdPointer))
        if (!ok(res) || id === undefined || this.tracks.has(`quote:${id}`)) return
        this.tracks.set(
          `quote:${id}`,
          this.track('SL-INV-050', `quote ${id}`, quoteDataModel(leavesOf(call.json)), owner),
        )
      }
    }
    if (op === 'webhooks.subscription.create' && owner !== undefined) {
      return (res) => {
        if (!res) return
        const b = (res.body ?? {}) as { id?: unknown; event?: unknown; url?: unknown }
        const id = idOf(b.id)
        if (!ok(res) || id === undefined || typeof b.event !== 'string' || typeof b.url !== 'string') return
        this.tracks.set(
          `sub:${id}`,
          this.track('WH-INV-050', `subscription ${id}`, subscriptionModel({ event: b.event, url: b.url }), owner),
        )
      }
    }
    return undefined
  }

  /** The money calls: a payment's track starts at its insert; invoices and allocation events are remembered. */
  private moneyBirthOf(call: CallInfo): ((res: HttpResult | undefined) => void) | undefined {
    const op = call.operationId
    const owner = ownerOf(call)
    if (owner === undefined) return undefined
    const m = this.money
    if (op === 'sales.payments.insert') {
      const at = pointerOf(m.payments.insertBody, '{{amount}}')
      const amount = at !== undefined ? getPointer(call.json, at) : undefined
      return (res) => {
        const id = res && ok(res) ? idOf(getPointer(res.body, m.payments.paymentIdPointer)) : undefined
        if (id === undefined || typeof amount !== 'number' || this.tracks.has(`payment:${id}`)) return
        this.tracks.set(`payment:${id}`, this.track('PL-INV-051', `payment ${id}`, paymentModel(cents(amount)), owner))
      }
    }
    if (op === 'sales.policy.invoices') {
      const policyId = call.params['policyId']
      return (res) => {
        const list = res?.status === 200 ? getPointer(res.body, m.invoices.listPointer) : undefined
        if (policyId === undefined || !Array.isArray(list)) return
        for (const inv of list) {
          const n = isObj(inv) ? idOf(inv['invoicenumber']) : undefined
          if (n !== undefined) this.invoices.set(`${owner}|${n}`, policyId)
        }
      }
    }
    if (op === 'sales.payments.allocate') {
      const body = this.allocationOf(call)
      const unattributed = body === undefined || body.lines.some((l) => l.policy === undefined)
      return (res) => {
        // an allocation the history cannot attribute to policies (an invoice it never saw listed) ends them all
        if (unattributed && (res === undefined || ok(res))) this.endMoney(owner, 'money:')
        if (body === undefined && (res === undefined || ok(res))) this.endMoney(owner, 'payment:')
        if (!res || !ok(res)) return
        const events = getPointer(res.body, m.payments.eventsPointer)
        if (!Array.isArray(events)) return
        for (const e of events) {
          const id = isObj(e) ? idOf(e[m.payments.eventIdField]) : undefined
          const invoice = isObj(e) ? idOf(e['invoicenumber']) : undefined
          const amount = isObj(e) ? e['amount'] : undefined
          if (id === undefined || typeof amount !== 'number') continue
          const policy = invoice !== undefined ? this.invoices.get(`${owner}|${invoice}`) : undefined
          this.events.set(`${owner}|${id}`, {
            ...(policy !== undefined ? { policy } : {}),
            ...(body?.payment !== undefined ? { payment: body.payment } : {}),
            cents: cents(amount),
          })
        }
      }
    }
    if (op === 'sales.invoice.credit') {
      const e = this.events.get(`${owner}|${call.params['eventId']}`)
      // a credit of an event the history never saw allocated may give back any policy's or payment's money
      return (res) => {
        if ((e === undefined || e.policy === undefined) && (res === undefined || ok(res)))
          this.endMoney(owner, 'money:')
        if ((e === undefined || e.payment === undefined) && (res === undefined || ok(res)))
          this.endMoney(owner, 'payment:')
      }
    }
    return undefined
  }

  /** An allocation's payment and lines (each invoice's policy when the history knows it), from the request. */
  private allocationOf(call: CallInfo): { payment?: string; lines: { policy?: string; cents: number }[] } | undefined {
    const owner = ownerOf(call)
    const m = this.money
    const paymentAt = pointerOf(m.payments.allocateBody, '{{paymentId}}')
    const linesAt = pointerOf(m.payments.allocateBody, '{{allocations}}')
    const payment = paymentAt !== undefined ? idOf(getPointer(call.json, paymentAt)) : undefined
    const list = linesAt !== undefined ? getPointer(call.json, linesAt) : undefined
    if (!Array.isArray(list)) return undefined
    const lines: { policy?: string; cents: number }[] = []
    for (const a of list) {
      if (!isObj(a) || typeof a['amount'] !== 'number') return undefined
      const policy = this.invoices.get(`${owner}|${idOf(a['invoicenumber'])}`)
      lines.push({ ...(policy !== undefined ? { policy } : {}), cents: cents(a['amount']) })
    }
    return { ...(payment !== undefined ? { payment } : {}), lines }
  }

  /** Ends the tenant's money histories of one kind (a move the history cannot attribute). */
  private endMoney(owner: string, prefix: 'money:' | 'payment:'): void {
    for (const [key, t] of this.tracks) if (key.startsWith(prefix) && t.owner === owner && !t.ended) t.ended = 'lost'
  }

  /** The money calls' parts: a policy's paid (PL-INV-050), a payment's allocations (PL-INV-051). */
  private moneyPartsOf(
    call: CallInfo,
    own: (key: string) => { t: Track; mine: boolean } | undefined,
    write: (res: HttpResult) => unknown,
  ): Part[] {
    const op = call.operationId
    const owner = ownerOf(call)
    if (op === 'sales.policy.period-totals') {
      const policyId = call.params['id'] ?? ''
      const key = `money:${policyId}`
      // a policy's money history starts at a read of its totals with none of the tenant's money writes in flight
      if (!this.tracks.has(key) && owner !== undefined && (this.moneyInFlight.get(owner) ?? 0) === 0)
        this.tracks.set(key, this.track('PL-INV-050', `the money of policy ${policyId}`, moneyModel, owner))
      const o = own(key)
      if (!o?.mine) return []
      return [
        {
          key,
          input: { kind: 'totals' },
          output: (res) => {
            if (res.status !== 200) return 'skip'
            const paid = getPointer(res.body, this.money.totals.paid)
            return typeof paid === 'number' ? { status: 'ok', paidCents: cents(paid) } : 'skip'
          },
        },
      ]
    }
    const foreign = (o: { mine: boolean }) => (o.mine ? {} : { foreign: true })
    if (op === 'sales.payments.allocate') {
      const body = this.allocationOf(call)
      if (!body) return []
      const parts: Part[] = []
      const byPolicy = new Map<string, number>()
      for (const l of body.lines)
        if (l.policy !== undefined) byPolicy.set(l.policy, (byPolicy.get(l.policy) ?? 0) + l.cents)
      for (const [policy, c] of byPolicy) {
        const o = own(`money:${policy}`)
        if (o)
          parts.push({ key: `money:${policy}`, input: { kind: 'allocate', cents: c }, output: write, ...foreign(o) })
      }
      const o = body.payment !== undefined ? own(`payment:${body.payment}`) : undefined
      if (o)
        parts.push({
          key: `payment:${body.payment}`,
          input: { kind: 'allocate', cents: body.lines.reduce((sum, l) => sum + l.cents, 0) },
          output: write,
          ...foreign(o),
        })
      return parts
    }
    if (op === 'sales.invoice.credit') {
      const event = call.params['eventId'] ?? ''
      const e = this.events.get(`${owner}|${event}`)
      if (!e) return []
      const parts: Part[] = []
      for (const key of [
        e.policy !== undefined ? `money:${e.policy}` : undefined,
        e.payment !== undefined ? `payment:${e.payment}` : undefined,
      ]) {
        const o = key !== undefined ? own(key) : undefined
        if (o) parts.push({ key: key!, input: { kind: 'credit', cents: e.cents, event }, output: write, ...foreign(o) })
      }
      return parts
    }
    return []
  }

  private track(invariant: InvariantId, resource: string, model: Model<any, any, any>, owner: string): Track {
    return { invariant, resource, model, owner, ops: [], answers: [], inFlight: 0, judged: 0, unsettled: [] }
  }

  private partsOf(call: CallInfo): Part[] {
    const op = call.operationId ?? ''
    const p = call.params
    const owner = ownerOf(call)
    const own = (key: string) => {
      const t = this.tracks.get(key)
      return t !== undefined && !t.ended ? { t, mine: owner !== undefined && owner === t.owner } : undefined
    }
    const write = (res: HttpResult) => (ok(res) ? { status: 'ok' } : refused(res) ? { status: 'refused' } : undefined)
    const money = this.moneyPartsOf(call, own, write)
    if (money.length > 0) return money
    if (op === 'sales.quote.actions') {
      const key = `quote:${p['id']}`
      return own(key)?.mine ? [{ key, input: undefined, output: () => 'skip', settling: true }] : []
    }
    if (op === 'sales.quote.calculate') {
      // a calculation answers the quote's data at its moment (not its premium here: SL-CONC-004 judges that)
      const key = `quote:${p['id']}`
      const o = own(key)
      if (!o?.mine) return []
      return [
        {
          key,
          input: { kind: 'calculate' },
          output: (res) => {
            const data = ok(res) ? getPointer(res.body, '/data') : undefined
            return isObj(data) ? { status: 'ok', data } : 'skip'
          },
        },
      ]
    }
    if (op === 'sales.quote.update' || op === 'sales.quote.get') {
      const key = `quote:${p['policyId']}`
      const o = own(key)
      if (!o) return []
      if (op === 'sales.quote.update')
        return [
          {
            key,
            input: { kind: 'update', patch: call.json },
            output: write,
            settles: true,
            ...(o.mine ? {} : { foreign: true }),
          },
        ]
      return o.mine
        ? [
            {
              key,
              input: { kind: 'read' },
              output: (res) => (res.status === 200 ? { status: 'ok', data: getPointer(res.body, '/data') } : 'skip'),
            },
          ]
        : []
    }
    if (op === 'sales.quote.issue') {
      const quoteId = p['id'] ?? ''
      const key = `issue:${quoteId}`
      if (!this.tracks.has(key)) {
        const quote = this.tracks.get(`quote:${quoteId}`)
        // the issue of a quote the run made (its owner known); an MTA quote's issue is followed from its first issue by
        // whoever sends it
        const issuer = quote?.owner ?? owner
        if (issuer === undefined) return []
        this.tracks.set(key, this.track('SL-INV-051', `the issue of quote ${quoteId}`, issueModel, issuer))
      }
      const o = own(key)
      if (!o) return []
      return [
        {
          key,
          input: { kind: 'issue' },
          output: (res) => {
            const request = idOf(getPointer(res.body, this.settings.requestIdPointer))
            if (ok(res) && request !== undefined) {
              this.requests.set(request, quoteId)
              return { status: 'accepted', request }
            }
            return refused(res) ? { status: 'refused' } : undefined
          },
          ...(o.mine ? {} : { foreign: true }),
        },
      ]
    }
    if (op === 'sales.requests.get') {
      const request = p['requestId'] ?? ''
      const quoteId = this.requests.get(request)
      const key = `issue:${quoteId}`
      const o = quoteId !== undefined ? own(key) : undefined
      if (!o || !o.mine) return []
      return [
        {
          key,
          input: { kind: 'outcome', request },
          output: (res) => {
            const status =
              res.status === 200 && typeof (res.body as { status?: unknown } | undefined)?.status === 'string'
                ? String((res.body as { status: string }).status).toLowerCase()
                : undefined
            if (status !== undefined && this.statuses.success.includes(status)) {
              const policy = idOf(getPointer(res.body, this.settings.policyIdPointer))
              return policy !== undefined ? { status: 'success', policy } : 'skip'
            }
            return status !== undefined && this.statuses.failure.includes(status) ? { status: 'failure' } : 'skip'
          },
        },
      ]
    }
    if (
      op === 'webhooks.subscription.update' ||
      op === 'webhooks.subscription.delete' ||
      op === 'webhooks.subscription.get'
    ) {
      const key = `sub:${p['id']}`
      const o = own(key)
      if (!o) return []
      const status = (res: HttpResult) =>
        res.status === 404
          ? { status: 'not-found' }
          : refused(res)
            ? { status: 'refused' }
            : ok(res)
              ? { status: 'ok' }
              : undefined
      if (op === 'webhooks.subscription.get') {
        if (!o.mine) return []
        return [
          {
            key,
            input: { kind: 'get' },
            output: (res) => {
              const s = status(res)
              if (s?.status !== 'ok') return s
              const b = (res.body ?? {}) as { event?: unknown; url?: unknown }
              return {
                status: 'ok',
                ...(typeof b.event === 'string' ? { event: b.event } : {}),
                ...(typeof b.url === 'string' ? { url: b.url } : {}),
              }
            },
          },
        ]
      }
      const j = (call.json ?? {}) as { event?: unknown; url?: unknown }
      const fields = {
        ...(typeof j.event === 'string' ? { event: j.event } : {}),
        ...(typeof j.url === 'string' ? { url: j.url } : {}),
      }
      const input = op === 'webhooks.subscription.delete' ? { kind: 'delete' } : { kind: 'update', fields }
      return [{ key, input, output: status, ...(o.mine ? {} : { foreign: true }) }]
    }
    return []
  }
}

/** Who a call acts as: the tenant header (sales) or the tenant and user (webhooks), as far as the client knows it. */
function ownerOf(call: CallInfo): string | undefined {
  if (call.service === 'webhooks') return actorKey(call.actor)
  const tenant = call.tenantHeader ?? (call.actor.kind === 'anonymous' ? undefined : call.actor.tenant)
  return tenant
}
