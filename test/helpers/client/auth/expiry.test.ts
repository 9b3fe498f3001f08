import { describe, expect, it } from 'vitest'
import { expiredTokenAnswer, msUntilExpired } from '../../../../helpers/client/auth/expiry'

describe('expired tokens and the leeway', () => {
  const exp = 1_000_000
  it('a 401 is a refusal whatever the time', () => {
    expect(expiredTokenAnswer({ status: 401 }, exp, exp * 1000 + 500, 30)).toEqual({ kind: 'refused' })
  })
  it('an accepted token within the leeway is a deviation, beyond it a failure', () => {
    expect(expiredTokenAnswer({ status: 200 }, exp, exp * 1000 + 1500, 30)).toEqual({
      kind: 'within-leeway',
      pastSeconds: 1.5,
    })
    expect(expiredTokenAnswer({ status: 204 }, exp, exp * 1000 + 30_000, 30)).toEqual({
      kind: 'within-leeway',
      pastSeconds: 30,
    })
    expect(expiredTokenAnswer({ status: 200 }, exp, exp * 1000 + 120_000, 30)).toEqual({
      kind: 'beyond-leeway',
      pastSeconds: 120,
    })
    expect(expiredTokenAnswer({ status: 200 }, exp, exp * 1000 + 1500, 0)).toEqual({
      kind: 'beyond-leeway',
      pastSeconds: 1.5,
    })
  })
  it('another status is neither', () => {
    expect(expiredTokenAnswer({ status: 403 }, exp, exp * 1000 + 1500, 30)).toEqual({ kind: 'other', status: 403 })
  })
  it('waits only the rest of the lifetime, nothing for a token already expired', () => {
    expect(msUntilExpired(exp, exp * 1000 - 700)).toBe(750)
    expect(msUntilExpired(exp, exp * 1000 + 5)).toBe(45)
    expect(msUntilExpired(exp - 120, exp * 1000)).toBe(0)
  })
})
