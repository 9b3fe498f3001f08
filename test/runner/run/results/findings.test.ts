import { describe, expect, it } from 'vitest'
import { sameFindings, type FailedFinding } from '../../../../runner/run/results/findings'

const refused = { operation: 'sales.quote.update', status: 409, expected: 'status 2xx', classes: ['2'] }
const f = (id: string, finding: FailedFinding['finding'], product?: string): FailedFinding => ({
  id,
  finding,
  ...(product ? { product } : {}),
})

describe('sameFindings: one defect, one finding', () => {
  it(
    "counts a cell refused like the lifecycle step that owns the operation, and the other product's step, as that " +
      'step',
    () => {
      const same = sameFindings([
        f('SL-LIFE-004-home', refused, 'home'),
        f('SL-LIFE-004-travel', refused, 'travel'),
        f('SL-OPS-DRAFT-UPDATE', { ...refused, owner: 'SL-LIFE-004-home' }, 'home'),
      ])
      expect(same.get('SL-LIFE-004-home')).toBeUndefined()
      expect(same.get('SL-LIFE-004-travel')?.as).toBe('SL-LIFE-004-home')
      expect(same.get('SL-OPS-DRAFT-UPDATE')).toMatchObject({
        as: 'SL-LIFE-004-home',
        why: expect.stringContaining('sales.quote.update -> 409'),
      })
    },
  )

  it('keeps a failure of its own when the owner passed, failed on another answer or another expectation', () => {
    expect(sameFindings([f('SL-OPS-DRAFT-UPDATE', { ...refused, owner: 'SL-LIFE-004-home' }, 'home')]).size).toBe(0)
    expect(
      sameFindings([
        f('SL-LIFE-004-home', { ...refused, status: 500 }, 'home'),
        f('SL-OPS-DRAFT-UPDATE', { ...refused, owner: 'SL-LIFE-004-home' }, 'home'),
      ]).size,
    ).toBe(0)
    // the same answer, but the owner expected a success and the other a refusal: two findings (create answered 200)
    const created = { operation: 'webhooks.subscription.create', status: 200 }
    expect(
      sameFindings([
        f('WH-LIFE-001', { ...created, expected: 'status 2xx', classes: ['2'] }),
        f('WH-ERR-001', { ...created, expected: 'status 4xx', classes: ['4'], owner: 'WH-LIFE-001' }),
      ]).size,
    ).toBe(0)
    // an answer neither expected (a 501 to every referral): the one finding of both
    const referral = { operation: 'sales.quote.referral', status: 501 }
    expect(
      sameFindings([
        f('SL-REF-001', { ...referral, expected: 'status 2xx', classes: ['2'] }),
        f('SL-OPS-BOUND-REFERRAL', { ...referral, expected: 'status 4xx', classes: ['4'], owner: 'SL-REF-001' }),
      ]).get('SL-OPS-BOUND-REFERRAL')?.as,
    ).toBe('SL-REF-001')
    const poll = { operation: 'sales.requests.get', status: 200 }
    expect(
      sameFindings([
        f('SL-LIFE-010-home', { ...poll, expected: 'issue request # to reach success' }, 'home'),
        f('SL-ISS-001', { ...poll, expected: 'the request to end in failure', owner: 'SL-LIFE-010-home' }),
      ]).size,
    ).toBe(0)
  })

  it('counts the same check of another product as one finding only on the same operation and status', () => {
    const wrongData = (field: string) => ({
      operation: 'sales.quote.get',
      status: 200,
      expected: `data/policy/${field} after the update = "x"`,
    })
    // the products' data differ: the expectation may as well
    expect(
      sameFindings([
        f('SL-LIFE-004-travel', wrongData('paymentFrequency'), 'travel'),
        f('SL-LIFE-004-home', wrongData('salesChannel'), 'home'),
      ]).get('SL-LIFE-004-travel')?.as,
    ).toBe('SL-LIFE-004-home')
    expect(
      sameFindings([
        f('SL-LIFE-004-travel', refused, 'travel'),
        f('SL-LIFE-004-home', wrongData('salesChannel'), 'home'),
      ]).size,
    ).toBe(0)
    // not a variant: checks without a product, or of another step
    expect(
      sameFindings([
        f('SL-LIFE-005-travel', wrongData('a'), 'travel'),
        f('SL-LIFE-004-home', wrongData('b'), 'home'),
        f('SL-NEG-002', wrongData('c')),
        f('SL-NEG-003', wrongData('d')),
      ]).size,
    ).toBe(0)
  })

  it(
    'counts checks that met the same status from the same operation, of a class neither expected, as the first by ' +
      'id',
    () => {
      // an unknown subscription and another tenant's both read as 500: one wrong answer of one operation
      const read = { operation: 'webhooks.subscription.get', status: 500 }
      const same = sameFindings([
        f('WH-SCOPE-001', { ...read, expected: 'status 4xx', classes: ['4'] }),
        f('WH-ERR-006', { ...read, expected: 'status 4xx', classes: ['4'] }),
        f('WH-LIFE-007', { ...read, expected: 'status 4xx', classes: ['4'] }),
      ])
      expect(same.get('WH-SCOPE-001')).toMatchObject({
        as: 'WH-ERR-006',
        why: expect.stringContaining('neither expected (webhooks.subscription.get -> 500)'),
      })
      expect(same.get('WH-LIFE-007')?.as).toBe('WH-ERR-006')
      expect(same.has('WH-ERR-006')).toBe(false)
      // a status of a class one of them expected, another operation or another status: findings of their own
      const created = { operation: 'webhooks.subscription.create', status: 200 }
      expect(
        sameFindings([
          f('WH-LIFE-001', { ...created, expected: 'status 2xx', classes: ['2'] }),
          f('WH-CON-003', { ...created, expected: 'status 4xx', classes: ['4'] }),
        ]).size,
      ).toBe(0)
      expect(
        sameFindings([
          f('A', { ...read, expected: 'status 4xx', classes: ['4'] }),
          f('B', { ...read, operation: 'webhooks.subscription.update', expected: 'status 4xx', classes: ['4'] }),
        ]).size,
      ).toBe(0)
      expect(
        sameFindings([
          f('A', { ...read, expected: 'status 4xx', classes: ['4'] }),
          f('B', { ...read, status: 502, expected: 'status 4xx', classes: ['4'] }),
        ]).size,
      ).toBe(0)
      // expectations that are not of a status (a wrong value): not this rule's
      expect(
        sameFindings([
          f('A', { ...read, status: 200, expected: 'premium #' }),
          f('B', { ...read, status: 200, expected: 'premium #' }),
        ]).size,
      ).toBe(0)
    },
  )

  it('follows a chain to its root, and leaves a cycle with no root counted', () => {
    const same = sameFindings([f('A', { ...refused, owner: 'B' }), f('B', { ...refused, owner: 'C' }), f('C', refused)])
    expect(same.get('A')?.as).toBe('C')
    expect(same.get('B')?.as).toBe('C')
    expect(sameFindings([f('A', { ...refused, owner: 'B' }), f('B', { ...refused, owner: 'A' })]).size).toBe(0)
  })
})
