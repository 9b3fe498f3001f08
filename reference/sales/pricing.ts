import type { Financials, Installment } from './records'

type Json = Record<string, unknown>

export const round2 = (n: number): number => Math.round(n * 100) / 100

const FREQUENCY: Record<string, number> = { annual: 1, 'semi-annual': 2, quarterly: 4, monthly: 12 }
const CONSTRUCTION_RATE: Record<string, number> = { brick: 0.0011, concrete: 0.001, wood: 0.0019, stone: 0.0012 }
const COVERAGE_LOAD: Record<string, number> = { fire: 0.25, flood: 0.35, theft: 0.2, liability: 0.1, glass: 0.05 }
const REGION_DAY_RATE: Record<string, number> = { europe: 0.9, 'worldwide-excl-americas': 1.6, worldwide: 2.4 }

function arr(v: unknown): Json[] {
  return Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as Json[]) : []
}
function num(v: unknown, d = 0): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : d
}
function days(from: string, to: string): number {
  const ms = Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)
  return Number.isFinite(ms) ? Math.max(1, Math.round(ms / 86_400_000) + 1) : 365
}
function age(birth: unknown, at: string): number {
  if (typeof birth !== 'string') return 40
  return Math.max(0, (Date.parse(`${at}T00:00:00Z`) - Date.parse(`${birth}T00:00:00Z`)) / (365.25 * 86_400_000))
}

/** Premium of the policy period before tax: a deterministic function of the quote data. */
export function periodPremium(product: string, data: Json): number {
  const policy = (data['policy'] ?? {}) as Json
  const objects = (data['objects'] ?? {}) as Json
  const inception = String(policy['dateInception'] ?? '')
  const period = days(inception, String(policy['dateExpiry'] ?? ''))
  let premium = 0
  if (product === 'home') {
    for (const b of arr(objects['building'])) {
      const cover = (Array.isArray(b['coverages']) ? (b['coverages'] as string[]) : []).reduce(
        (s, c) => s + (COVERAGE_LOAD[c] ?? 0.1),
        0,
      )
      const ageLoad = 1 + Math.min(0.5, Math.max(0, 2026 - num(b['constructionYear'], 2000)) / 400)
      const deductibleCredit = 1 - num(b['deductible'], 100) / 10_000
      premium +=
        num(b['sumInsured']) *
        (CONSTRUCTION_RATE[String(b['constructionType'])] ?? 0.0015) *
        (1 + cover) *
        ageLoad *
        deductibleCredit
    }
    for (const c of arr(objects['contents'])) premium += num(c['value']) * 0.008
    premium = (premium * period) / 365
  } else {
    const trip = arr(objects['trip'])[0] ?? {}
    const dayRate = REGION_DAY_RATE[String(trip['region'])] ?? 1.5
    const tripDays = trip['tripType'] === 'annual-multi' ? 60 : period
    const sport = trip['winterSports'] === true ? 1.3 : 1
    for (const t of arr(objects['traveller'])) {
      const a = age(t['birthDate'], inception)
      premium += dayRate * tripDays * sport * (a >= 70 ? 2.5 : a >= 60 ? 1.6 : a < 18 ? 0.6 : 1)
    }
  }
  return round2(Math.max(25, premium))
}

/** Splits the premium over the payment frequency; cents that do not divide go on the first installment. */
export function instalmentSchedule(premium: number, inception: string, frequency: string): Installment[] {
  const n = FREQUENCY[frequency] ?? 1
  const cents = Math.round(premium * 100)
  const base = Math.floor(cents / n)
  const start = new Date(`${inception}T00:00:00Z`)
  return Array.from({ length: n }, (_, i) => {
    const due = new Date(start)
    due.setUTCMonth(due.getUTCMonth() + (i * 12) / n)
    return { dueDate: due.toISOString().slice(0, 10), premium: (base + (i === 0 ? cents - base * n : 0)) / 100 }
  })
}

/** Financials of a calculated quote. */
export function financialsOf(product: string, data: Json, premium: number, installments: number): Financials {
  const policy = (data['policy'] ?? {}) as Json
  const taxPct = 12
  const adminFeeSum = 10
  const brokerCommPct = num(policy['brokerCommissionPct'], 15)
  const mgaCommPct = 5
  const tax = round2((premium * taxPct) / 100)
  return {
    currency: typeof policy['currency'] === 'string' ? policy['currency'] : 'EUR',
    periodPremium: premium,
    taxPct,
    tax,
    adminFeeSum,
    feeVatPct: 20,
    brokerCommPct,
    brokerComm: round2((premium * brokerCommPct) / 100),
    mgaCommPct,
    mgaComm: round2((premium * mgaCommPct) / 100),
    installments,
    total: round2(premium + tax + adminFeeSum),
  }
}
