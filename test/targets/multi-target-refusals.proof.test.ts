import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { runConformance } from '../../scripts/harness/run-conformance'
import { startTestServer, type TestServer } from '../support/http-server'
import { tempDir } from '../support/temp-dir'

const dir = tempDir('multi')
const demo = (t: string) => resolve(PROJECT_ROOT, `fixtures/targets/tenants/${t}.json`)
function profile(name: string, body: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify({ extends: demo('globex'), name, ...body }))
  return file
}

describe('a multi-target run stops before any check, naming the target', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(
      (_req, res) => void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"nothing here"}'),
    )
  })
  afterAll(() => server.close())

  it(
    'refuses writing suites when one target is not marked nonProduction, before any request to any ' + 'target',
    async () => {
      const prod = profile('production', { nonProduction: null, services: { salesBaseUrl: server.url } })
      const run = await runConformance({
        files: ['suites/security'],
        env: { TARGET_PROFILES: `${demo('acme')},${prod}`, ALLOW_WRITES: '' },
      })
      expect(run.exitCode).not.toBe(0)
      expect(run.output).toMatch(/\[production\] Production guard: refusing to run suites that create or change data/)
      expect(server.requests).toHaveLength(0)
      expect(run.targets).toEqual({})
    },
  )

  it('a target whose login fails stops the run in the preflight with one message naming it', async () => {
    const wrong = profile('wrong-password', {
      credentials: { username: 'broker@globex.test', password: 'not-the-password-93' },
    })
    const run = await runConformance({ files: ['suites/auth'], env: { TARGET_PROFILES: `${demo('acme')},${wrong}` } })
    expect(run.exitCode).not.toBe(0)
    expect(run.output).toMatch(/\[wrong-password\] .*[Ll]ogin/)
    expect(run.output).not.toMatch(/\[acme\] /)
    expect(run.output).not.toContain('not-the-password-93')
    expect(run.targets).toEqual({})
  })

  it('refuses TENANT next to TARGET_PROFILES, naming the variable', async () => {
    const run = await runConformance({
      files: ['suites/auth'],
      env: { TARGET_PROFILES: `${demo('acme')},${demo('globex')}`, TENANT: 'acme' },
    })
    expect(run.exitCode).not.toBe(0)
    expect(run.output).toMatch(/TENANT: cannot be combined with TARGET_PROFILES/)
    expect(run.targets).toEqual({})
  })
})
