import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '../../reference/demo-data'
import { referenceOptions } from '../../reference/options'
import { createReferenceApp } from '../../reference/server'
import { runConformance, type ConformanceRun } from '../../scripts/harness/run-conformance'

/**
 * Redaction proof: the suite runs with a canary password, against a service whose tokens and webhook
 * secrets we capture on the wire; then no report file and no console line may contain any of them.
 * Defects are on so that failure messages (with request and response evidence) are printed too.
 */
const CANARY = `canary-pw-${randomBytes(6).toString('hex')}`
const secrets = new Set<string>([CANARY])

function collect(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(collect)
  if (value === null || typeof value !== 'object') return
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && /token|secret|key/i.test(k) && v.length >= 8) {
      secrets.add(v)
      const sig = v.split('.')[2]
      if (sig && sig.length >= 16) secrets.add(sig)
    } else collect(v)
  }
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? files(p) : [p]
  })
}

let app: FastifyInstance
let run: ConformanceRun

beforeAll(async () => {
  const built = await createReferenceApp(
    referenceOptions({ defects: ['auth-login-wrong-password-accepted', 'auth-token-not-required'] }),
  )
  app = built.app
  // The primary user's password is the canary: the service accepts it in place of the demo password.
  app.addHook('preValidation', async (req) => {
    const body = req.body as { password?: unknown } | undefined
    if (
      req.url.startsWith('/api/v1/identifier/') &&
      body &&
      typeof body.password === 'string' &&
      body.password.startsWith(CANARY)
    ) {
      body.password = body.password === CANARY ? DEMO_PASSWORD : `${DEMO_PASSWORD}${body.password.slice(CANARY.length)}`
    }
  })
  app.addHook('onSend', async (_req, _reply, payload) => {
    if (typeof payload === 'string') {
      try {
        collect(JSON.parse(payload))
      } catch {
        // not JSON
      }
    }
    return payload
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as { port: number }
  const url = `http://127.0.0.1:${port}`
  run = await runConformance({
    files: ['suites/auth', 'suites/security', 'suites/webhooks'],
    env: { SALES_BASE_URL: url, AUTH_URL: `${url}/api/v1/identifier`, WEBHOOK_BASE_URL: url, AUTH_PASSWORD: CANARY },
    keepReports: true,
    timeoutMs: 300_000,
  })
}, 320_000)

afterAll(async () => {
  await app?.close()
  if (run) rmSync(run.reportsDir, { recursive: true, force: true })
})

describe('redaction proof', () => {
  it('the run used the canary and produced reports, failures included', () => {
    expect(run.report?.run?.user).toBe('broker@acme.test')
    expect(run.failedIds.length).toBeGreaterThan(0)
    expect([...secrets].filter((s) => s !== CANARY).length).toBeGreaterThan(0)
    expect(files(run.reportsDir).some((f) => f.includes('allure-results'))).toBe(true)
  })

  it('no report file contains the password, a token or a webhook secret', () => {
    const leaks: string[] = []
    for (const f of files(run.reportsDir)) {
      const text = readFileSync(f, 'utf8')
      for (const s of secrets)
        if (text.includes(s))
          leaks.push(
            `${f.slice(run.reportsDir.length)} contains ${
              s === CANARY ? 'the canary password' : `a secret (${s.slice(0, 4)}…)`
            }`,
          )
    }
    expect(leaks).toEqual([])
  })

  it('the console output contains none of them', () => {
    const leaks = [...secrets]
      .filter((s) => run.output.includes(s))
      .map((s) => (s === CANARY ? 'the canary password' : `a secret (${s.slice(0, 4)}…)`))
    expect(leaks).toEqual([])
  })
})
