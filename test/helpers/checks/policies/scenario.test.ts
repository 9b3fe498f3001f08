import { describe, expect, it } from 'vitest'
import { once } from '../../../../helpers/checks/policies/scenario'

describe('once', () => {
  it('runs the function once and shares its result, also a failure', async () => {
    let calls = 0
    const ok = once(async () => ++calls)
    expect(await Promise.all([ok(), ok()])).toEqual([1, 1])
    expect(await ok()).toBe(1)
    const bad = once(async () => {
      calls += 1
      throw new Error('boom')
    })
    await expect(bad()).rejects.toThrow('boom')
    await expect(bad()).rejects.toThrow('boom')
    expect(calls).toBe(2)
  })
})
