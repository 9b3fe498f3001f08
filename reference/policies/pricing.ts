/**
 * The reference service's own termination and MTA maths (deliberately separate from the suite's
 * helpers/checks/policies/money.ts, so one bug cannot hide in both). The expiry date is the last covered
 * day: a policy from 2026-01-01 to 2026-12-31 covers 365 days; terminated on 2026-12-01 it leaves 31 days unused.
 */

const DAY = 86_400_000

function day(iso: string): number {
  return Math.round(new Date(`${iso.slice(0, 10)}T00:00:00Z`).getTime() / DAY)
}

export function cents(x: number): number {
  return Math.round(x * 100 + Math.sign(x) * 1e-9) / 100
}

export interface Period {
  premium: number
  dateInception: string
  dateExpiry: string
}

export function unusedFraction(p: Period, from: string, offByOne = false): number {
  const total = day(p.dateExpiry) - day(p.dateInception) + 1
  const left = Math.max(0, Math.min(total, day(p.dateExpiry) - day(from) + 1 + (offByOne ? 1 : 0)))
  return total > 0 ? left / total : 0
}

export function proRata(p: Period, terminationDate: string, offByOne = false): number {
  return cents(p.premium * unusedFraction(p, terminationDate, offByOne))
}

/** Short-rate: the insurer keeps shortRatePct % of the pro-rata return. */
export function shortRate(p: Period, terminationDate: string, shortRatePct: number): number {
  return cents(p.premium * unusedFraction(p, terminationDate) * (1 - shortRatePct / 100))
}

/** MTA premium: the difference of the period premiums for the rest of the period from the MTA date. */
export function mtaPremium(p: Period, newPremium: number, mtaDate: string): number {
  return cents((newPremium - p.premium) * unusedFraction(p, mtaDate))
}

export function addDaysIso(iso: string, n: number): string {
  return new Date((day(iso) + n) * DAY).toISOString().slice(0, 10)
}

/** Adds calendar months, clamping the day to the end of the target month. */
export function addMonthsIso(iso: string, n: number): string {
  const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`)
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1))
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(d.getUTCDate(), last))
  return target.toISOString().slice(0, 10)
}

export function isIso(v: unknown): v is string {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(new Date(`${v}T00:00:00Z`).getTime())
}
