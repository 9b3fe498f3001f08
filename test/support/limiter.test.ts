import { describe, expect, it } from 'vitest'
import { limiter } from './limiter'

describe('limiter', () => {
  it('never runs more than max at once and runs everything', async () => {
    const limit = limiter(2)
    let active = 0
    let peak = 0
    const done: number[] = []
    await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        limit(async () => {
          active += 1
          peak = Math.max(peak, active)
          await new Promise((r) => setTimeout(r, 5))
          active -= 1
          done.push(n)
        }),
      ),
    )
    expect(peak).toBe(2)
    expect(done.sort()).toEqual([1, 2, 3, 4, 5])
  })

  it('frees its place when a call fails', async () => {
    const limit = limiter(1)
    await expect(
      limit(async () => {
        throw new Error('x')
      }),
    ).rejects.toThrow('x')
    expect(await limit(async () => 'ok')).toBe('ok')
  })
})
