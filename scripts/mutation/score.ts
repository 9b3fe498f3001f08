import type { DefectResult, Score, VariationResult } from './types'

/** A defect counts as caught when a check failed, or when the run stopped before any check with a reason. */
export function isCaught(d: DefectResult): boolean {
  return d.verdict === 'caught' || d.verdict === 'stopped'
}

/** Score = caught / scored, where defects shown undetectable through the API are left out. */
export function score(defects: readonly DefectResult[]): Score {
  const undetectable = defects.filter((d) => d.verdict === 'undetectable').length
  const scored = defects.length - undetectable
  const caught = defects.filter(isCaught).length
  return { caught, scored, undetectable, ratio: scored === 0 ? 1 : caught / scored }
}

/** Variations with any failed check, or that did not run through. */
export function falseAlarms(variations: readonly VariationResult[]): number {
  return variations.filter((v) => v.verdict !== 'green').length
}

/** The bar: score at or above it, no false alarm, and the faithful reference green. */
export function meetsBar(s: Score, bar: number, alarms: number, baselineGreen: boolean): boolean {
  return baselineGreen && alarms === 0 && s.ratio >= bar - 1e-9
}
