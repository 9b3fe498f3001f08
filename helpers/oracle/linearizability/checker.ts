/**
 * A linearizability checker: the Wing–Gong algorithm with Lowe's memoisation, one resource at a time
 * (P-compositionality), after the published algorithm as Porcupine implements it (github.com/anishathalye/porcupine,
 * checker.go; read, not copied).
 *
 * A history is linearizable when some total order of its operations (1) keeps every operation that returned before
 * another began before it (real-time order) and (2) is a run the sequential specification (the model) accepts with
 * the outputs observed. The search walks a list of call and return entries sorted by time: it tries to linearize the
 * first call whose return is still ahead (any call before the first pending return may go next), lifts it out of the
 * list when the model accepts it, backtracks when it reaches a return whose call could not be linearized, and
 * remembers each (set of linearized operations, model state) it reached so that no state is searched twice.
 *
 * The search is bounded (steps and wall time): past its budget it answers `unknown`, never a verdict.
 */

/** One operation of a history: what was asked (input), what came back (output), and when (call and return times). */
export interface Operation<I, O> {
  /** Unique within the history. */
  id: number
  /** Who invoked it (the check, or the lane of the check). */
  caller: string
  input: I
  output: O
  /** Invocation and completion times, same clock, call <= ret (performance.now() milliseconds). */
  call: number
  ret: number
}

/**
 * A sequential specification: the state an operation moves the resource to, or undefined when it cannot explain the
 * output.
 */
export interface Model<S, I, O> {
  name: string
  init(): S
  step(state: S, input: I, output: O): S | undefined
  /** A canonical text of a state: two states with the same key are the same state (the cache's equality). */
  key(state: S): string
  describeOperation(input: I, output: O): string
  describeState(state: S): string
  /** Why the model refuses an output in a state (for the timeline), when it can say. */
  explain?(state: S, input: I, output: O): string | undefined
  /**
   * The operation changes no state (a read, a refusal): a history without it allows at least the orders the history
   * with it allows, so a history shrunk by dropping it and still not linearizable shows a real failure (shrink.ts).
   */
  preserves?(input: I, output: O): boolean
}

export interface Budget {
  /** Model steps over all partitions at most. */
  maxSteps: number
  /** Wall time at most (milliseconds). */
  maxMs: number
}

export const DEFAULT_BUDGET: Budget = { maxSteps: 200_000, maxMs: 250 }

export type CheckResult =
  | { result: 'ok'; order: number[]; steps: number }
  /** partials: the longest orders the search could build, each ending where no remaining operation could follow. */
  | { result: 'illegal'; partials: number[][]; steps: number }
  | { result: 'unknown'; steps: number; reason: string }

interface Node {
  id: number
  /** The return entry of a call entry; undefined on a return entry (and on the head). */
  match?: Node
  prev?: Node
  next?: Node
}

/** The entries of a history sorted by time; at equal times a call before a return (the two count as overlapping). */
function linkedEntries<I, O>(ops: readonly Operation<I, O>[]): Node {
  const entries = ops.flatMap((op, index) => [
    { index, call: true, time: op.call },
    { index, call: false, time: op.ret },
  ])
  entries.sort((a, b) => a.time - b.time || (a.call === b.call ? 0 : a.call ? -1 : 1))
  const head: Node = { id: -1 }
  const returns = new Map<number, Node>()
  let last = head
  // returns first, so that each call can point at its own
  const nodes = entries.map((e) => {
    const n: Node = { id: e.index }
    if (!e.call) returns.set(e.index, n)
    return { n, call: e.call }
  })
  for (const { n, call } of nodes) {
    if (call) n.match = returns.get(n.id)
    n.prev = last
    last.next = n
    last = n
  }
  return head
}

function lift(n: Node): void {
  n.prev!.next = n.next
  if (n.next) n.next.prev = n.prev
  const m = n.match!
  m.prev!.next = m.next
  if (m.next) m.next.prev = m.prev
}

function unlift(n: Node): void {
  const m = n.match!
  m.prev!.next = m
  if (m.next) m.next.prev = m
  n.prev!.next = n
  if (n.next) n.next.prev = n
}

/** A set of operation indexes as a bit string (its text is the cache key's first half). */
class Bits {
  private readonly words: Uint32Array
  constructor(n: number) {
    this.words = new Uint32Array(Math.ceil(n / 32) || 1)
  }
  set(i: number): void {
    this.words[i >>> 5]! |= 1 << (i & 31)
  }
  clear(i: number): void {
    this.words[i >>> 5]! &= ~(1 << (i & 31))
  }
  key(): string {
    return Array.from(this.words, (w) => w.toString(36)).join('.')
  }
}

/** The meter the partitions of one history share. */
class Meter {
  steps = 0
  private readonly started = performance.now()
  constructor(private readonly budget: Budget) {}
  /** Counts one step; false when the budget is spent. */
  tick(): boolean {
    this.steps += 1
    if (this.steps > this.budget.maxSteps) return false
    return (this.steps & 1023) !== 0 || performance.now() - this.started <= this.budget.maxMs
  }
  why(): string {
    return this.steps > this.budget.maxSteps
      ? `more than ${this.budget.maxSteps} steps`
      : `more than ${this.budget.maxMs} ms`
  }
}

/** Checks one partition (one resource) against its model. */
function checkSingle<S, I, O>(model: Model<S, I, O>, ops: readonly Operation<I, O>[], meter: Meter): CheckResult {
  const n = ops.length
  if (n === 0) return { result: 'ok', order: [], steps: meter.steps }
  const head = linkedEntries(ops)
  const linearized = new Bits(n)
  const cache = new Set<string>()
  const calls: { node: Node; state: S }[] = []
  /** Per operation: the longest order built that held it. */
  const longest: (number[] | undefined)[] = new Array(n)
  let state = model.init()
  let entry = head.next
  while (head.next) {
    if (!meter.tick()) return { result: 'unknown', steps: meter.steps, reason: meter.why() }
    if (entry && entry.match) {
      const op = ops[entry.id]!
      const next = model.step(state, op.input, op.output)
      if (next !== undefined) {
        linearized.set(entry.id)
        const key = `${linearized.key()}|${model.key(next)}`
        if (!cache.has(key)) {
          cache.add(key)
          calls.push({ node: entry, state })
          state = next
          lift(entry)
          entry = head.next
          continue
        }
        linearized.clear(entry.id)
      }
      entry = entry.next
      continue
    }
    // a return entry (or the end): the operation it closes could not go next; backtrack
    if (calls.length === 0) return { result: 'illegal', partials: distinct(longest), steps: meter.steps }
    const seq = calls.map((c) => c.node.id)
    for (const id of seq) if ((longest[id]?.length ?? -1) < seq.length) longest[id] = seq
    const top = calls.pop()!
    state = top.state
    linearized.clear(top.node.id)
    unlift(top.node)
    entry = top.node.next
  }
  return { result: 'ok', order: calls.map((c) => c.node.id), steps: meter.steps }
}

function distinct(longest: (number[] | undefined)[]): number[][] {
  const seen = new Set<number[]>()
  const out: number[][] = []
  for (const l of longest) {
    if (l === undefined || seen.has(l)) continue
    seen.add(l)
    out.push(l)
  }
  // operations that no order could hold: an empty partial (nothing linearized before them)
  return out.length > 0 ? out : [[]]
}

/** One resource's history and the specification it follows. */
export interface Partition<S, I, O> {
  key: string
  model: Model<S, I, O>
  ops: readonly Operation<I, O>[]
}

export interface PartitionResult<S = unknown, I = unknown, O = unknown> {
  partition: Partition<S, I, O>
  /** Orders and partials are indexes into partition.ops. */
  outcome: CheckResult
}

export interface HistoryResult {
  result: 'ok' | 'illegal' | 'unknown'
  partitions: PartitionResult[]
  steps: number
}

/**
 * Checks a history split per resource (P-compositionality: a history is linearizable iff each resource's
 * subhistory is). Illegal as soon as one partition is; unknown when none is illegal and one ran out of budget.
 */
export function checkPartitions(
  partitions: readonly Partition<any, any, any>[],
  budget: Budget = DEFAULT_BUDGET,
): HistoryResult {
  const meter = new Meter(budget)
  const results: PartitionResult[] = []
  let unknown = false
  for (const p of partitions) {
    const outcome = unknown
      ? { result: 'unknown' as const, steps: meter.steps, reason: meter.why() }
      : checkSingle(p.model, p.ops, meter)
    results.push({ partition: p, outcome })
    if (outcome.result === 'illegal') return { result: 'illegal', partitions: results, steps: meter.steps }
    if (outcome.result === 'unknown') unknown = true
  }
  return { result: unknown ? 'unknown' : 'ok', partitions: results, steps: meter.steps }
}

/** Checks one resource's history. */
export function checkOperations<S, I, O>(
  model: Model<S, I, O>,
  ops: readonly Operation<I, O>[],
  budget: Budget = DEFAULT_BUDGET,
): CheckResult {
  return checkSingle(model, ops, new Meter(budget))
}

/** Splits a history per resource key (the keys in first-seen order). */
export function partitionBy<T>(items: readonly T[], keyOf: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const t of items) {
    const k = keyOf(t)
    const list = out.get(k) ?? []
    list.push(t)
    out.set(k, list)
  }
  return out
}

/** The states a sequence of operations passes through (undefined from the first one the model refuses). */
export function replay<S, I, O>(
  model: Model<S, I, O>,
  ops: readonly Operation<I, O>[],
  order: readonly number[],
): (S | undefined)[] {
  let state: S | undefined = model.init()
  return order.map((i) => {
    if (state !== undefined) state = model.step(state, ops[i]!.input, ops[i]!.output)
    return state
  })
}
