import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../../helpers/checks/expect'
import { ConformanceFailure } from '../../../helpers/checks/failure'
import { TargetUnavailable } from '../../../helpers/checks/unavailable'
import type { HttpResult } from '../../../helpers/client/http/types'

const res = (status: number, headers: Record<string, string> = {}): HttpResult =>
  ({
    status,
    headers,
    body: undefined,
    raw: Buffer.alloc(0),
    text: '',
    contentType: '',
    durationMs: 1,
    request: { method: 'GET', url: 'http://t/api/v1/ledger/sales/policies/P1', headers: {} },
    exchange: { operationId: 'sales.quote.get' },
  }) as unknown as HttpResult

describe('expectStatus() on an answer that says the target is unavailable', () => {
  it(
    '503 or 429 with a Retry-After the run did not wait for: not a failed requirement but TargetUnavailable naming ' +
      'the operation',
    () => {
      for (const status of [503, 429]) {
        let thrown: unknown
        try {
          expectStatus(res(status, { 'retry-after': '1000000000' }), 200)
        } catch (e) {
          thrown = e
        }
        expect(thrown).toBeInstanceOf(TargetUnavailable)
        expect(thrown).not.toBeInstanceOf(ConformanceFailure)
        expect((thrown as Error).message).toContain(`sales.quote.get answered ${status} with Retry-After: 1000000000`)
      }
    },
  )

  it('a 503 without Retry-After, or a 500, is still a failure of the requirement; an expected 503 passes', () => {
    expect(() => expectStatus(res(503), 200)).toThrow(ConformanceFailure)
    expect(() => expectStatus(res(500, { 'retry-after': '5' }), 200)).toThrow(ConformanceFailure)
    expect(() => expectStatus(res(503, { 'retry-after': '5' }), 503)).not.toThrow()
  })
})
