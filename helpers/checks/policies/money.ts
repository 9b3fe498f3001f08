import type { DayCount, MtaAdjustment, ShortRateBase } from '../../../common/config/policies-settings'
import { remainingDays, termDays } from './dates'

/** Money arithmetic on amounts with 2 decimals, done in integer cents to avoid float drift. */

export function toCents(amount: number): number {
  return Math.round(amount * 100 + (amount >= 0 ? 1e-9 : -1e-9))
}

export function fromCents(cents: number): number {
  return cents / 100
}

/** Rounds half away from zero to cents. */
export function roundMoney(amount: number): number {
  return fromCents(toCents(amount))
}

export function sumMoney(amounts: readonly number[]): number {
  return fromCents(amounts.reduce((s, a) => s + toCents(a), 0))
}

/** |a - b| <= tolerance (both rounded to cents first). */
export function moneyEqual(a: number, b: number, tolerance: number): boolean {
  return Math.abs(toCents(a) - toCents(b)) <= toCents(tolerance)
}

export interface PeriodInput {
  /** Premium of the whole period. */
  premium: number
  dateInception: string
  dateExpiry: string
  dayCount: DayCount
}

/** Share of the period not yet used on `date` (0..1). */
export function unusedShare(p: PeriodInput, date: string): number {
  const total = termDays(p.dateInception, p.dateExpiry, p.dayCount)
  const left = Math.min(total, Math.max(0, remainingDays(date, p.dateExpiry, p.dayCount)))
  return total > 0 ? left / total : 0
}

/** Pro-rata return premium: the premium of the days from the termination date to the end of the period. */
export function proRataReturn(p: PeriodInput, terminationDate: string): number {
  return roundMoney(p.premium * unusedShare(p, terminationDate))
}

/** Short-rate return premium: the pro-rata return less the short-rate penalty. */
export function shortRateReturn(
  p: PeriodInput,
  terminationDate: string,
  shortRatePct: number,
  base: ShortRateBase,
): number {
  const exact = p.premium * unusedShare(p, terminationDate)
  if (base === 'return') return roundMoney(exact * (1 - shortRatePct / 100))
  return roundMoney(Math.max(0, exact - (p.premium * shortRatePct) / 100))
}

/** The premium of a mid-term adjustment effective on `mtaDate`. */
export function mtaPremium(p: PeriodInput & { newPremium: number }, mtaDate: string, method: MtaAdjustment): number {
  const diff = p.newPremium - p.premium
  if (method === 'full-difference') return roundMoney(diff)
  return roundMoney(diff * unusedShare(p, mtaDate))
}

/** Splits an amount into parts proportional to weights, in cents, the remainder on the last part. */
export function splitProportionally(amount: number, weights: readonly number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0)
  const cents = toCents(amount)
  if (weights.length === 0) return []
  const parts = weights.map((w) => (total === 0 ? 0 : Math.round((cents * w) / total)))
  parts[parts.length - 1] = cents - parts.slice(0, -1).reduce((s, c) => s + c, 0)
  return parts.map(fromCents)
}
