import { afterEach, describe, expect, it } from 'vitest'
import { WebhookReceiver } from '../../../helpers/webhooks/receiver'
import { waitForNotifications } from '../../../helpers/webhooks/waits'

const open: WebhookReceiver[] = []
afterEach(async () => {
  for (const r of open.splice(0)) await r.close()
})

describe('webhook receiver', () => {
  it('answers 204 and keeps each notification byte for byte under its label', async () => {
    const r = await WebhookReceiver.start({ listenHost: '127.0.0.1', listenPort: 0 })
    open.push(r)
    const body = '{"event":"export", "é": 1}'
    const res = await fetch(r.url('lc-run-a'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-signature': 'sha256=00' }, body })
    expect(res.status).toBe(204)
    expect(r.for('lc-run-b')).toEqual([])
    const [n] = r.for('lc-run-a')
    expect(n!.rawBody.equals(Buffer.from(body))).toBe(true)
    expect(n!.headers['x-webhook-signature']).toBe('sha256=00')
    expect(n!.method).toBe('POST')
  })

  it('uses the public URL for subscriptions when the profile gives one', async () => {
    const r = await WebhookReceiver.start({ listenHost: '127.0.0.1', listenPort: 0, publicUrl: 'https://tunnel.example.com/hooks/' })
    open.push(r)
    expect(r.url('lc-x')).toBe('https://tunnel.example.com/hooks/lc-x')
  })

  it('waitForNotifications succeeds once every label is notified and times out naming the missing ones', async () => {
    const r = await WebhookReceiver.start({ listenHost: '127.0.0.1', listenPort: 0 })
    open.push(r)
    await fetch(r.url('one'), { method: 'POST', body: '{}' })
    expect((await waitForNotifications(r, ['one'], 1000)).outcome).toBe('success')
    const missing = await waitForNotifications(r, ['one', 'two'], 150)
    expect(missing.outcome).toBe('timeout')
    expect(missing.last?.value).toEqual(['two'])
  })

  it('waitForNotifications stops at once with the reason when the stop condition holds', async () => {
    const r = await WebhookReceiver.start({ listenHost: '127.0.0.1', listenPort: 0 })
    open.push(r)
    const stopped = await waitForNotifications(r, ['never'], 5000, () => 'a notification at the old url')
    expect(stopped.outcome).toBe('failure')
    expect(stopped.last?.seen).toBe('a notification at the old url')
    expect(stopped.attempts).toHaveLength(1)
  })
})
