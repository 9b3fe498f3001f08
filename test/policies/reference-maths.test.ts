import { describe, expect, it } from 'vitest'
import { nextPeriod } from '../../helpers/checks/policies/dates'
import { mtaPremium as suiteMta, proRataReturn, shortRateReturn } from '../../helpers/checks/policies/money'
import { mtaPremium, proRata, shortRate } from '../../reference/policies/pricing'
import { renewalPeriod } from '../../reference/policies/routes-data'

/** The reference's maths and the suite's are written separately; they must agree on the conventions they share. */
const PERIODS = [
  { premium: 1234.56, dateInception: '2026-11-23', dateExpiry: '2027-11-22' },
  { premium: 99.99, dateInception: '2027-03-01', dateExpiry: '2028-02-29' },
  { premium: 500, dateInception: '2026-01-01', dateExpiry: '2026-01-31' },
]
const DATES = (p: (typeof PERIODS)[number]) =>
  [p.dateInception, '2027-01-15', '2028-02-01', p.dateExpiry].filter((d) => d >= p.dateInception && d <= p.dateExpiry)

describe('reference maths agrees with the suite maths (expiry-inclusive)', () => {
  for (const p of PERIODS) {
    const suite = { ...p, dayCount: 'expiry-inclusive' as const }
    it(`pro-rata, short-rate and MTA premiums for ${p.dateInception}..${p.dateExpiry}`, () => {
      for (const d of DATES(p)) {
        expect(proRata(p, d), d).toBe(proRataReturn(suite, d))
        expect(shortRate(p, d, 10), d).toBe(shortRateReturn(suite, d, 10, 'return'))
        expect(mtaPremium(p, p.premium * 1.5, d), d).toBe(
          suiteMta({ ...suite, newPremium: p.premium * 1.5 }, d, 'pro-rata'),
        )
      }
    })

    it(`renewal period of ${p.dateInception}..${p.dateExpiry}`, () => {
      expect(renewalPeriod(p.dateInception, p.dateExpiry)).toEqual(
        nextPeriod(p.dateInception, p.dateExpiry, 'expiry-inclusive'),
      )
    })
  }
})
