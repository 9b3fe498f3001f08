/** The field-sensitivity arithmetic and the fixed sample (pure functions). */
import { createHash } from 'node:crypto'
import type { FieldClass, FieldOutcome, FieldResult, Sensitivity } from './types'

/** The perturbed values of these outcomes count in the denominator (applied, and the field is not free). */
const SCORED: ReadonlySet<FieldOutcome> = new Set(['caught', 'stopped', 'inconclusive', 'missed', 'error'])

export function isCaughtOutcome(o: FieldOutcome): boolean {
  return o === 'caught' || o === 'stopped'
}

/**
 * Sensitivity of a set of results: caught / scored non-free fields; free fields that failed a check are false alarms.
 */
export function sensitivity(results: readonly Pick<FieldResult, 'free' | 'outcome'>[]): Sensitivity {
  const s: Sensitivity = {
    fields: results.length,
    free: 0,
    scored: 0,
    caught: 0,
    missed: 0,
    inconclusive: 0,
    error: 0,
    notExercised: 0,
    freeCaught: 0,
    ratio: 1,
  }
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

/** A number for a seed and a key (the first 48 bits of their SHA-256): the order in which a stratum gives its items. */
export function rank(seed: number, key: string): number {
  return parseInt(createHash('sha256').update(`${seed}:${key}`).digest('hex').slice(0, 12), 16)
}

/**
 * A fixed, seeded, stratified sample of `size` items: each stratum (an operation) gives its share of the sample in
 * proportion to its items (largest remainders; ties by the stratum's name), and within a stratum the items of smallest
 * rank(seed, key) are taken. Nobody picks the items, and the sample does not move when the list does: an item that
 * comes or goes changes at most the one item of its stratum it displaces (every k-th item of the sorted list would
 * move every later pick; two recordings of the map may differ by a field answered in one run only). Returned in the
 * list's order; all of them when the list is not longer than size.
 */
export function stratifiedSample<T>(
  sorted: readonly T[],
  size: number,
  seed: number,
  stratum: (t: T) => string,
  key: (t: T) => string,
): T[] {
  if (size <= 0) return []
  if (sorted.length <= size) return [...sorted]
  const groups = new Map<string, T[]>()
  for (const t of sorted) groups.set(stratum(t), [...(groups.get(stratum(t)) ?? []), t])
  const shares = [...groups.entries()].map(([name, items]) => {
    const exact = (size * items.length) / sorted.length
    return { name, items, quota: Math.floor(exact), rest: exact - Math.floor(exact) }
  })
  let left = size - shares.reduce((n, g) => n + g.quota, 0)
  for (const g of [...shares].sort((a, b) => b.rest - a.rest || (a.name < b.name ? -1 : 1))) {
    if (left <= 0) break
    g.quota += 1
    left -= 1
  }
  const chosen = new Set<T>()
  for (const g of shares)
    for (const t of [...g.items].sort((a, b) => rank(seed, key(a)) - rank(seed, key(b))).slice(0, g.quota))
      chosen.add(t)
  return sorted.filter((t) => chosen.has(t))
}

/** Whether every scored non-free field was caught and every selected non-free field was exercised (--fail-on-miss). */
export function allCaught(results: readonly Pick<FieldResult, 'free' | 'outcome'>[]): boolean {
  return results.every((r) => r.free || isCaughtOutcome(r.outcome))
}
