import type { Totals } from './results'

/** The categories of a run's checks, in the order every report says them (console, checks.json, matrix, JUnit). */
export const TOTALS_ORDER = [
  ['passed', 'passed'],
  ['failed', 'failed'],
  ['errored', 'errored'],
  ['blocked', 'blocked'],
  ['not-applicable', 'not applicable'],
  ['skipped', 'skipped'],
] as const

/**
 * The one sentence of a run's totals: "305 passed, 3 failed, 0 errored, 16 blocked, 36 not applicable, 0 skipped,
 * 0 deviation(s)". `failedNote` follows the failed count ("(2 distinct finding(s))"); `wrap` marks up each number
 * (the HTML matrix gives each an id).
 */
export function totalsLine(
  t: Totals,
  o: { failedNote?: string; wrap?: (key: string, n: number) => string } = {},
): string {
  const num = (key: string, n: number) => (o.wrap ? o.wrap(key, n) : String(n))
  const parts = TOTALS_ORDER.map(
    ([key, label]) => `${num(key, t[key] ?? 0)} ${label}${key === 'failed' && o.failedNote ? ` ${o.failedNote}` : ''}`,
  )
  return `${parts.join(', ')}, ${num('deviations', t.deviations ?? 0)} deviation(s)`
}
