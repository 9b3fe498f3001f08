import type { OperationId } from '../../../common/operations'
import { describe, expect, it } from 'vitest'
import type { InvariantId } from '../../../helpers/oracle/invariants'
import type { Violation } from '../../../helpers/oracle/invariants'
import { resolutionMs, WebhooksModel } from '../../../helpers/oracle/webhooks-model'
import { answer } from './support'

const OWNER = 'acme/broker@acme.test'
const T0 = '2026-01-01T10:00:00.000Z'

function judge(
  m: WebhooksModel,
  op: OperationId,
  status: number,
  body: unknown,
  o: { id?: string; json?: unknown; owner?: string; beganAt?: number } = {},
) {
  const evaluated = new Set<InvariantId>()
  const out: Violation[] = []
  m.observe(
    {
      op,
      owner: o.owner ?? OWNER,
      beganAt: o.beganAt ?? Date.now(),
      overlapped: false,
      ...(o.id ? { id: o.id } : {}),
      ...(o.json ? { json: o.json } : {}),
    },
    answer(status, body),
    evaluated,
    out,
  )
  return { evaluated: [...evaluated], ids: out.map((v) => v.invariant) }
}

function created() {
  const m = new WebhooksModel()
  judge(
    m,
    'webhooks.subscription.create',
    201,
    { id: 's1', event: 'export', url: 'http://a', createdAt: T0, updatedAt: T0 },
    { json: { event: 'export', url: 'http://a' } },
  )
  m.subscriptions.get('s1')!.lastWriteAt = Date.now() - 5000
  return m
}

describe('the webhooks model', () => {
  it('a read as created breaks nothing; another event or createdAt breaks WH-INV-005 and WH-INV-003', () => {
    const m = created()
    expect(
      judge(
        m,
        'webhooks.subscription.get',
        200,
        { id: 's1', event: 'export', url: 'http://a', createdAt: T0, updatedAt: T0 },
        { id: 's1' },
      ).ids,
    ).toEqual([])
    expect(
      judge(
        m,
        'webhooks.subscription.get',
        200,
        { id: 's1', event: 'extracted', url: 'http://a', createdAt: '2026-01-02T00:00:00.000Z', updatedAt: T0 },
        { id: 's1' },
      ).ids.sort(),
    ).toEqual(['WH-INV-003', 'WH-INV-005'])
  })

  it('an update naming only url must keep event, and move updatedAt when made after the resolution', () => {
    const m = created()
    const frozen = judge(
      m,
      'webhooks.subscription.update',
      200,
      { id: 's1', event: 'extracted', url: 'http://b', createdAt: T0, updatedAt: T0 },
      { id: 's1', json: { url: 'http://b' } },
    )
    expect(frozen.ids.sort()).toEqual(['WH-INV-004', 'WH-INV-005'])
  })

  it('a refused update changes nothing: a later read with another updatedAt breaks WH-INV-004', () => {
    const m = created()
    judge(m, 'webhooks.subscription.update', 400, { message: 'bad event' }, { id: 's1', json: { event: 'nope' } })
    expect(
      judge(
        m,
        'webhooks.subscription.get',
        200,
        { id: 's1', event: 'export', url: 'http://a', createdAt: T0, updatedAt: '2026-01-01T10:00:01.000Z' },
        { id: 's1' },
      ).ids,
    ).toEqual(['WH-INV-004'])
  })

  it('lists: a live one missing or stale breaks WH-INV-001, a deleted one listed breaks WH-INV-002', () => {
    const m = created()
    expect(
      judge(m, 'webhooks.subscriptions.list', 200, [
        { id: 's1', event: 'export', url: 'http://old', createdAt: T0, updatedAt: T0 },
      ]).ids,
    ).toEqual(['WH-INV-001'])
    expect(judge(m, 'webhooks.subscriptions.list', 200, []).ids).toEqual(['WH-INV-001'])
    judge(m, 'webhooks.subscription.delete', 200, { success: true }, { id: 's1' })
    expect(
      judge(m, 'webhooks.subscriptions.list', 200, [
        { id: 's1', event: 'export', url: 'http://a', createdAt: T0, updatedAt: T0 },
      ]).ids,
    ).toEqual(['WH-INV-002'])
    expect(judge(m, 'webhooks.subscription.get', 200, {}, { id: 's1' }).ids).toEqual(['WH-INV-002'])
  })

  it("another tenant's caller answered 2xx breaks WH-INV-006; another user of the same tenant is not judged", () => {
    const m = created()
    expect(
      judge(
        m,
        'webhooks.subscription.update',
        200,
        {},
        { id: 's1', owner: 'globex/broker@globex.test', json: { url: 'http://x' } },
      ).ids,
    ).toEqual(['WH-INV-006'])
    expect(
      judge(m, 'webhooks.subscription.get', 200, {}, { id: 's1', owner: 'acme/viewer@acme.test' }).evaluated,
    ).toEqual([])
  })

  it('timestamps without a fraction have a resolution of a second', () => {
    expect(resolutionMs('2026-01-01T10:00:00Z')).toBe(1000)
    expect(resolutionMs(T0)).toBe(1)
  })
})

describe('the webhooks model reports a breach once per view, on the first answer showing it', () => {
  const as = (url: string, createdAt = T0, updatedAt = T0) => ({ id: 's1', event: 'export', url, createdAt, updatedAt })

  it(
    'a read with another url breaks WH-INV-005 once; a list showing it breaks WH-INV-001 once; the right value ' +
      'breaks nothing',
    () => {
      const m = created()
      expect(judge(m, 'webhooks.subscription.get', 200, as('http://z'), { id: 's1' }).ids).toEqual(['WH-INV-005'])
      expect(judge(m, 'webhooks.subscription.get', 200, as('http://z'), { id: 's1' }).ids).toEqual([])
      expect(judge(m, 'webhooks.subscriptions.list', 200, [as('http://z')]).ids).toEqual(['WH-INV-001'])
      expect(judge(m, 'webhooks.subscriptions.list', 200, [as('http://z')]).ids).toEqual([])
      // the expectation stays what was written: a list (or read) showing it is never blamed for what another view
      // showed
      expect(judge(m, 'webhooks.subscriptions.list', 200, [as('http://a')]).ids).toEqual([])
      expect(judge(m, 'webhooks.subscription.get', 200, as('http://a'), { id: 's1' }).ids).toEqual([])
    },
  )

  it('after a successful update, a wrong value is a new breach even if it was reported before', () => {
    const m = created()
    expect(judge(m, 'webhooks.subscription.get', 200, as('http://z'), { id: 's1' }).ids).toEqual(['WH-INV-005'])
    judge(m, 'webhooks.subscription.update', 200, as('http://b', T0, '2026-01-01T10:00:05.000Z'), {
      id: 's1',
      json: { url: 'http://b' },
    })
    expect(
      judge(m, 'webhooks.subscription.get', 200, as('http://z', T0, '2026-01-01T10:00:05.000Z'), { id: 's1' }).ids,
    ).toEqual(['WH-INV-005'])
  })

  it(
    "another tenant's successful update leaves the owner's next read unjudged (it says what the subscription " +
      'holds)',
    () => {
      const m = created()
      expect(
        judge(
          m,
          'webhooks.subscription.update',
          200,
          {},
          { id: 's1', owner: 'globex/broker@globex.test', json: { url: 'http://x' } },
        ).ids,
      ).toEqual(['WH-INV-006'])
      expect(judge(m, 'webhooks.subscription.get', 200, as('http://x'), { id: 's1' }).ids).toEqual([])
      expect(judge(m, 'webhooks.subscription.get', 200, as('http://y'), { id: 's1' }).ids).toEqual(['WH-INV-005'])
    },
  )
})

describe('a list entry is the subscription its own read shows (WH-INV-040, issue 42)', () => {
  const SECRET = { algorithm: 'sha256', key: 'a1b2c3' }
  const sub = { id: 's1', event: 'export', url: 'http://a', secret: SECRET, createdAt: T0, updatedAt: T0 }
  function withSecret() {
    const m = new WebhooksModel()
    judge(m, 'webhooks.subscription.create', 201, sub, { json: { event: 'export', url: 'http://a' } })
    return m
  }

  it('the same object in another key order passes; another secret breaks WH-INV-040 without showing it', () => {
    const m = withSecret()
    const reordered = Object.fromEntries(Object.entries(sub).reverse())
    expect(judge(m, 'webhooks.subscriptions.list', 200, [reordered]).ids).toEqual([])
    const evaluated = new Set<InvariantId>()
    const out: Violation[] = []
    m.observe(
      { op: 'webhooks.subscriptions.list', owner: OWNER, beganAt: Date.now(), overlapped: false },
      answer(200, [{ ...sub, secret: { algorithm: 'sha256', key: 'ffffff' } }]),
      evaluated,
      out,
    )
    expect(out.map((v) => v.invariant)).toEqual(['WH-INV-040'])
    expect(out[0]!.actual).toBe('/secret/key: another value')
    expect(out[0]!.actual).not.toContain('ffffff')
  })

  it('a field missing from the entry is named; the fields WH-INV-001 judges are not judged twice', () => {
    const { secret: _s, ...noSecret } = sub
    expect(judge(withSecret(), 'webhooks.subscriptions.list', 200, [noSecret]).ids).toEqual(['WH-INV-040'])
    expect(judge(withSecret(), 'webhooks.subscriptions.list', 200, [{ ...sub, url: 'http://old' }]).ids).toEqual([
      'WH-INV-001',
    ])
  })

  it('after an update the entry must be the update answer', () => {
    const m = withSecret()
    m.subscriptions.get('s1')!.lastWriteAt = Date.now() - 5000
    const later = '2026-01-01T10:00:05.000Z'
    judge(
      m,
      'webhooks.subscription.update',
      200,
      { ...sub, url: 'http://b', updatedAt: later },
      { id: 's1', json: { url: 'http://b' } },
    )
    expect(judge(m, 'webhooks.subscriptions.list', 200, [{ ...sub, url: 'http://b', updatedAt: later }]).ids).toEqual(
      [],
    )
  })
})

describe('a call that overlapped the delete of its subscription (issue 41)', () => {
  it('answered 200 is not judged by WH-INV-002 (it may have been served first); after the delete, alone, it is', () => {
    const m = created()
    judge(m, 'webhooks.subscription.delete', 200, { success: true }, { id: 's1' })
    const evaluated = new Set<InvariantId>()
    const out: Violation[] = []
    m.observe(
      {
        op: 'webhooks.subscription.update',
        id: 's1',
        owner: OWNER,
        beganAt: Date.now(),
        overlapped: true,
        json: { url: 'http://b' },
      },
      answer(200, { id: 's1' }),
      evaluated,
      out,
    )
    expect(out.map((v) => v.invariant)).toEqual([])
    expect(
      judge(m, 'webhooks.subscription.update', 200, { id: 's1' }, { id: 's1', json: { url: 'http://c' } }).ids,
    ).toEqual(['WH-INV-002'])
  })
})
