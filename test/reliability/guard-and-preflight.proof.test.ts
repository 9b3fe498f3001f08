import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runConformance } from '../../scripts/harness/run-conformance'
import { startTestServer, type TestServer } from '../support/http-server'
import { tempDir } from '../support/temp-dir'

const dir = tempDir('guard')
function profile(name: string, body: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`)
  writeFileSync(
    file,
    JSON.stringify({
      name,
      tenant: 'acme',
      credentials: { username: 'broker@acme.test', password: 'demo-pass-4821' },
      ...body,
    }),
  )
  return file
}

describe('production guard, end to end', () => {
  let server: TestServer
  let prod: string
  beforeAll(async () => {
    server = await startTestServer(
      (_req, res) => void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"nothing here"}'),
    )
    prod = profile('production', { services: { salesBaseUrl: server.url } })
  })
  afterAll(() => server.close())

  it('refuses writing suites against a target not marked nonProduction, before any request', async () => {
    const run = await runConformance({ files: ['suites/security'], env: { TARGET_PROFILE: prod, ALLOW_WRITES: '' } })
    expect(run.exitCode).not.toBe(0)
    expect(run.output).toMatch(/Production guard: refusing to run suites that create or change data/)
    expect(run.output).toMatch(/suites\/security\/bearer-required\.test\.ts/)
    expect(server.requests).toHaveLength(0)
    expect(run.report?.checks ?? []).toHaveLength(0)
  })

  it('lets the read-only smoke subset through against the same target', async () => {
    const run = await runConformance({ files: ['suites/auth/login.test.ts'], env: { TARGET_PROFILE: prod } })
    expect(run.output).not.toMatch(/Production guard/)
    expect(server.requests.length).toBeGreaterThan(0)
  })

  it('lets writing suites through with ALLOW_WRITES=1', async () => {
    const before = server.requests.length
    const run = await runConformance({ files: ['suites/security'], env: { TARGET_PROFILE: prod, ALLOW_WRITES: '1' } })
    expect(run.output).not.toMatch(/Production guard/)
    expect(server.requests.length).toBeGreaterThan(before)
  })
})

describe('preflight', () => {
  it('a tenant header the service refuses stops the run with one message naming the header', async () => {
    const file = profile('bad-tenant-header', { nonProduction: true, headers: { tenant: 'X-TENANT' } })
    const run = await runConformance({ files: ['suites/auth'], env: { TARGET_PROFILE: file } })
    expect(run.exitCode).not.toBe(0)
    expect(run.output).toMatch(/Tenant header refused: .*'X-TENANT: acme'.* answered 400/)
    expect(run.output).toMatch(/profile 'headers.tenant'/)
    expect(run.report?.checks ?? []).toHaveLength(0)
  })

  it('REFERENCE_CHAOS with a bad field stops the run naming the field', async () => {
    const run = await runConformance({ files: ['suites/auth'], env: { REFERENCE_CHAOS: '503=0.05,latency=9-1' } })
    expect(run.exitCode).not.toBe(0)
    expect(run.output).toMatch(/REFERENCE_CHAOS: field 'latency'/)
  })

  it(
    'a read answered 503 with a Retry-After beyond what the run waits is INCONCLUSIVE naming the operation, never a ' +
      'failed requirement',
    async () => {
      const run = await runConformance({
        files: ['suites/auth', '-t', 'AUTH-TENANT-002'],
        env: { REFERENCE_CHAOS: '503=1,retryAfter=3600' },
      })
      expect(run.failedIds).toEqual([])
      expect(run.verdict).toMatchObject({ verdict: 'INCONCLUSIVE', exitCode: 3 })
      const c = run.report?.checks.find((x) => x.id === 'AUTH-TENANT-002')
      expect(c?.status).toBe('errored')
      expect(c?.error).toMatch(
        /the target said it is unavailable: sales\.schemes\.get answered 503 with Retry-After: 3600/,
      )
    },
  )
})
