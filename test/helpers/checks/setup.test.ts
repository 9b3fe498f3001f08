import { describe, expect, it } from 'vitest'
import { OPERATIONS } from '../../../common/operations'
import { ConformanceFailure } from '../../../helpers/checks/failure'
import { asSetupFailure, blockedMessage, given, givenOnce, ownerOf, SetupFailure } from '../../../helpers/checks/setup'
import type { HttpResult } from '../../../helpers/client/http/types'
import { SalesFlowError } from '../../../helpers/checks/sales/lifecycle'

function answer(op: string | undefined, status: number): HttpResult {
  const request = { method: 'GET' as const, url: 'http://t.test/x', headers: {} }
  return {
    status,
    headers: {},
    body: undefined,
    raw: Buffer.alloc(0),
    text: '',
    contentType: '',
    durationMs: 1,
    request,
    exchange: {
      at: '',
      runId: 'r',
      ...(op ? { operationId: op } : {}),
      template: '/x',
      method: 'GET',
      url: request.url,
      status,
      durationMs: 1,
      request: { headers: {} },
    },
  }
}

describe('ownerOf: the owner of an operation requirement is data (common/operations.json)', () => {
  it('gives every operation an owner, per product where the owning check is per product', () => {
    for (const op of OPERATIONS) expect(op.owner, op.id).toMatch(/^[A-Z]+-/)
    expect(ownerOf('sales.quote.create', 'travel')).toBe('SL-LIFE-002-travel')
    expect(ownerOf('webhooks.subscription.create')).toBe('WH-LIFE-001')
  })
  it('is undefined for no operation, an unknown one, or a per-product owner without a product', () => {
    expect(ownerOf(undefined)).toBeUndefined()
    expect(ownerOf('no.such.op')).toBeUndefined()
    expect(ownerOf('sales.quote.create')).toBeUndefined()
  })
})

describe('asSetupFailure: what a setup threw, as the blocked marker', () => {
  it('reads the operation and the status from the response of a ConformanceFailure', () => {
    const f = asSetupFailure(
      new ConformanceFailure({
        expected: 'status 201',
        actual: 'status 500',
        res: answer('webhooks.subscription.create', 500),
      }),
      'a subscription',
    )
    expect(f?.blocked).toEqual({
      reason: "setup 'a subscription' failed: expected status 201, got status 500",
      operation: 'webhooks.subscription.create',
      status: 500,
      owner: 'WH-LIFE-001',
    })
  })
  it(
    'prefers what a SalesFlowError says (operation, status, product, owner of a state such as a lock) over the ' +
      'response and the data',
    () => {
      const e = new SalesFlowError('wait after create', 'the quote stayed locked', answer('sales.quote.actions', 204), {
        operation: 'sales.quote.actions',
        status: 'timeout: 204 locked',
        product: 'home',
        owner: 'SL-LIFE-002-home',
      })
      expect(asSetupFailure(e, 'a quote')?.blocked).toMatchObject({
        operation: 'sales.quote.actions',
        status: 'timeout: 204 locked',
        owner: 'SL-LIFE-002-home',
      })
    },
  )
  it('takes the operation and product of the options when the error does not say', () => {
    const f = asSetupFailure(new ConformanceFailure({ expected: 'x', actual: 'y' }), 'a quote', {
      operation: 'sales.quote.get',
      product: 'home',
    })
    expect(f?.blocked).toMatchObject({ operation: 'sales.quote.get', owner: 'SL-LIFE-003-home' })
  })
  it('leaves errors that are not the target doing as they are (a bug of the suite is not a blocked check)', () => {
    expect(asSetupFailure(new TypeError('x is undefined'), 'a quote')).toBeUndefined()
    expect(asSetupFailure('a string', 'a quote')).toBeUndefined()
  })
  it('keeps a SetupFailure as it is', () => {
    const s = new SetupFailure({ reason: 'r', owner: 'WH-LIFE-001' })
    expect(asSetupFailure(s, 'x')).toBe(s)
  })
})

describe('given / givenOnce', () => {
  it('returns the setup value, and turns a failed setup into a SetupFailure', async () => {
    await expect(given('one', async () => 1)).resolves.toBe(1)
    await expect(
      given('a quote', async () => {
        throw new SalesFlowError('create quote', 'expected 2xx', answer('sales.quote.create', 500), { product: 'home' })
      }),
    ).rejects.toBeInstanceOf(SetupFailure)
    await expect(
      given('a quote', async () => {
        throw new RangeError('bug')
      }),
    ).rejects.toBeInstanceOf(RangeError)
  })
  it('runs a shared setup once; every check that awaits it sees the same SetupFailure', async () => {
    let calls = 0
    const subject = givenOnce(
      'a policy',
      async () => {
        calls += 1
        throw new ConformanceFailure({
          expected: 'status 200',
          actual: 'status 503',
          res: answer('sales.policy.links', 503),
        })
      },
      { product: 'home' },
    )
    const [a, b] = await Promise.allSettled([subject(), subject()])
    expect(calls).toBe(1)
    expect(a).toEqual(b)
    expect((a as PromiseRejectedResult).reason.blocked).toMatchObject({
      operation: 'sales.policy.links',
      status: 503,
      owner: 'SL-LIFE-011-home',
    })
  })
  it('says the reason, the operation, the status and the owner in one line', () => {
    expect(
      blockedMessage({
        reason: 'setup x failed',
        operation: 'sales.quote.create',
        status: 500,
        owner: 'SL-LIFE-002-home',
      }),
    ).toBe('blocked: setup x failed (sales.quote.create -> 500; owner SL-LIFE-002-home)')
    expect(blockedMessage({ reason: 'earlier step A failed', owner: 'A' })).toBe(
      'blocked: earlier step A failed (owner A)',
    )
  })
})
