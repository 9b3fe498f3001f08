/** The field-sensitivity arithmetic and the fixed sample (pure functions). */
import type { FieldClass, FieldOutcome, FieldResult, Sensitivity } from './types'

/** The perturbed values of these outcomes count in the denominator (applied, and the field is not free). */
const SCORED: ReadonlySet<FieldOutcome> = new Set(['caught', 'stopped', 'inconclusive', 'missed', 'error'])

export function isCaughtOutcome(o: FieldOutcome): boolean {
  return o === 'caught' || o === 'stopped'
}

/** Sensitivity of a set of results: caught / scored non-free fields; free fields that failed a check are false alarms. */
export function sensitivity(results: readonly Pick<FieldResult, 'free' | 'outcome'>[]): Sensitivity {
  const s: Sensitivity = { fields: results.length, free: 0, scored: 0, caught: 0, missed: 0, inconclusive: 0, error: 0, notExercised: 0, freeCaught: 0, ratio: 1 }
  for (const r of results) {
    if (r.free) {
      s.free += 1
      if (isCaughtOutcome(r.outcome)) s.freeCaught += 1
      continue
    }
    if (r.outcome === 'not-exercised') {
      s.notExercised += 1
      continue
    }
    if (!SCORED.has(r.outcome)) continue
    s.scored += 1
    if (isCaughtOutcome(r.outcome)) s.caught += 1
    else if (r.outcome === 'missed') s.missed += 1
    else if (r.outcome === 'inconclusive') s.inconclusive += 1
    else s.error += 1
  }
  s.ratio = s.scored === 0 ? 1 : s.caught / s.scored
  return s
}

/** Sensitivity per operation, in the operations' order of first appearance (the map's order). */
export function perOperation(results: readonly FieldResult[]): ({ operation: string } & Sensitivity)[] {
  const ops = [...new Set(results.map((r) => r.operation))]
  return ops.map((operation) => ({ operation, ...sensitivity(results.filter((r) => r.operation === operation)) }))
}

export function ofClass(results: readonly FieldResult[], c: FieldClass): Sensitivity {
  return sensitivity(results.filter((r) => r.class === c))
}

/**
 * A fixed, stratified sample: every k-th item of the sorted list (k = floor(length / size)), from offset seed mod k.
 * The list's order (by operation, status, path) spreads the sample over the operations in proportion to their fields;
 * nobody picks the fields. All of them when the list is not longer than size.
 */
export function everyKth<T>(sorted: readonly T[], size: number, seed: number): { items: T[]; k: number; offset: number } {
  if (size <= 0) return { items: [], k: 0, offset: 0 }
  if (sorted.length <= size) return { items: [...sorted], k: 1, offset: 0 }
  const k = Math.floor(sorted.length / size)
  const offset = ((seed % k) + k) % k
  const items: T[] = []
  for (let i = 0; i < size; i += 1) items.push(sorted[offset + i * k]!)
  return { items, k, offset }
}

/** Whether every scored non-free field was caught and every selected non-free field was exercised (--fail-on-miss). */
export function allCaught(results: readonly Pick<FieldResult, 'free' | 'outcome'>[]): boolean {
  return results.every((r) => r.free || isCaughtOutcome(r.outcome))
}
