import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '../../reference/demo-data'
import { referenceOptions } from '../../reference/options'
import { createReferenceApp, startReference, type RunningReference } from '../../reference/server'
import { NOTIFICATION_OPERATION, type FieldSite } from '../../reference/variations/field-probe'
import { SIGNATURE_HEADER, signReference, TIMESTAMP_HEADER } from '../../reference/webhooks/delivery'
import { FieldPerturber } from '../../scripts/mutation/fields/perturber'
import { FieldRecorder } from '../../scripts/mutation/fields/record'

async function login(app: Awaited<ReturnType<typeof createReferenceApp>>['app']): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/identifier/login/acme',
    payload: { username: 'broker@acme.test', password: DEMO_PASSWORD },
  })
  return (res.json() as { authentication_result: { access_token: string } }).authentication_result.access_token
}

describe('reference field probe', () => {
  const closing: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const c of closing.splice(0)) await c()
  })

  it(
    'hands every JSON answer of a catalogue operation to the probe, with its operation and status, and nothing ' +
      'else',
    async () => {
      const sites: FieldSite[] = []
      const recorder = new FieldRecorder()
      const probe = { body: (s: FieldSite, b: unknown) => (sites.push(s), recorder.body(s, b)) }
      const { app } = await createReferenceApp(referenceOptions({ fieldProbe: probe }))
      closing.push(() => app.close())
      const token = await login(app)
      const events = await app.inject({
        method: 'GET',
        url: '/api/webhook/events',
        headers: { authorization: `Bearer ${token}` },
      })
      const missing = await app.inject({
        method: 'GET',
        url: '/api/webhook/subscription/nope?x=1',
        headers: { authorization: `Bearer ${token}` },
      })
      await app.inject({ method: 'GET', url: '/health' })
      expect(events.statusCode).toBe(200)
      expect(missing.statusCode).toBe(404)
      // the login and /health are no catalogue operation
      expect(sites).toEqual([
        { operation: 'webhooks.events.list', status: 200, exchange: 'GET /api/webhook/events' },
        { operation: 'webhooks.subscription.get', status: 404, exchange: 'GET /api/webhook/subscription/nope' },
      ])
      const keys = recorder.entries(() => []).map((e) => e.key)
      expect(keys).toContain('webhooks.events.list 200 /*/eventType')
      expect(keys).toContain('webhooks.events.list 200 /*/examplePayload/documentId')
      expect(keys).toContain('webhooks.subscription.get 404 /message')
    },
  )

  it('sends the perturbed answer, and nothing changes without a probe', async () => {
    const perturber = new FieldPerturber({ operation: 'webhooks.events.list', status: 200, path: '/*/eventType' })
    const perturbed = await createReferenceApp(referenceOptions({ fieldProbe: perturber }))
    const plain = await createReferenceApp(referenceOptions())
    closing.push(
      () => perturbed.app.close(),
      () => plain.app.close(),
    )
    const get = async (app: typeof plain.app) =>
      (
        await app.inject({
          method: 'GET',
          url: '/api/webhook/events',
          headers: { authorization: `Bearer ${await login(app)}` },
        })
      ).json() as { eventType: string }[]
    expect((await get(plain.app)).map((e) => e.eventType)).toEqual(['extracted', 'export', 'validation-success'])
    expect((await get(perturbed.app)).map((e) => e.eventType)).toEqual(['extractee', 'exporu', 'validation-succest'])
    expect(perturber.applied).toBe(3)
  })

  it(
    'perturbs a notification before it is signed: the receiver gets the perturbed body with a valid ' + 'signature',
    async () => {
      const got: { body: string; headers: IncomingMessage['headers'] }[] = []
      let delivered: () => void = () => undefined
      const first = new Promise<void>((r) => (delivered = r))
      const receiver = createServer((req, res) => {
        let body = ''
        req.on('data', (c: Buffer) => (body += c.toString()))
        req.on('end', () => {
          got.push({ body, headers: req.headers })
          res.statusCode = 204
          res.end()
          delivered()
        })
      })
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()))
      closing.push(() => new Promise<void>((r) => receiver.close(() => r())))
      const perturber = new FieldPerturber({ operation: NOTIFICATION_OPERATION, status: 'sent', path: '/event' })
      const ref: RunningReference = await startReference({ fieldProbe: perturber })
      closing.push(() => ref.close())
      const auth = { authorization: `Bearer ${await login(ref.app)}` }
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
      const created = await ref.app.inject({
        method: 'POST',
        url: '/api/webhook/subscription',
        headers: auth,
        payload: { event: 'export', url },
      })
      const secret = (created.json() as { secret: { key: string } }).secret.key
      await ref.app.inject({
        method: 'POST',
        url: '/__reference/webhooks/emit',
        headers: auth,
        payload: { event: 'export' },
      })
      await first
      expect(got).toHaveLength(1)
      const n = got[0]!
      expect((JSON.parse(n.body) as { event: string }).event).toBe('exporu')
      expect(n.headers[SIGNATURE_HEADER]).toBe(signReference(secret, Number(n.headers[TIMESTAMP_HEADER]), n.body))
      // the receiver's path is masked in what the harness reports
      expect(perturber.example?.exchange).toBe(`notification POST ${new URL(url).origin}/[redacted]`)
    },
  )
})
