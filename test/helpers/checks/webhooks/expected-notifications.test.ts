import { describe, expect, it } from 'vitest'
import {
  describeFinding,
  ExpectedNotifications,
  notifiedEvent,
} from '../../../../helpers/checks/webhooks/expected-notifications'
import type { ReceivedNotification } from '../../../../helpers/checks/webhooks/receiver'
import { waitSettled } from '../../../../helpers/checks/webhooks/waits'

/** A notification of an event type, arrived at a time in ms. */
function note(event: string | undefined, atMs: number): ReceivedNotification {
  const body = event === undefined ? 'not json' : JSON.stringify({ event })
  return {
    label: 'x',
    method: 'POST',
    headers: {},
    rawBody: Buffer.from(body),
    receivedAt: atMs / 1000,
    verdict: 'signed',
  }
}

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t }
  return c
}

/** A model with a moved url (a -> a2), a changed event type (b: export -> extracted), a deleted subscription (x). */
function scenario() {
  const c = clock()
  const m = new ExpectedNotifications('/event', c.now)
  m.created('A', 'extracted', 'a')
  m.created('B', 'export', 'b')
  m.created('X', 'extracted', 'x')
  c.t += 10
  m.updated('A', { endpoint: 'a2' })
  m.updated('B', { event: 'extracted' })
  m.deleted('X')
  c.t += 10
  m.emitted('extracted')
  m.emitted('export')
  return { c, m }
}

describe('expected notifications (the model of the subscriptions over time)', () => {
  it('expects one notification per event at the current url for the current event type only', () => {
    const { m } = scenario()
    expect(m.expectedCount('a2', 'extracted')).toBe(1)
    expect(m.expectedCount('a', 'extracted')).toBe(0)
    expect(m.expectedCount('b', 'extracted')).toBe(1)
    expect(m.expectedCount('b', 'export')).toBe(0)
    expect(m.expectedCount('x', 'extracted')).toBe(0)
    expect(m.endpoints().sort()).toEqual(['a', 'a2', 'b', 'x'])
  })

  it('finds nothing when each current subscription got exactly its one notification', () => {
    const { c, m } = scenario()
    const got: Record<string, ReceivedNotification[]> = {
      a2: [note('extracted', c.t + 5)],
      b: [note('extracted', c.t + 6)],
    }
    const a = m.assess((e) => got[e] ?? [])
    expect(a.findings).toEqual([])
    expect(a.waiting).toEqual([])
  })

  it(
    'names an old url, an old event type, a notification after delete, a duplicate, a wrong type and a missing ' +
      'one',
    () => {
      const { c, m } = scenario()
      const got: Record<string, ReceivedNotification[]> = {
        a: [note('extracted', c.t + 5)],
        a2: [note('extracted', c.t + 5), note('extracted', c.t + 2005)],
        b: [note('export', c.t + 5), note(undefined, c.t + 6)],
        x: [note('extracted', c.t + 1500)],
      }
      const kinds = m
        .assess((e) => got[e] ?? [])
        .findings.map((f) => `${f.kind} ${f.endpoint} ${f.event}`)
        .sort()
      expect(kinds).toEqual([
        'after-delete x extracted',
        'duplicate a2 extracted',
        'missing b extracted',
        'old-event b export',
        'old-url a extracted',
        'wrong-event b (no event type)',
      ])
      const dup = m.assess((e) => got[e] ?? []).findings.find((f) => f.kind === 'duplicate')!
      expect(describeFinding(dup, (id) => `sub ${id}`)).toBe(
        'sub A: 2 notification(s) of extracted, expected 1 (after the first: 2.0 s)',
      )
    },
  )

  it('changes nothing for an update or delete of an unknown or deleted subscription', () => {
    const { m } = scenario()
    m.updated('nope', { endpoint: 'z' })
    m.updated('X', { endpoint: 'z' })
    m.deleted('nope')
    expect(m.endpoints()).not.toContain('z')
  })

  it(
    'ends the settle window settleMs after the last first arrival, and not before an expected one came or the ' +
      'deadline passed',
    () => {
      const { c, m } = scenario()
      const emitAt = c.t
      const got: Record<string, ReceivedNotification[]> = { a2: [note('extracted', emitAt + 1500)] }
      expect(m.settleEnd((e) => got[e] ?? [], 3000, 10_000)).toBeUndefined() // b still waiting
      got['b'] = [note('extracted', emitAt + 100)]
      expect(m.settleEnd((e) => got[e] ?? [], 3000, 10_000)).toBe(emitAt + 1500 + 3000)
      delete got['b']
      c.t = emitAt + 10_000
      expect(m.settleEnd((e) => got[e] ?? [], 3000, 10_000)).toBe(emitAt + 1500 + 3000)
    },
  )

  it('waitSettled waits only the rest of the window: none when the window is already over', async () => {
    const { c, m } = scenario()
    const got: Record<string, ReceivedNotification[]> = { a2: [note('extracted', c.t)], b: [note('extracted', c.t)] }
    const slept: number[] = []
    const o = {
      settleMs: 3000,
      deadlineMs: 10_000,
      now: c.now,
      sleep: async (ms: number) => {
        slept.push(ms)
        c.t += ms
      },
    }
    c.t += 2900
    expect(await waitSettled(m, (e) => got[e] ?? [], o)).toBe(100)
    expect(slept).toEqual([100])
    expect(await waitSettled(m, (e) => got[e] ?? [], o)).toBe(0)
    expect(await waitSettled(new ExpectedNotifications('/event', c.now), () => [], o)).toBe(0)
  })

  it('reads the event type at the profile pointer, undefined for a body that is not JSON', () => {
    expect(notifiedEvent(note('export', 0), '/event')).toBe('export')
    expect(notifiedEvent(note(undefined, 0), '/event')).toBeUndefined()
    expect(
      notifiedEvent({ ...note('export', 0), rawBody: Buffer.from('{"type":{"name":"export"}}') }, '/type/name'),
    ).toBe('export')
  })
})
