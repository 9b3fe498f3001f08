import { describe, expect, it } from 'vitest'
import { inspectJwt } from '../../../../helpers/client/auth/jwt'

const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
const token = (payload: unknown, header: unknown = { alg: 'ES256' }) => `${enc(header)}.${enc(payload)}.c2ln`

describe('inspectJwt', () => {
  it('accepts three base64url parts, a JSON header with alg and a future exp', () => {
    const r = inspectJwt(token({ sub: 'u', exp: 2000 }), 1000)
    expect(r).toEqual({ ok: true, jwt: { header: { alg: 'ES256' }, payload: { sub: 'u', exp: 2000 }, exp: 2000 } })
  })

  it.each([
    [undefined, /not a non-empty string/],
    ['abc', /3 dot-separated parts, this has 1/],
    ['a.b.c.d', /this has 4/],
    ['a+b.c.d', /not base64url/],
    [`${enc('x')}.${enc({ exp: 2000 })}.s`, /header is not a JSON object/],
    [token({ exp: 2000 }, { typ: 'JWT' }), /header has no alg/],
    [token({ sub: 'u' }), /no numeric exp/],
    [token({ exp: 500 }), /expired at/],
  ])('rejects %s', (value, reason) => {
    const r = inspectJwt(value, 1000)
    expect(r.ok).toBe(false)
    expect(r.ok ? '' : r.reason).toMatch(reason)
    // only a well-formed JWT past its exp is marked expired (the preflight names AUTH-LOGIN-001 for it, else -005)
    expect(r.ok ? undefined : r.expired).toBe(String(reason) === String(/expired at/) ? true : undefined)
  })
})
