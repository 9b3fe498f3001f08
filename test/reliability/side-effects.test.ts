import { describe, expect, it } from 'vitest'
import type { TrafficLine } from '../../helpers/client/http/traffic-file'
import type { ReferenceStats } from '../../reference/chaos/stats'
import { compareSideEffects } from '../../scripts/chaos/side-effects'

const line = (method: string, operationId: string, status: number | undefined, attempt = 1): TrafficLine => ({
  at: '',
  runId: 'r',
  method,
  operationId,
  template: '',
  durationMs: 1,
  attempt,
  ...(status !== undefined ? { status } : {}),
})
const stats = (postSuccesses: Record<string, number>): ReferenceStats => ({
  operations: {},
  postSuccesses,
  created: { quotes: 0, policies: 0, payments: 0, subscriptions: postSuccesses['webhooks.subscription.create'] ?? 0 },
})

describe('compareSideEffects()', () => {
  it('agrees when every successful create POST the service answered is one the suite saw', () => {
    const cmp = compareSideEffects(
      [
        line('POST', 'webhooks.subscription.create', 201),
        line('GET', 'webhooks.events.list', 503),
        line('GET', 'webhooks.events.list', 200, 2),
      ],
      stats({ 'webhooks.subscription.create': 1 }),
    )
    expect(cmp.mismatches).toEqual([])
    expect(cmp.entities.find((e) => e.kind === 'subscriptions')).toEqual({
      kind: 'subscriptions',
      suite: 1,
      service: 1,
    })
    expect(cmp.retries).toEqual({ GET: 1 })
  })

  it('reports a duplicate: the service created more than the suite meant to', () => {
    const cmp = compareSideEffects(
      [line('POST', 'webhooks.subscription.create', 201)],
      stats({ 'webhooks.subscription.create': 2 }),
    )
    expect(cmp.mismatches).toEqual([
      'webhooks.subscription.create: the suite saw 1 success(es), the service answered 2',
    ])
  })

  it('reports a POST sent again', () => {
    const cmp = compareSideEffects(
      [line('POST', 'sales.quote.create', undefined, 1), line('POST', 'sales.quote.create', 201, 2)],
      stats({ 'sales.quote.create': 1 }),
    )
    expect(cmp.postRetries).toBe(1)
    expect(cmp.mismatches).toContain('1 POST(s) were sent again')
  })
})
