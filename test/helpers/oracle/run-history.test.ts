import { describe, expect, it } from 'vitest'
import { RunHistory } from '../../../helpers/oracle/run-history'
import type { CallInfo } from '../../../helpers/client/http/observer'
import type { HttpResult } from '../../../helpers/client/http/types'
import type { OperationId } from '../../../common/operation-ids'

const settings = { quoteIdPointer: '/policy/id', requestIdPointer: '/requestId', policyIdPointer: '/data/policyId' }
const statuses = { pending: ['pending'], success: ['success'], failure: ['failure'] }
const user = { kind: 'user' as const, tenant: 'acme', username: 'broker' }
const answer = (status: number, body?: unknown): HttpResult => ({ status, body, headers: {}, raw: Buffer.from(''), text: '', contentType: 'application/json', durationMs: 1, request: { method: 'GET', url: 'http://x', headers: {} } }) as unknown as HttpResult
const at = (mono: number) => ({ mono, epoch: 0 })
function call(operationId: OperationId, params: Record<string, string>, json: unknown, mono: number, caller = 'c'): CallInfo {
  return { service: operationId.startsWith('webhooks') ? 'webhooks' : 'sales', operationId, method: 'X', params, json, actor: user, tenantHeader: 'acme', caller, invokedAt: at(mono) }
}

describe("the run's history, judged per resource when it falls quiet (SL-INV-050, SL-INV-051, WH-INV-050)", () => {
  it('an update answered 2xx is counted done when the actions list after it answers; a later read missing it breaks SL-INV-050 with a timeline', () => {
    const h = new RunHistory(settings, statuses)
    h.begin(call('sales.quote.create', {}, { policy: { a: 1, b: 1 } }, 0))!(answer(201, { policy: { id: 'q1' } }), at(1))
    const u1 = h.begin(call('sales.quote.update', { policyId: 'q1' }, { policy: { a: 2 } }, 2, 'w1'))!
    const u2 = h.begin(call('sales.quote.update', { policyId: 'q1' }, { policy: { b: 2 } }, 3, 'w2'))!
    expect(u1(answer(200), at(5)).evaluated).toEqual([])
    // a read before the list: the update may not be done yet (sales §3 rule 4), so nothing is judged
    const early = h.begin(call('sales.quote.get', { policyId: 'q1' }, undefined, 5.5))!
    expect(early(answer(200, { data: { policy: { a: 1, b: 1 } } }), at(5.8)).evaluated).toEqual([])
    u2(answer(200), at(6))
    h.begin(call('sales.quote.actions', { id: 'q1' }, undefined, 7))!(answer(200, ['calculate']), at(8))
    const read = h.begin(call('sales.quote.get', { policyId: 'q1' }, undefined, 9, 'reader'))!
    const v = read(answer(200, { data: { policy: { a: 1, b: 2 } } }), at(10))
    expect(v.violations.map((x) => x.invariant)).toEqual(['SL-INV-050'])
    expect(v.violations[0]!.note).toMatch(/NOT linearizable/)
    expect(v.violations[0]!.note).toMatch(/w1: update/)
    expect(v.violations[0]!.at?.file).toBe('helpers/oracle/run-history.ts')
  })

  it('the same history with the read showing both updates is linearizable (evaluated, no violation)', () => {
    const h = new RunHistory(settings, statuses)
    h.begin(call('sales.quote.create', {}, { policy: { a: 1, b: 1 } }, 0))!(answer(201, { policy: { id: 'q1' } }), at(1))
    h.begin(call('sales.quote.update', { policyId: 'q1' }, { policy: { a: 2 } }, 2))!(answer(200), at(4))
    h.begin(call('sales.quote.actions', { id: 'q1' }, undefined, 5))!(answer(200, []), at(6))
    const v = h.begin(call('sales.quote.get', { policyId: 'q1' }, undefined, 7))!(answer(200, { data: { policy: { a: 2, b: 1 } } }), at(8))
    expect(v.evaluated).toEqual(['SL-INV-050'])
    expect(v.violations.length).toBe(0)
  })

  it('two requests of one quote succeeding with two policies break SL-INV-051', () => {
    const h = new RunHistory(settings, statuses)
    const i1 = h.begin(call('sales.quote.issue', { id: 'q1' }, {}, 0))!
    const i2 = h.begin(call('sales.quote.issue', { id: 'q1' }, {}, 1))!
    i1(answer(202, { requestId: 'r1' }), at(3))
    i2(answer(202, { requestId: 'r2' }), at(4))
    expect(h.begin(call('sales.requests.get', { requestId: 'r1' }, undefined, 5))!(answer(200, { status: 'success', data: { policyId: 'P1' } }), at(6)).violations.length).toBe(0)
    const v = h.begin(call('sales.requests.get', { requestId: 'r2' }, undefined, 7))!(answer(200, { status: 'success', data: { policyId: 'P2' } }), at(8))
    expect(v.violations.map((x) => x.invariant)).toEqual(['SL-INV-051'])
  })

  it('a subscription back after a delete answered 200 breaks WH-INV-050; a call of another owner is not its history', () => {
    const h = new RunHistory(settings, statuses)
    h.begin(call('webhooks.subscription.create', {}, { event: 'export', url: 'https://a' }, 0))!(answer(201, { id: 's1', event: 'export', url: 'https://a' }), at(1))
    const other = { ...call('webhooks.subscription.get', { id: 's1' }, undefined, 1.5), actor: { kind: 'user' as const, tenant: 'globex', username: 'x' } }
    expect(h.begin(other)).toBeUndefined()
    h.begin(call('webhooks.subscription.delete', { id: 's1' }, undefined, 2))!(answer(200, { success: true }), at(3))
    const v = h.begin(call('webhooks.subscription.get', { id: 's1' }, undefined, 4))!(answer(200, { id: 's1', event: 'export', url: 'https://a' }), at(5))
    expect(v.violations.map((x) => x.invariant)).toEqual(['WH-INV-050'])
  })

  it('a write that lost its answer ends the resource\'s history: nothing is judged on it afterwards', () => {
    const h = new RunHistory(settings, statuses)
    h.begin(call('sales.quote.create', {}, { policy: { a: 1 } }, 0))!(answer(201, { policy: { id: 'q1' } }), at(1))
    h.begin(call('sales.quote.update', { policyId: 'q1' }, { policy: { a: 2 } }, 2))!(undefined, at(3))
    expect(h.begin(call('sales.quote.get', { policyId: 'q1' }, undefined, 4))).toBeUndefined()
  })
})

describe('a history the checker cannot decide within its budget', () => {
  it('is reported undecided (the invariant INCONCLUSIVE), neither evaluated nor broken, and no longer followed', () => {
    const h = new RunHistory(settings, statuses, { maxSteps: 0, maxMs: 1000 })
    h.begin(call('sales.quote.create', {}, { policy: { a: 1 } }, 0))!(answer(201, { policy: { id: 'q1' } }), at(1))
    const v = h.begin(call('sales.quote.get', { policyId: 'q1' }, undefined, 2))!(answer(200, { data: { policy: { a: 1 } } }), at(3))
    expect(v.evaluated).toEqual([])
    expect(v.violations.length).toBe(0)
    expect(v.undecided).toEqual([{ invariant: 'SL-INV-050', resource: 'quote q1' }])
    expect(h.undecided).toEqual(['quote q1'])
    expect(h.begin(call('sales.quote.get', { policyId: 'q1' }, undefined, 4))).toBeUndefined()
  })
})
