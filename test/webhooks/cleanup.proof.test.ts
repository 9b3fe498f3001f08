import { afterAll, describe, expect, it } from 'vitest'
import { startReference, type RunningReference } from '../../reference/server'
import { runConformance } from '../../scripts/harness/run-conformance'

const open: RunningReference[] = []
afterAll(async () => {
  for (const r of open) await r.close()
})

async function subscriptionsOf(ref: RunningReference): Promise<{ id: string; url: string }[]> {
  const login = await fetch(`${ref.url}/api/v1/identifier/login/acme`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'broker@acme.test', password: 'demo-pass-4821' }),
  })
  const token = ((await login.json()) as { authentication_result: { access_token: string } }).authentication_result
    .access_token
  const res = await fetch(`${ref.url}/api/webhook/subscriptions`, { headers: { authorization: `Bearer ${token}` } })
  return (await res.json()) as { id: string; url: string }[]
}

describe('the webhook suites leave nothing behind', () => {
  it(
    'every subscription they create carries the run id and is deleted, even when a check fails ' + 'mid-lifecycle',
    async () => {
      // a reference the test keeps running after the suite ends, so its store can be inspected
      const ref = await startReference({ defects: ['webhooks-put-wipes-url'] })
      open.push(ref)
      const runId = `cleanup-${Date.now()}`
      const run = await runConformance({
        files: ['suites/webhooks'],
        env: {
          SALES_BASE_URL: ref.url,
          AUTH_URL: `${ref.url}/api/v1/identifier`,
          WEBHOOK_BASE_URL: ref.url,
          CONFORMANCE_RUN_ID: runId,
        },
      })
      expect(run.failedIds, run.output.slice(-3000)).toContain('WH-LIFE-005')
      // the lifecycle's own delete steps were blocked: only the afterAll cleanup removed its subscriptions
      expect(run.report?.checks.find((c) => c.id === 'WH-LIFE-006')?.status).not.toBe('passed')
      const left = await subscriptionsOf(ref)
      expect(left.filter((s) => s.url.includes(runId))).toEqual([])
      expect(left).toEqual([])
    },
  )
})
