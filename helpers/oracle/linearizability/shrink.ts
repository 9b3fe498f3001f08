import { checkOperations, type Budget, type CheckResult, type Model, type Operation } from './checker'

/**
 * A history that is not linearizable, shrunk to a smaller one that still is not (a delta-debugging pass with the
 * checker as the predicate), so that the timeline printed shows what matters. Only removals that cannot make a
 * linearizable history look broken are tried, so the shrunk history fails for a reason the real one had:
 *
 * 1. **A tail in real time**: operations that all began after every kept one had answered. Any order of the whole
 *    history puts them after the kept ones, so they cannot have explained a kept answer.
 * 2. **Operations that change no state** (Model.preserves: a read, a refusal): a history without one allows at least
 *    the orders it allowed with it.
 *
 * A write answered 2xx is never dropped from inside the history: without it a later read showing its value would fail
 * for a reason the real history did not have. Each try is bounded by `budget`; a try the checker cannot decide keeps
 * the operation.
 */
export interface Shrunk<I, O> {
  ops: Operation<I, O>[]
  outcome: CheckResult
  /** What was dropped, in words (undefined when nothing was). */
  dropped?: string
}

export const SHRINK_BUDGET: Budget = { maxSteps: 20_000, maxMs: 50 }

export function shrinkHistory<S, I, O>(
  model: Model<S, I, O>,
  ops: readonly Operation<I, O>[],
  outcome: CheckResult,
  budget: Budget = SHRINK_BUDGET,
): Shrunk<I, O> {
  if (outcome.result !== 'illegal') return { ops: [...ops], outcome }
  const illegal = (candidate: readonly Operation<I, O>[]) => {
    const r = checkOperations(model, candidate, budget)
    return r.result === 'illegal' ? r : undefined
  }
  let kept = [...ops]
  let result: CheckResult = outcome
  // 1. the shortest prefix in real time whose every left-out operation began after the prefix's last answer
  const byCall = [...kept].sort((a, b) => a.call - b.call)
  let tail = 0
  for (let k = 1; k < byCall.length; k++) {
    const prefix = byCall.slice(0, k)
    const lastAnswer = Math.max(...prefix.map((o) => o.ret))
    if (byCall.slice(k).some((o) => o.call <= lastAnswer)) continue
    // the candidate keeps the history's own order: the checker's orders are indexes into it
    const candidate = kept.filter((o) => prefix.includes(o))
    const r = illegal(candidate)
    if (!r) continue
    tail = byCall.length - k
    kept = candidate
    result = r
    break
  }
  // 2. each operation that changes no state, dropped when the rest still fails
  let quiet = 0
  for (const op of [...kept]) {
    if (!model.preserves?.(op.input, op.output)) continue
    const without = kept.filter((o) => o !== op)
    const r = without.length > 0 ? illegal(without) : undefined
    if (!r) continue
    kept = without
    result = r
    quiet += 1
  }
  const parts = [
    ...(tail > 0 ? [`${tail} operation(s) that began after all the others had answered`] : []),
    ...(quiet > 0 ? [`${quiet} read(s) or refusal(s) no order needed`] : []),
  ]
  return { ops: kept, outcome: result, ...(parts.length > 0 ? { dropped: parts.join(' and ') } : {}) }
}
