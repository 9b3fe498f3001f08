import { getPointer, escapePointerToken } from '../../client/data/json-pointer'
import { applyPatch, leavesOf, type Leaves } from '../leaves'
import type { Model } from './checker'

/**
 * The sequential specifications the linearizability checker holds histories to, one per kind of resource. Each is
 * the clause of the spec read as a state machine; where the spec is silent about concurrency (which writer wins) the
 * model says nothing: any order is allowed, but every answer must fit the order chosen, and nothing may be lost.
 * States are immutable: step() returns a new state, or undefined when the output cannot follow from the state.
 */

const same = (a: unknown, b: unknown) =>
  a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b))
const show = (v: unknown) => {
  const s = JSON.stringify(v)
  return s === undefined ? 'undefined' : s.length > 60 ? `${s.slice(0, 57)}...` : s
}

// ---------------------------------------------------------------- a quote's data (sales §4)

export type QuoteInput = { kind: 'update'; patch: unknown } | { kind: 'read' } | { kind: 'calculate' }
/**
 * ok: the write was carried out (2xx); refused: it was not (4xx, nothing changes). data: the quote data answered,
 * premium: the calculation's.
 */
export interface QuoteOutput {
  status: 'ok' | 'refused'
  data?: unknown
  premium?: number
}
export interface QuoteDataState {
  /** The leaves known (pointer -> value): written by the run or seen in an answer. */
  leaves: Leaves
  /** The premium each data (its leaves' text) was calculated at. */
  priced: ReadonlyMap<string, number>
}

const leavesKey = (l: Leaves) => JSON.stringify([...l].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

/** The pointers a patch removes (null): known to be absent afterwards. */
function removals(patch: unknown, prefix = ''): string[] {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return []
  return Object.entries(patch).flatMap(([k, v]) => {
    const p = `${prefix}/${escapePointerToken(k)}`
    return v === null ? [p] : removals(v, p)
  })
}

/** The leaves after an update: merged (helpers/oracle/leaves.ts), and what it removed known absent. */
function updated(leaves: Leaves, input: unknown): Leaves {
  const { schema: _s, ...patch } = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>
  const out = applyPatch(leaves, patch)
  for (const p of removals(patch)) out.set(p, undefined)
  return out
}

/** Every leaf known must read back as known (leaves the run neither wrote nor was given are not judged). */
function readLeaves(known: Leaves, data: unknown): Leaves | undefined {
  for (const [pointer, value] of known) if (!same(getPointer(data, pointer), value)) return undefined
  return known
}

/**
 * A quote's data: an update merges its patch (objects merge, null removes: helpers/oracle/leaves.ts), a read and a
 * calculation answer the data as it is at their moment, and a calculation of the same data answers the same premium
 * (a calculation is a function of the data). `initial`: the leaves known when the history starts (the create's body,
 * or the fields a check writes as a first read showed them); only known leaves are judged.
 */
export function quoteDataModel(initial: Leaves = new Map()): Model<QuoteDataState, QuoteInput, QuoteOutput> {
  // the text of each leaves map once (states are immutable, and a read keeps the map it was given): the cache key
  const texts = new WeakMap<Leaves, string>()
  const leavesText = (l: Leaves) => {
    let t = texts.get(l)
    if (t === undefined) texts.set(l, (t = leavesKey(l)))
    return t
  }
  return {
    name: 'quote data',
    init: () => ({ leaves: initial, priced: new Map() }),
    step(s, input, output) {
      if (output.status === 'refused') return s
      let leaves = s.leaves
      if (input.kind === 'update') leaves = updated(leaves, input.patch)
      if (output.data !== undefined) {
        const read = readLeaves(leaves, output.data)
        if (!read) return undefined
        leaves = read
      }
      let priced = s.priced
      if (input.kind === 'calculate' && output.premium !== undefined) {
        const key = leavesText(leaves)
        const before = priced.get(key)
        if (before !== undefined && before !== output.premium) return undefined
        if (before === undefined) priced = new Map([...priced, [key, output.premium]])
      }
      return { leaves, priced }
    },
    key: (s) => `${leavesText(s.leaves)}#${s.priced.size > 0 ? JSON.stringify([...s.priced].sort()) : ''}`,
    describeOperation(input, output) {
      const what = input.kind === 'update' ? `update ${show(input.patch)}` : input.kind
      if (output.status === 'refused') return `${what} -> refused`
      return `${what} -> ok${output.premium !== undefined ? ` premium ${output.premium}` : ''}`
    },
    describeState: (s) => {
      const shown = [...s.leaves].slice(0, 4).map(([p, v]) => `${p} = ${show(v)}`)
      const more = s.leaves.size > 4 ? `, ${s.leaves.size - 4} more` : ''
      return `${shown.join(', ') || 'nothing known'}${more}${
        s.priced.size > 0 ? `; premiums ${[...s.priced.values()].join(', ')}` : ''
      }`
    },
    explain(s, input, output) {
      if (output.status === 'refused') return undefined
      let leaves = s.leaves
      if (input.kind === 'update') leaves = updated(leaves, input.patch)
      if (output.data !== undefined) {
        for (const [pointer, value] of leaves) {
          const got = getPointer(output.data, pointer)
          if (!same(got, value)) return `data${pointer} is ${show(got)}, the order says ${show(value)}`
        }
      }
      if (input.kind === 'calculate' && output.premium !== undefined) {
        const before = s.priced.get(leavesText(leaves))
        if (before !== undefined && before !== output.premium)
          return `premium ${output.premium}, the same data was calculated at ${before}`
      }
      return undefined
    },
    preserves: (input, output) => output.status === 'refused' || input.kind !== 'update',
  }
}

/** The leaves of a quote's data the timeline shows: those an update of the history named. */
export function namedLeaves(patch: unknown): string[] {
  return [...leavesOf(patch).keys()].filter((p) => !p.startsWith('/schema'))
}

// ---------------------------------------------------------------- a bound quote's issue (sales §3)

export type IssueInput = { kind: 'issue' } | { kind: 'outcome'; request: string }
export type IssueOutput =
  | { status: 'accepted'; request: string }
  | { status: 'refused' }
  | { status: 'success'; policy: string }
  | { status: 'failure' }
export interface IssueState {
  requests: readonly string[]
  policy?: string
}

/** A bound quote's issue: any number of requests may be accepted, but they make one policy at most. */
export const issueModel: Model<IssueState, IssueInput, IssueOutput> = {
  name: 'bound quote issue',
  init: () => ({ requests: [] }),
  step(s, input, output) {
    if (input.kind === 'issue') {
      if (output.status === 'accepted') return { ...s, requests: [...s.requests, output.request] }
      return output.status === 'refused' ? s : undefined
    }
    if (!s.requests.includes(input.request)) return undefined
    if (output.status === 'success') {
      if (s.policy !== undefined && s.policy !== output.policy) return undefined
      return { ...s, policy: output.policy }
    }
    return output.status === 'failure' ? s : undefined
  },
  key: (s) => `${[...s.requests].sort().join(',')}|${s.policy ?? ''}`,
  describeOperation(input, output) {
    if (input.kind === 'issue')
      return output.status === 'accepted'
        ? `issue -> accepted (request ${output.request})`
        : `issue -> ${output.status}`
    return `request ${input.request} -> ${output.status}${
      output.status === 'success' ? ` (policy ${output.policy})` : ''
    }`
  },
  describeState: (s) =>
    s.policy !== undefined ? `policy ${s.policy}` : `no policy yet, ${s.requests.length} request(s)`,
  explain(s, input, output) {
    if (input.kind === 'outcome' && !s.requests.includes(input.request))
      return `request ${input.request} was not accepted yet in this order`
    if (output.status === 'success' && s.policy !== undefined && s.policy !== output.policy)
      return `a second policy ${output.policy}: the quote already made policy ${s.policy}`
    return undefined
  },
  preserves: (input, output) => input.kind === 'outcome' || output.status === 'refused',
}

// ---------------------------------------------------------------- a policy's money (sales §1, §4)

/** A credit names its allocation event when known: a second credit of one event moves nothing. */
export type MoneyInput =
  | { kind: 'allocate'; cents: number }
  | { kind: 'credit'; cents: number; event?: string }
  | { kind: 'totals' }
export type MoneyOutput = { status: 'ok'; paidCents?: number } | { status: 'refused' }
export interface MoneyState {
  /** paid, in cents, once known. */
  paid?: number
  /** The allocation events credited so far (sorted). */
  credited?: readonly string[]
}

/** Whether a credit of this event was already counted (a credit answered 2xx twice moves money once at most). */
const creditedBefore = (s: { credited?: readonly string[] }, input: { event?: string }) =>
  input.event !== undefined && (s.credited ?? []).includes(input.event)
const withCredited = (s: { credited?: readonly string[] }, input: { event?: string }) =>
  input.event === undefined ? s.credited : [...(s.credited ?? []), input.event].sort()

/**
 * A policy's paid amount: an allocation adds its amount, a credit takes its event's amount back, a read shows the sum.
 */
export const moneyModel: Model<MoneyState, MoneyInput, MoneyOutput> = {
  name: 'policy money',
  init: () => ({}),
  step(s, input, output) {
    if (output.status === 'refused') return s
    if (input.kind === 'totals') {
      if (output.paidCents === undefined) return s
      if (s.paid !== undefined && Math.abs(s.paid - output.paidCents) > 1) return undefined
      return { ...s, paid: output.paidCents }
    }
    if (input.kind === 'credit') {
      if (creditedBefore(s, input)) return s
      const credited = withCredited(s, input)
      return { ...(s.paid !== undefined ? { paid: s.paid - input.cents } : {}), ...(credited ? { credited } : {}) }
    }
    return s.paid === undefined ? s : { ...s, paid: s.paid + input.cents }
  },
  key: (s) => `${s.paid ?? '?'}|${(s.credited ?? []).join(',')}`,
  describeOperation(input, output) {
    const what =
      input.kind === 'totals'
        ? 'totals'
        : `${input.kind}${
            input.kind === 'credit' && input.event !== undefined ? ` of ${input.event}` : ''
          } ${(input.cents / 100).toFixed(2)}`
    if (output.status === 'refused') return `${what} -> refused`
    return input.kind === 'totals'
      ? `${what} -> paid ${output.paidCents === undefined ? '?' : (output.paidCents / 100).toFixed(2)}`
      : `${what} -> ok`
  },
  describeState: (s) => (s.paid === undefined ? 'paid unknown' : `paid ${(s.paid / 100).toFixed(2)}`),
  explain(s, input, output) {
    if (input.kind === 'totals' && output.status === 'ok' && output.paidCents !== undefined && s.paid !== undefined)
      return `paid ${(output.paidCents / 100).toFixed(2)}, the order says ${(s.paid / 100).toFixed(2)}`
    return undefined
  },
  preserves: (input, output) => output.status === 'refused' || input.kind === 'totals',
}

// ---------------------------------------------------------------- a payment (sales §1)

export type PaymentInput = { kind: 'allocate'; cents: number } | { kind: 'credit'; cents: number; event: string }
export type PaymentOutput = { status: 'ok' } | { status: 'refused' }
export interface PaymentState {
  /** The payment's amount not allocated, in cents. */
  unallocated: number
  credited: readonly string[]
}

/**
 * A payment: its allocations take from its amount and a credit of one of its allocation events gives that amount
 * back; an allocation answered 2xx never takes more than is left (sales §1: a payment is allocated up to its amount),
 * whatever order the overlapping ones took. A refusal changes nothing.
 */
export function paymentModel(amountCents: number): Model<PaymentState, PaymentInput, PaymentOutput> {
  return {
    name: 'payment',
    init: () => ({ unallocated: amountCents, credited: [] }),
    step(s, input, output) {
      if (output.status === 'refused') return s
      if (input.kind === 'credit')
        return creditedBefore(s, input)
          ? s
          : { unallocated: s.unallocated + input.cents, credited: withCredited(s, input)! }
      return s.unallocated - input.cents < 0 ? undefined : { ...s, unallocated: s.unallocated - input.cents }
    },
    key: (s) => `${s.unallocated}|${s.credited.join(',')}`,
    describeOperation(input, output) {
      return `${input.kind}${
        input.kind === 'credit' ? ` of ${input.event}` : ''
      } ${(input.cents / 100).toFixed(2)} -> ${output.status}`
    },
    describeState: (s) => `${(s.unallocated / 100).toFixed(2)} unallocated`,
    explain(s, input, output) {
      if (output.status === 'ok' && input.kind === 'allocate' && s.unallocated - input.cents < 0)
        return `allocated ${(input.cents / 100).toFixed(2)} with ${(s.unallocated / 100).toFixed(2)} left of the payment in this order`
      return undefined
    },
    preserves: (_input, output) => output.status === 'refused',
  }
}

// ---------------------------------------------------------------- a webhook subscription (webhooks §2, §4)

export type SubscriptionInput =
  | { kind: 'update'; fields: { event?: string; url?: string } }
  | { kind: 'delete' }
  | { kind: 'get' }
export type SubscriptionOutput =
  | { status: 'ok'; event?: string; url?: string }
  | { status: 'not-found' }
  | { status: 'refused' }
export interface SubscriptionState {
  live: boolean
  event?: string
  url?: string
}

/** A subscription: an update changes the fields it names, a delete ends it; after the delete everything is 404. */
export function subscriptionModel(initial: {
  event: string
  url: string
}): Model<SubscriptionState, SubscriptionInput, SubscriptionOutput> {
  return {
    name: 'subscription',
    init: () => ({ live: true, ...initial }),
    step(s, input, output) {
      if (output.status === 'refused') return s
      if (output.status === 'not-found') return s.live ? undefined : s
      if (!s.live) return undefined
      if (input.kind === 'delete') return { live: false }
      if (input.kind === 'update') return { ...s, ...input.fields }
      if (
        (output.event !== undefined && output.event !== s.event) ||
        (output.url !== undefined && output.url !== s.url)
      )
        return undefined
      return s
    },
    key: (s) => JSON.stringify([s.live, s.event, s.url]),
    describeOperation(input, output) {
      const what = input.kind === 'update' ? `update ${show(input.fields)}` : input.kind
      return output.status === 'ok' && input.kind === 'get'
        ? `get -> ${show({ event: output.event, url: output.url })}`
        : `${what} -> ${output.status}`
    },
    describeState: (s) => (s.live ? `live, event ${s.event}, url ${s.url}` : 'deleted'),
    explain(s, input, output) {
      if (output.status === 'not-found' && s.live) return 'answered 404, the order says it is live'
      if (output.status === 'ok' && !s.live)
        return `answered ${input.kind === 'get' ? 'it' : '200'}, the order says it was deleted`
      if (input.kind === 'get' && output.status === 'ok')
        return `read ${show({ event: output.event, url: output.url })}, the order says ${show({ event: s.event, url: s.url })}`
      return undefined
    },
    preserves: (input, output) => input.kind === 'get' || output.status !== 'ok',
  }
}
