import { describe, expect, it } from 'vitest'
import {
  describePoll,
  pollUntil,
  retryAfterMs,
  type PollObservation,
} from '../../../../helpers/client/polling/poll-until'

/** A virtual clock: sleeps advance time instantly, so no test depends on wall time. */
function clock() {
  let t = 0
  const sleeps: number[] = []
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms)
      t += ms
    },
    advance: (ms: number) => (t += ms),
    sleeps,
  }
}

const obs = (
  state: PollObservation<number>['state'],
  value = 0,
  extra: Partial<PollObservation<number>> = {},
): PollObservation<number> => ({ state, value, seen: state, ...extra })

describe('pollUntil', () => {
  const base = {
    name: 'x',
    deadlineMs: 1000,
    initialDelayMs: 20,
    maxDelayMs: 200,
    minIntervalMs: 100,
    jitter: 0,
    random: () => 0.5,
  }

  it('stops at once on success and records every attempt', async () => {
    const c = clock()
    const states = ['pending', 'pending', 'success'] as const
    const r = await pollUntil(async (n) => obs(states[n - 1]!, n), { ...base, now: c.now, sleep: c.sleep })
    expect(r.outcome).toBe('success')
    expect(r.value).toBe(3)
    expect(r.attempts.map((a) => a.state)).toEqual(['pending', 'pending', 'success'])
  })

  it('stops at once on terminal failure', async () => {
    const c = clock()
    const r = await pollUntil(async () => obs('failure', 7), { ...base, now: c.now, sleep: c.sleep })
    expect(r.outcome).toBe('failure')
    expect(r.attempts).toHaveLength(1)
  })

  it('never starts two attempts closer than minIntervalMs, and backs off up to maxDelayMs', async () => {
    const c = clock()
    const r = await pollUntil(async () => obs('pending'), {
      ...base,
      minIntervalMs: 100,
      initialDelayMs: 20,
      maxDelayMs: 400,
      deadlineMs: 2000,
      now: c.now,
      sleep: c.sleep,
    })
    const starts = r.attempts.map((a) => a.atMs)
    for (let i = 1; i < starts.length; i += 1) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(100)
    expect(Math.max(...c.sleeps)).toBeLessThanOrEqual(400)
    expect(c.sleeps.slice(0, 3)).toEqual([100, 100, 100])
    expect(c.sleeps).toContain(400)
  })

  it('honours Retry-After', async () => {
    const c = clock()
    let n = 0
    await pollUntil(async () => (++n === 1 ? obs('pending', 0, { retryAfterMs: 500 }) : obs('success')), {
      ...base,
      now: c.now,
      sleep: c.sleep,
    })
    expect(c.sleeps[0]).toBe(500)
  })

  it('times out at the deadline and reports what it last saw', async () => {
    const c = clock()
    const r = await pollUntil(async (n) => ({ state: 'pending', value: n, seen: `204 locked #${n}` }), {
      ...base,
      deadlineMs: 450,
      now: c.now,
      sleep: c.sleep,
    })
    expect(r.outcome).toBe('timeout')
    expect(r.last?.seen).toMatch(/204 locked/)
    expect(r.elapsedMs).toBeGreaterThanOrEqual(450)
    expect(r.elapsedMs).toBeLessThan(600)
    expect(describePoll(r)).toMatch(/^x: timeout after \d+ attempt\(s\)/)
  })

  it('applies jitter within bounds', async () => {
    const c = clock()
    let n = 0
    await pollUntil(async () => (++n < 3 ? obs('pending') : obs('success')), {
      ...base,
      minIntervalMs: 0,
      jitter: 0.5,
      random: () => 1,
      now: c.now,
      sleep: c.sleep,
    })
    expect(c.sleeps[0]).toBeCloseTo(20 * 1.25)
  })
})

describe('retryAfterMs', () => {
  it('parses seconds and HTTP dates', () => {
    expect(retryAfterMs('2')).toBe(2000)
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000)
    expect(retryAfterMs(undefined)).toBeUndefined()
    expect(retryAfterMs('soon')).toBeUndefined()
  })
})
