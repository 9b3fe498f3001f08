import { describe, expect, it } from 'vitest'
import { DEFAULT_SIGNATURE, webhookSettings } from '../../../../helpers/checks/webhooks/settings'

describe('webhook settings from the profile', () => {
  it('fills the documented defaults', () => {
    const s = webhookSettings({ extensions: {} })
    expect(s.signature).toEqual(DEFAULT_SIGNATURE)
    expect(s.subscriberUrlBase).toBe('https://webhook-receiver.invalid/ledger-conformance')
    expect(s.invalidUpdateStatuses).toEqual([400, 422])
    expect(s.eventPointer).toBe('/event')
    expect(s.delivery).toEqual({
      receiver: { listenHost: '127.0.0.1', listenPort: 0 },
      deadlineMs: 10_000,
      settleMs: 3000,
    })
  })

  it('reads the deprecated quietMs as settleMs when settleMs is absent', () => {
    expect(webhookSettings({ extensions: { webhooks: { delivery: { quietMs: 1500 } } } }).delivery.settleMs).toBe(1500)
    expect(
      webhookSettings({ extensions: { webhooks: { delivery: { quietMs: 1500, settleMs: 4000 } } } }).delivery.settleMs,
    ).toBe(4000)
  })

  it('keeps what the profile says and merges the rest', () => {
    const s = webhookSettings({
      extensions: {
        webhooks: {
          subscriberUrlBase: 'https://hooks.example.com/base/',
          signature: { header: 'X-Sig' },
          delivery: {
            trigger: { method: 'POST', path: '/emit' },
            receiver: { publicUrl: 'https://tunnel.example.com' },
          },
        },
      },
    })
    expect(s.subscriberUrlBase).toBe('https://hooks.example.com/base')
    expect(s.signature).toEqual({ ...DEFAULT_SIGNATURE, header: 'X-Sig' })
    expect(s.delivery.trigger).toEqual({ method: 'POST', path: '/emit' })
    expect(s.delivery.receiver).toEqual({
      listenHost: '127.0.0.1',
      listenPort: 0,
      publicUrl: 'https://tunnel.example.com',
    })
  })
})
