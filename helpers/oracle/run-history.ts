import type { SalesSettings } from '../../common/config/sales-settings'
import type { StatusSpellings } from '../../common/config/types'
import { getPointer } from '../client/data/json-pointer'
import { actorKey, instant, type CallInfo, type Instant } from '../client/http/observer'
import type { HttpResult } from '../client/http/types'
import type { InvariantId, Violation } from './invariants'
import { violationList } from './judged-at'
import { leavesOf } from './leaves'
import { checkOperations, type Budget, type Model, type Operation } from './linearizability/checker'
import { issueModel, quoteDataModel, subscriptionModel } from './linearizability/models'
import { timelineText } from './linearizability/timeline'

/**
 * The run's history per resource (every exchange of every check, and of explore), judged for linearizability by the
 * checker whenever a resource falls quiet (no call on it in flight) after new operations: the model's invariants
 * SL-INV-050 (a quote's data), SL-INV-051 (a bound quote's issue) and WH-INV-050 (a subscription). A history is judged
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

/** One call's part in a track: what it asked, and how its answer reads in the model's terms (undefined: the track ends). */
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

export class RunHistory {
  private readonly tracks = new Map<string, Track>()
  /** Issue requests -> the quote they issue. */
  private readonly requests = new Map<string, string>()
  private seq = 0
  /** Histories left undecided (the checker's budget spent), for the run's notes. */
  readonly undecided: string[] = []

  constructor(
    private readonly settings: Pick<SalesSettings, 'quoteIdPointer' | 'requestIdPointer' | 'policyIdPointer'>,
    private readonly statuses: StatusSpellings,
    private readonly budget: Budget = RUN_HISTORY_BUDGET,
  ) {}

  /** A call begins: the tracks it belongs to, and how to record it when it ends. */
  begin(call: CallInfo): ((res: HttpResult | undefined, completedAt?: Instant) => HistoryVerdict) | undefined {
    const invokedAt = call.invokedAt ?? instant()
    const parts = this.partsOf(call)
    const birth = this.birthOf(call)
    if (parts.length === 0 && !birth) return undefined
    for (const p of parts) this.tracks.get(p.key)!.inFlight += 1
    return (res, completedAt = instant()) => {
      const out: HistoryVerdict = { evaluated: [], violations: violationList(), undecided: [] }
      if (res && birth) birth(res)
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
            const recorded = { id: this.seq++, caller: call.caller ?? 'outside any check', input: p.input, output, call: invokedAt.mono, ret: completedAt.mono }
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
    const outcome = checkOperations(t.model, t.ops, this.budget)
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
    out.violations.push({
      invariant: t.invariant,
      expected: `an order of the ${t.ops.length} operations on ${t.resource}, respecting real time, that explains every answer (linearizability)`,
      actual: 'no order explains the answers: see the timeline',
      res,
      ...(first && first !== res ? { setBy: first } : {}),
      note: `timeline:\n${timelineText({ resource: t.resource, model: t.model, ops: t.ops, outcome })}`,
    })
  }

  /** A call that makes a resource: its track starts from what the answer says. */
  private birthOf(call: CallInfo): ((res: HttpResult) => void) | undefined {
    const op = call.operationId
    const owner = ownerOf(call)
    if (op === 'sales.quote.create' && owner !== undefined) {
      return (res) => {
        const id = idOf(getPointer(res.body, this.settings.quoteIdPointer))
        if (!ok(res) || id === undefined || this.tracks.has(`quote:${id}`)) return
        this.tracks.set(`quote:${id}`, this.track('SL-INV-050', `quote ${id}`, quoteDataModel(leavesOf(call.json)), owner))
      }
    }
    if (op === 'webhooks.subscription.create' && owner !== undefined) {
      return (res) => {
        const b = (res.body ?? {}) as { id?: unknown; event?: unknown; url?: unknown }
        const id = idOf(b.id)
        if (!ok(res) || id === undefined || typeof b.event !== 'string' || typeof b.url !== 'string') return
        this.tracks.set(`sub:${id}`, this.track('WH-INV-050', `subscription ${id}`, subscriptionModel({ event: b.event, url: b.url }), owner))
      }
    }
    return undefined
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
    if (op === 'sales.quote.actions') {
      const key = `quote:${p['id']}`
      return own(key)?.mine ? [{ key, input: undefined, output: () => 'skip', settling: true }] : []
    }
    if (op === 'sales.quote.update' || op === 'sales.quote.get') {
      const key = `quote:${p['policyId']}`
      const o = own(key)
      if (!o) return []
      if (op === 'sales.quote.update') return [{ key, input: { kind: 'update', patch: call.json }, output: write, settles: true, ...(o.mine ? {} : { foreign: true }) }]
      return o.mine ? [{ key, input: { kind: 'read' }, output: (res) => (res.status === 200 ? { status: 'ok', data: getPointer(res.body, '/data') } : 'skip') }] : []
    }
    if (op === 'sales.quote.issue') {
      const quoteId = p['id'] ?? ''
      const key = `issue:${quoteId}`
      if (!this.tracks.has(key)) {
        const quote = this.tracks.get(`quote:${quoteId}`)
        // the issue of a quote the run made (its owner known); an MTA quote's issue is followed from its first issue by whoever sends it
        const issuer = quote?.owner ?? owner
        if (issuer === undefined) return []
        this.tracks.set(key, this.track('SL-INV-051', `the issue of quote ${quoteId}`, issueModel, issuer))
      }
      const o = own(key)
      if (!o) return []
      return [{
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
      }]
    }
    if (op === 'sales.requests.get') {
      const request = p['requestId'] ?? ''
      const quoteId = this.requests.get(request)
      const key = `issue:${quoteId}`
      const o = quoteId !== undefined ? own(key) : undefined
      if (!o || !o.mine) return []
      return [{
        key,
        input: { kind: 'outcome', request },
        output: (res) => {
          const status = res.status === 200 && typeof (res.body as { status?: unknown } | undefined)?.status === 'string' ? String((res.body as { status: string }).status).toLowerCase() : undefined
          if (status !== undefined && this.statuses.success.includes(status)) {
            const policy = idOf(getPointer(res.body, this.settings.policyIdPointer))
            return policy !== undefined ? { status: 'success', policy } : 'skip'
          }
          return status !== undefined && this.statuses.failure.includes(status) ? { status: 'failure' } : 'skip'
        },
      }]
    }
    if (op === 'webhooks.subscription.update' || op === 'webhooks.subscription.delete' || op === 'webhooks.subscription.get') {
      const key = `sub:${p['id']}`
      const o = own(key)
      if (!o) return []
      const status = (res: HttpResult) => (res.status === 404 ? { status: 'not-found' } : refused(res) ? { status: 'refused' } : ok(res) ? { status: 'ok' } : undefined)
      if (op === 'webhooks.subscription.get') {
        if (!o.mine) return []
        return [{ key, input: { kind: 'get' }, output: (res) => {
          const s = status(res)
          if (s?.status !== 'ok') return s
          const b = (res.body ?? {}) as { event?: unknown; url?: unknown }
          return { status: 'ok', ...(typeof b.event === 'string' ? { event: b.event } : {}), ...(typeof b.url === 'string' ? { url: b.url } : {}) }
        } }]
      }
      const j = (call.json ?? {}) as { event?: unknown; url?: unknown }
      const fields = { ...(typeof j.event === 'string' ? { event: j.event } : {}), ...(typeof j.url === 'string' ? { url: j.url } : {}) }
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
