import { afterEach, describe, expect, it } from 'vitest'
import { runRedactor } from '../../../../helpers/client/evidence/redact'
import { WebhookReceiver } from '../../../../helpers/checks/webhooks/receiver'
import { DEFAULT_SIGNATURE } from '../../../../helpers/checks/webhooks/settings'
import { sign } from '../../../../helpers/checks/webhooks/signature'
import { waitForNotifications } from '../../../../helpers/checks/webhooks/waits'

const open: WebhookReceiver[] = []
afterEach(async () => {
  for (const r of open.splice(0)) await r.close()
})

async function receiver(o: Partial<Parameters<typeof WebhookReceiver.start>[0]> = {}): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start({ listenHost: '127.0.0.1', listenPort: 0, signature: DEFAULT_SIGNATURE, ...o })
  open.push(r)
  return r
}

function signedPost(url: string, key: string, body: string): Promise<Response> {
  const ts = String(Math.floor(Date.now() / 1000))
  return fetch(url, {
    method: 'POST',
    headers: { 'x-webhook-timestamp': ts, 'x-webhook-signature': sign(DEFAULT_SIGNATURE, key, Buffer.from(body), ts) },
    body,
  })
}

describe('webhook receiver', () => {
  it('on a fixed port, is one listener shared by the receivers of the process, each answering its paths', async () => {
    const first = await receiver()
    const port = Number(new URL(first.baseUrl).port)
    await first.close()
    open.splice(open.indexOf(first), 1)
    const a = await receiver({ listenPort: port })
    const b = await receiver({ listenPort: port })
    expect(b.baseUrl).toBe(a.baseUrl)
    expect((await fetch(a.url('lc-run-a'), { method: 'POST', body: '{"a":1}' })).status).toBe(204)
    expect((await fetch(b.url('lc-run-b'), { method: 'POST', body: '{"b":1}' })).status).toBe(204)
    expect(a.for('lc-run-a').map((n) => n.rawBody.toString())).toEqual(['{"a":1}'])
    expect(b.for('lc-run-b').map((n) => n.rawBody.toString())).toEqual(['{"b":1}'])
    expect(a.for('lc-run-b')).toEqual([])
    // the listener stays while one of them is open, and closes with the last
    await a.close()
    open.splice(open.indexOf(a), 1)
    expect((await fetch(b.url('lc-run-b'), { method: 'POST', body: '{"b":2}' })).status).toBe(204)
    expect(b.for('lc-run-b')).toHaveLength(2)
    await b.close()
    open.splice(open.indexOf(b), 1)
    await expect(fetch(`${b.baseUrl}/x`, { method: 'POST' })).rejects.toThrow()
  })

  it('answers 204 and keeps each notification byte for byte under its label', async () => {
    const r = await receiver()
    const body = '{"event":"export", "é": 1}'
    const res = await fetch(r.url('lc-run-a'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': 'sha256=00' },
      body,
    })
    expect(res.status).toBe(204)
    expect(r.for('lc-run-b')).toEqual([])
    const [n] = r.for('lc-run-a')
    expect(n!.rawBody.equals(Buffer.from(body))).toBe(true)
    expect(n!.headers['x-webhook-signature']).toBe('sha256=00')
    expect(n!.method).toBe('POST')
  })

  it(
    'gives each subscription an unguessable path (128 random bits), not derived from the label, masked in ' + 'reports',
    async () => {
      const r = await receiver()
      const a = new URL(r.url('lc-run-20260101-a')).pathname.slice(1)
      expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/)
      expect(r.url('lc-run-20260101-a')).toBe(`${r.baseUrl}/${a}`)
      expect(new URL(r.url('lc-run-20260101-b')).pathname.slice(1)).not.toBe(a)
      expect(r.url('lc-run-20260101-a')).not.toContain('lc-run')
      expect(runRedactor().text(`subscribed ${r.url('lc-run-20260101-a')}`)).not.toContain(a)
    },
  )

  it(
    'counts a notification only when signed by the subscription secret, verified at receipt or when the secret ' +
      'becomes known',
    async () => {
      const r = await receiver()
      const early = r.url('early')
      await signedPost(early, 'key-of-early', '{"event":"export"}')
      expect(r.for('early')[0]!.verdict).toBe('pending')
      r.trust('early', 'key-of-early')
      expect(r.signed('early')).toHaveLength(1)
      const url = r.url('late')
      r.trust('late', 'key-of-late')
      await signedPost(url, 'key-of-late', '{"event":"export"}')
      await signedPost(url, 'some-other-key', '{"event":"export"}')
      await fetch(url, { method: 'POST', body: '{"event":"export"}' })
      expect(r.for('late').map((n) => n.verdict)).toEqual(['signed', 'unsigned', 'unsigned'])
      expect(r.signed('late')).toHaveLength(1)
      expect(r.for('late')[2]!.reason).toContain('no X-Webhook-Signature')
    },
  )

  it('keeps nothing of a request to a path no subscription was given (a local process guessing)', async () => {
    const r = await receiver()
    r.url('real')
    for (const path of ['/real', '/lc-run-x-real', '/', '/AAAAAAAAAAAAAAAAAAAAAA']) {
      expect((await fetch(`${r.baseUrl}${path}`, { method: 'POST', body: '{}' })).status).toBe(404)
    }
    expect(r.for('real')).toEqual([])
    expect(r.rejected.stray).toBe(4)
  })

  it('caps the body size and the count per subscription', async () => {
    const r = await receiver({ maxBodyBytes: 2048, maxPerSubscription: 3 })
    const url = r.url('flooded')
    const big = await fetch(url, { method: 'POST', body: 'x'.repeat(100_000) }).then(
      (res) => res.status,
      () => 'reset',
    )
    expect([413, 'reset']).toContain(big)
    for (let i = 0; i < 10; i += 1) expect((await fetch(url, { method: 'POST', body: `{"n":${i}}` })).status).toBe(204)
    expect(r.for('flooded')).toHaveLength(3)
    expect(r.dropped('flooded')).toBe(7)
    expect(r.rejected.oversized).toBe(1)
  })

  it('listens on loopback unless a public URL is configured', async () => {
    await expect(WebhookReceiver.start({ listenHost: '0.0.0.0', listenPort: 0 })).rejects.toThrow(/public URL/)
    const r = await receiver({ listenHost: '0.0.0.0', publicUrl: 'https://tunnel.example.com/hooks/' })
    expect(r.url('lc-x')).toMatch(/^https:\/\/tunnel\.example\.com\/hooks\/[A-Za-z0-9_-]{22}$/)
  })

  it('waitForNotifications succeeds once every label is notified and times out naming the missing ones', async () => {
    const r = await receiver()
    await fetch(r.url('one'), { method: 'POST', body: '{}' })
    expect((await waitForNotifications(r, ['one'], 1000)).outcome).toBe('success')
    const missing = await waitForNotifications(r, ['one', 'two'], 150)
    expect(missing.outcome).toBe('timeout')
    expect(missing.last?.value).toEqual(['two'])
  })

  it('waitForNotifications stops at once with the reason when the stop condition holds', async () => {
    const r = await receiver()
    const stopped = await waitForNotifications(r, ['never'], 5000, () => 'a notification at the old url')
    expect(stopped.outcome).toBe('failure')
    expect(stopped.last?.seen).toBe('a notification at the old url')
    expect(stopped.attempts).toHaveLength(1)
  })
})
