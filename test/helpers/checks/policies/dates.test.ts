import { describe, expect, it } from 'vitest'
import {
  addDays,
  addMonths,
  daysBetween,
  epochDay,
  isIsoDate,
  nextPeriod,
  remainingDays,
  termDays,
} from '../../../../helpers/checks/policies/dates'

describe('policy dates', () => {
  it('rejects impossible calendar dates', () => {
    expect(epochDay('2026-02-30')).toBeUndefined()
    expect(epochDay('31.02.2026')).toBeUndefined()
    expect(isIsoDate('2028-02-29')).toBe(true)
    expect(isIsoDate('2027-02-29')).toBe(false)
    expect(isIsoDate('2027-02-28T00:00:00Z')).toBe(false)
  })

  it('counts days across a leap day and a year boundary', () => {
    expect(daysBetween('2027-12-31', '2028-03-01')).toBe(61)
    expect(addDays('2027-12-31', 1)).toBe('2028-01-01')
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29')
  })

  it('adds months clamping to the end of the month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28')
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29')
    expect(addMonths('2026-11-23', 12)).toBe('2027-11-23')
    expect(addMonths('2026-03-15', -3)).toBe('2025-12-15')
  })

  it('counts the expiry day as covered only when inclusive', () => {
    expect(termDays('2026-01-01', '2026-12-31', 'expiry-inclusive')).toBe(365)
    expect(termDays('2026-01-01', '2027-01-01', 'expiry-exclusive')).toBe(365)
    expect(remainingDays('2026-12-01', '2026-12-31', 'expiry-inclusive')).toBe(31)
    expect(remainingDays('2026-12-01', '2027-01-01', 'expiry-exclusive')).toBe(31)
  })

  it('renews a one-year period for a year, starting the day after the last covered day', () => {
    expect(nextPeriod('2026-11-23', '2027-11-22', 'expiry-inclusive')).toEqual({
      dateInception: '2027-11-23',
      dateExpiry: '2028-11-22',
    })
    expect(nextPeriod('2027-03-01', '2028-02-29', 'expiry-inclusive')).toEqual({
      dateInception: '2028-03-01',
      dateExpiry: '2029-02-28',
    })
    expect(nextPeriod('2026-01-01', '2027-01-01', 'expiry-exclusive')).toEqual({
      dateInception: '2027-01-01',
      dateExpiry: '2028-01-01',
    })
    expect(nextPeriod('2026-01-01', '2026-06-30', 'expiry-inclusive')).toEqual({
      dateInception: '2026-07-01',
      dateExpiry: '2026-12-31',
    })
  })

  it('renews an irregular period for the same number of days', () => {
    expect(nextPeriod('2026-01-01', '2026-01-10', 'expiry-inclusive')).toEqual({
      dateInception: '2026-01-11',
      dateExpiry: '2026-01-20',
    })
    expect(nextPeriod('2026-01-01', '2026-01-11', 'expiry-exclusive')).toEqual({
      dateInception: '2026-01-11',
      dateExpiry: '2026-01-21',
    })
  })
})
