import { describe, expect, it } from 'vitest'
import { loadTargetConfig } from '../../../../common/config/target-config'
import { freePort, withContainerReceiver } from '../../../../runner/run/container/webhook-receiver'

describe('withContainerReceiver', () => {
  const base = loadTargetConfig({})

  it('announces the receiver on the host alias the container resolves, on a fixed port of every interface', () => {
    const c = withContainerReceiver(base, 45123)
    expect((c.extensions.webhooks as { delivery: { receiver: unknown } }).delivery.receiver).toEqual({
      listenHost: '0.0.0.0',
      listenPort: 45123,
      publicUrl: 'http://host.docker.internal:45123',
    })
    // the rest of the webhook settings is kept
    const before = { ...(base.extensions.webhooks ?? {}) } as Record<string, unknown>
    delete before.delivery
    const after = { ...(c.extensions.webhooks ?? {}) } as Record<string, unknown>
    delete after.delivery
    expect(after).toEqual(before)
  })

  it('keeps a receiver URL the profile already gives', () => {
    const withUrl = {
      ...base,
      extensions: {
        ...base.extensions,
        webhooks: { delivery: { receiver: { publicUrl: 'https://hooks.example.com' } } },
      },
    }
    expect(withContainerReceiver(withUrl, 1)).toBe(withUrl)
  })

  it('freePort returns a free port below the ephemeral range (never one a socket on port 0 gets)', async () => {
    const p = await freePort()
    expect(p).toBeGreaterThanOrEqual(20000)
    expect(p).toBeLessThan(32000)
  })

  it('freePort draws another port when the first is taken', async () => {
    const { createServer } = await import('node:net')
    const taken = createServer()
    const first = await freePort(() => 0.5)
    await new Promise<void>((r) => taken.listen(first, '0.0.0.0', () => r()))
    try {
      const draws = [0.5, 0.25]
      const p = await freePort(() => draws.shift() ?? Math.random())
      expect(p).not.toBe(first)
      expect(p).toBe(20000 + Math.floor(0.25 * 12000))
    } finally {
      await new Promise<void>((r) => taken.close(() => r()))
    }
  })
})
