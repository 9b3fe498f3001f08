import { describe, expect, it } from 'vitest'
import {
  moneyEqual,
  mtaPremium,
  proRataReturn,
  roundMoney,
  shortRateReturn,
  splitProportionally,
  sumMoney,
  toCents,
} from '../../../../helpers/checks/policies/money'

const YEAR = {
  premium: 365,
  dateInception: '2026-01-01',
  dateExpiry: '2026-12-31',
  dayCount: 'expiry-inclusive' as const,
}

describe('policy money', () => {
  it('rounds half away from zero in cents without float drift', () => {
    expect(roundMoney(1.005)).toBe(1.01)
    expect(roundMoney(-1.005)).toBe(-1.01)
    expect(toCents(0.1 + 0.2)).toBe(30)
    expect(sumMoney([0.1, 0.2, 0.3])).toBe(0.6)
  })

  it('compares with a tolerance in cents', () => {
    expect(moneyEqual(10, 10.01, 0.01)).toBe(true)
    expect(moneyEqual(10, 10.02, 0.01)).toBe(false)
    expect(moneyEqual(10, 10.01, 0)).toBe(false)
  })

  it('pro-rata returns the premium of the unused days', () => {
    expect(proRataReturn(YEAR, '2026-12-01')).toBe(31)
    expect(proRataReturn(YEAR, '2026-01-01')).toBe(365)
    expect(proRataReturn(YEAR, '2026-12-31')).toBe(1)
    expect(proRataReturn({ ...YEAR, premium: 1000 }, '2026-07-01')).toBe(504.11) // 184/365
    expect(proRataReturn({ ...YEAR, dayCount: 'expiry-exclusive', dateExpiry: '2027-01-01' }, '2026-12-01')).toBe(31)
  })

  it('never returns more than the premium or less than nothing', () => {
    expect(proRataReturn(YEAR, '2025-06-01')).toBe(365)
    expect(proRataReturn(YEAR, '2027-06-01')).toBe(0)
  })

  it('short-rate keeps a percentage of the return or of the premium', () => {
    expect(shortRateReturn({ ...YEAR, premium: 1000 }, '2026-07-01', 10, 'return')).toBe(453.7) // 504.109.. * 0.9
    expect(shortRateReturn({ ...YEAR, premium: 1000 }, '2026-07-01', 10, 'premium')).toBe(404.11)
    expect(shortRateReturn({ ...YEAR, premium: 1000 }, '2026-12-31', 10, 'premium')).toBe(0)
  })

  it('charges an MTA for the rest of the period, or in full', () => {
    expect(mtaPremium({ ...YEAR, newPremium: 730 }, '2026-12-01', 'pro-rata')).toBe(31)
    expect(mtaPremium({ ...YEAR, newPremium: 300 }, '2026-12-01', 'pro-rata')).toBe(-5.52)
    expect(mtaPremium({ ...YEAR, newPremium: 730 }, '2026-12-01', 'full-difference')).toBe(365)
  })

  it('splits proportionally and puts the remainder on the last part', () => {
    expect(splitProportionally(100, [1, 1, 1])).toEqual([33.33, 33.33, 33.34])
    expect(sumMoney(splitProportionally(99.99, [3, 2, 7]))).toBe(99.99)
    expect(splitProportionally(10, [])).toEqual([])
  })
})
