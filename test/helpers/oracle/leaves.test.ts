import { describe, expect, it } from 'vitest'
import { applyPatch, leavesOf } from '../../../helpers/oracle/leaves'

describe('leaves of a quote document', () => {
  it('flattens objects and arrays to JSON pointers', () => {
    expect([...leavesOf({ a: { b: 1, 'c/d': 'x' }, l: [true, {}] })]).toEqual([
      ['/a/b', 1],
      ['/a/c~1d', 'x'],
      ['/l/0', true],
      ['/l/1', {}],
    ])
  })

  it('a partial update changes exactly the fields it names', () => {
    const before = leavesOf({
      policy: { paymentFrequency: 'monthly', salesChannel: 'partner' },
      customer: { email: 'a@b.c' },
    })
    const after = applyPatch(before, { policy: { paymentFrequency: 'annual' } })
    expect(Object.fromEntries(after)).toEqual({
      '/policy/paymentFrequency': 'annual',
      '/policy/salesChannel': 'partner',
      '/customer/email': 'a@b.c',
    })
  })

  it('null removes a field; arrays under /objects merge by id and are no longer known', () => {
    const before = leavesOf({
      customer: { phone: '+3725555555', email: 'e' },
      objects: { building: [{ sumInsured: 1 }] },
    })
    const after = applyPatch(before, { customer: { phone: null }, objects: { building: [{ sumInsured: 2 }] } })
    expect(Object.fromEntries(after)).toEqual({ '/customer/email': 'e' })
  })
})
