import type { DayCount } from '../../../common/config/policies-settings'

/** Calendar-date arithmetic on ISO dates (YYYY-MM-DD), in UTC, with no time of day. */

const DAY_MS = 86_400_000
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** Days since 1970-01-01 of an ISO date; undefined when the text is not a valid calendar date. */
export function epochDay(date: string): number | undefined {
  const m = ISO_DATE.exec(date.slice(0, 10))
  if (!m) return undefined
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const ms = Date.UTC(y, mo - 1, d)
  const back = new Date(ms)
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined
  return ms / DAY_MS
}

function mustDay(date: string): number {
  const d = epochDay(date)
  if (d === undefined) throw new Error(`not an ISO calendar date: ${JSON.stringify(date)}`)
  return d
}

export function isIsoDate(value: unknown): value is string {
  return typeof value === 'string' && epochDay(value) !== undefined && value.length === 10
}

export function fromEpochDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10)
}

/** to - from, in days. */
export function daysBetween(from: string, to: string): number {
  return mustDay(to) - mustDay(from)
}

export function addDays(date: string, days: number): string {
  return fromEpochDay(mustDay(date) + days)
}

/** Adds calendar months; the day is clamped to the last day of the target month (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: string, months: number): string {
  mustDay(date)
  const [y, m, d] = date.slice(0, 10).split('-').map(Number) as [number, number, number]
  const total = y * 12 + (m - 1) + months
  const ty = Math.floor(total / 12)
  const tm = total - ty * 12
  const last = new Date(Date.UTC(ty, tm + 1, 0)).getUTCDate()
  return fromEpochDay(Date.UTC(ty, tm, Math.min(d, last)) / DAY_MS)
}

/** Number of covered days of a period. */
export function termDays(inception: string, expiry: string, dayCount: DayCount): number {
  return daysBetween(inception, expiry) + (dayCount === 'expiry-inclusive' ? 1 : 0)
}

/** Covered days from `from` (inclusive) to the end of the period. */
export function remainingDays(from: string, expiry: string, dayCount: DayCount): number {
  return daysBetween(from, expiry) + (dayCount === 'expiry-inclusive' ? 1 : 0)
}

/** The first day after the period. */
export function dayAfterPeriod(expiry: string, dayCount: DayCount): string {
  return dayCount === 'expiry-inclusive' ? addDays(expiry, 1) : expiry
}

/**
 * The next period of a policy: it starts the day after this one ends and lasts as long. A period of
 * whole calendar months (a year, six months) is renewed for the same number of months; any other
 * period for the same number of days.
 */
export function nextPeriod(
  inception: string,
  expiry: string,
  dayCount: DayCount,
): { dateInception: string; dateExpiry: string } {
  const start = dayAfterPeriod(expiry, dayCount)
  const end = (months: number, from: string) =>
    dayCount === 'expiry-inclusive' ? addDays(addMonths(from, months), -1) : addMonths(from, months)
  const monthsApprox = Math.round(daysBetween(inception, start) / 30.4375)
  for (const months of [monthsApprox - 1, monthsApprox, monthsApprox + 1]) {
    if (months > 0 && end(months, inception) === expiry) return { dateInception: start, dateExpiry: end(months, start) }
  }
  const days = termDays(inception, expiry, dayCount)
  return { dateInception: start, dateExpiry: addDays(start, days - (dayCount === 'expiry-inclusive' ? 1 : 0)) }
}
