import { afterEach, describe, expect, it } from 'vitest'
import { expectJsonBody, expectStatus } from '../../helpers/checks/expect'
import { formatFailure } from '../../helpers/checks/failure'
import { loadTargetConfig, withEmbeddedOrigin } from '../../common/config/target-config'
import { createSuiteContext, type SuiteContext } from '../../helpers/checks/context'
import { DEFAULT_RETRY_POLICY } from '../../helpers/client/http/retry'
import { TransportError } from '../../helpers/client/http/types'
import { parseChaos } from '../../reference/chaos/spec'
import type { ReferenceStats } from '../../reference/chaos/stats'
import { startReference, type RunningReference } from '../../reference/server'

const open: Array<{ ref: RunningReference; t: SuiteContext }> = []
afterEach(async () => {
  for (const { ref, t } of open.splice(0)) {
    await t.close()
    await ref.close()
  }
})

async function target(chaos: string) {
  const ref = await startReference({ chaos: parseChaos(chaos) })
  const t = createSuiteContext(withEmbeddedOrigin(loadTargetConfig({}), ref.url), { allure: false, trafficFile: false })
  open.push({ ref, t })
  const stats = async () => (await fetch(`${ref.url}/__reference/stats`)).json() as Promise<ReferenceStats>
  return { ref, t, stats }
}

const subscription = (t: SuiteContext) => ({
  url: 'http://127.0.0.1:9/hook',
  event: 'extracted',
  description: t.tag('chaos'),
})
const META = { id: 'REL-DEMO-001', spec: 'webhooks' as const, section: '§3', requirement: 'The event list is JSON.' }

describe('chaos in the reference service', () => {
  it('transient 503s on GET are retried, each attempt recorded, within the bound', async () => {
    const { t, stats } = await target('503=1,retryAfter=0,seed=1')
    const res = await t.webhooks.call({ op: 'webhooks.events.list' })
    expect(res.status).toBe(503)
    expect(res.headers['retry-after']).toBe('0')
    expect(res.exchange?.attempt).toBe(DEFAULT_RETRY_POLICY.maxAttempts)
    expect((await stats()).operations['webhooks.events.list']).toEqual({ 503: DEFAULT_RETRY_POLICY.maxAttempts })
  })

  it('by default POSTs get no fault: 503, resets and garbage hit idempotent requests only', async () => {
    const { t, stats } = await target('503=1,seed=1')
    const res = await t.webhooks.call({ op: 'webhooks.subscription.create', json: subscription(t) })
    expect(res.status).toBe(201)
    expect((await stats()).created.subscriptions).toBe(1)
  })

  it('with methods=all a POST answered 503 is sent once and nothing is created', async () => {
    const { t, stats } = await target('503=1,methods=all,seed=1')
    const res = await t.webhooks.call({ op: 'webhooks.subscription.create', json: subscription(t) })
    expect(res.status).toBe(503)
    const s = await stats()
    expect(s.operations['webhooks.subscription.create']).toEqual({ 503: 1 })
    expect(s.created.subscriptions).toBe(0)
  })

  it('with methods=all a POST whose connection is reset is sent once and fails as a transport error', async () => {
    const { t, stats } = await target('reset=1,methods=all,seed=1')
    await t.auth.token(t.config.users.primary)
    await expect(t.webhooks.call({ op: 'webhooks.subscription.create', json: subscription(t) })).rejects.toBeInstanceOf(
      TransportError,
    )
    const s = await stats()
    expect(s.chaos?.injected.reset).toBe(1)
    expect(s.created.subscriptions).toBe(0)
  })

  it('a reset GET is resent and succeeds', async () => {
    const { t, stats } = await target('reset=0.5,seed=3')
    for (let i = 0; i < 6; i += 1) expect((await t.webhooks.call({ op: 'webhooks.events.list' })).status).toBe(200)
    expect((await stats()).chaos?.injected.reset).toBeGreaterThan(0)
  })

  it(
    'a truncated JSON body fails the check as "target returned non-JSON / truncated body", with the ' + 'evidence',
    async () => {
      const { t } = await target('garbage=1,garbageKind=truncated,seed=1')
      const res = await t.webhooks.call({ op: 'webhooks.events.list' })
      expect(res.status).toBe(200)
      let message = ''
      try {
        expectJsonBody(res)
      } catch (e) {
        message = formatFailure(META, e)
      }
      expect(message).toMatch(/^\[REL-DEMO-001\] webhook-subscriptions\.md §3/)
      expect(message).toMatch(/actual: +target returned non-JSON \/ truncated body \(content-type application\/json/)
      expect(message).toMatch(/response: 200 application\/json/)
    },
  )

  it('a truncated body is named in the evidence of any failed check, whatever it asserted', async () => {
    const { t } = await target('garbage=1,garbageKind=truncated,seed=1')
    const res = await t.webhooks.call({ op: 'webhooks.events.list' })
    let message = ''
    try {
      expectStatus(res, 404)
    } catch (e) {
      message = formatFailure(META, e)
    }
    expect(message).toMatch(/actual: +status 200/)
    expect(message).toMatch(/body: +target returned non-JSON \/ truncated body/)
  })

  it('an HTML error page where JSON was expected is reported as non-JSON, with the page as evidence', async () => {
    const { t } = await target('garbage=1,garbageKind=html,seed=1')
    const res = await t.webhooks.call({ op: 'webhooks.events.list' })
    let message = ''
    try {
      expectJsonBody(res)
    } catch (e) {
      message = formatFailure(META, e)
    }
    expect(message).toMatch(/actual: +target returned non-JSON body \(content-type 'text\/html/)
    expect(message).toMatch(/502 Bad Gateway/)
  })

  it('slow bodies and latency arrive complete', async () => {
    const { t, stats } = await target('slow=1,slowMs=80,latency=10-30,seed=2')
    const res = await t.webhooks.call({ op: 'webhooks.events.list' })
    expect(res.status).toBe(200)
    expect(Array.isArray(expectJsonBody(res))).toBe(true)
    expect((await stats()).chaos?.injected.slow).toBeGreaterThan(0)
  })

  it('the same seed gives the same faults for the same requests', async () => {
    const pattern = async () => {
      const { ref, t } = await target('503=0.4,seed=11')
      await t.auth.token(t.config.users.primary)
      const seen: number[] = []
      for (let i = 0; i < 12; i += 1) {
        const r = await fetch(`${ref.url}/api/webhook/events`, {
          headers: { authorization: `Bearer ${await t.auth.token(t.config.users.primary)}` },
        })
        seen.push(r.status)
      }
      return seen
    }
    const a = await pattern()
    expect(a).toContain(503)
    expect(a).toContain(200)
    expect(await pattern()).toEqual(a)
  })
})
