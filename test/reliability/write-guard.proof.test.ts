import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { main } from '../../runner/cli/main'
import { startTestServer, type TestServer } from '../support/http-server'
import { tempDir } from '../support/temp-dir'

// The one production guard (runner/run/guard/write-guard.ts) for the commands whose checks run in a vitest of their own
// (run, acceptance): refused inside the run's global setup, before the preflight (exit 2, CONFIGURATION ERROR), with
// nothing sent to the target (a loopback server counts every request), the refusal repeating the user's own command
// line with the flag added. explore and replay: test/runner/run/guard/command-guards.test.ts.

/** main() in this process (it starts vitest as a user's run does); what it printed to this process, and its code. */
async function cli(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; text: string }> {
  let text = ''
  const keep = (s: unknown) => ((text += String(s)), true)
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(keep),
    vi.spyOn(process.stderr, 'write').mockImplementation(keep),
  ]
  const saved = { ...process.env }
  for (const k of [
    'TARGET_PROFILE',
    'TARGET_PROFILES',
    'SALES_BASE_URL',
    'AUTH_URL',
    'WEBHOOK_BASE_URL',
    'TENANT',
    'AUTH_USERNAME',
    'AUTH_PASSWORD',
    'ALLOW_WRITES',
    'REPORTS_DIR',
    'LEDGER_COMMAND_LINE',
    'CONFORMANCE_RUN_ID',
  ])
    delete process.env[k]
  Object.assign(process.env, { NO_COLOR: '1', ...env })
  try {
    return { code: await main(argv), text }
  } finally {
    for (const s of spies) s.mockRestore()
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k]
    Object.assign(process.env, saved)
  }
}

describe('run and acceptance: the one production guard, in a real run', () => {
  let server: TestServer
  let profile: string
  const dir = tempDir('write-guard')
  beforeAll(async () => {
    server = await startTestServer(
      (_req, res) => void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"nothing here"}'),
    )
    profile = join(dir, 'production.json')
    writeFileSync(
      profile,
      JSON.stringify({
        name: 'production',
        tenant: 'acme',
        services: { salesBaseUrl: server.url },
        credentials: { username: 'broker@acme.test', passwordEnv: 'AUTH_PASSWORD' },
      }),
    )
  })
  afterAll(() => server.close())

  it('run: refused without --allow-writes, exit 2, nothing sent; verdict.json says CONFIGURATION ERROR with the ' +
    "user's own line, the profile kept", async () => {
    const reports = join(dir, 'run')
    const r = await cli(['run', '--profile', profile, '--reports', reports, 'suites/security'], {
      AUTH_PASSWORD: 'pw-guard-2',
    })
    expect(r.code, r.text).toBe(2)
    expect(server.requests).toHaveLength(0)
    const verdict = JSON.parse(readFileSync(join(reports, 'verdict.json'), 'utf8')) as {
      verdict: string
      exitCode: number
      label: string
      cause: string
    }
    expect(verdict).toMatchObject({ verdict: 'CONFIGURATION ERROR', exitCode: 2 })
    expect(verdict.label).toMatch(
      /^CONFIGURATION ERROR \(Production guard: refusing to run suites that create or change data against http:\/\/127\.0\.0\.1:\d+: profile 'production' does not set nonProduction: true\. No request was sent\./,
    )
    expect(verdict.cause).toContain(`run --profile ${profile} --reports ${reports} suites/security --read-only'`)
    expect(verdict.cause).toContain(
      `run --profile ${profile} --reports ${reports} suites/security --allow-writes' (or ALLOW_WRITES=1)`,
    )
    expect(JSON.stringify(verdict)).not.toContain('pw-guard-2')
  }, 120_000)

  it('acceptance: refused without --allow-writes the same way (exit 2, nothing sent); --read-only is refused before ' +
    'anything starts', async () => {
    const reports = join(dir, 'acceptance')
    const r = await cli(['acceptance', '--profile', profile, '--reports', reports, '--suites', 'suites/security'], {
      AUTH_PASSWORD: 'pw-guard-2',
    })
    expect(r.code, r.text).toBe(2)
    expect(server.requests).toHaveLength(0)
    expect(r.text).toMatch(
      /Production guard: refusing to run the acceptance suites, which create or change data, against http:\/\/127\.0\.0\.1:\d+/,
    )
    expect(r.text).toContain(
      `acceptance --profile ${profile} --reports ${reports} --suites suites/security --allow-writes' (or ` +
        `ALLOW_WRITES=1)`,
    )
    expect(r.text).toMatch(/acceptance cannot be read-only/)
    const acceptance = JSON.parse(readFileSync(join(reports, 'acceptance.json'), 'utf8')) as {
      verdict: string
      exitCode: number
      conformance: { verdict: string }
    }
    expect(acceptance).toMatchObject({
      verdict: 'REJECTED',
      exitCode: 2,
      conformance: { verdict: 'CONFIGURATION ERROR' },
    })
    const ro = await cli(['acceptance', '--profile', profile, '--reports', join(dir, 'ro'), '--read-only'], {})
    expect(ro.code).toBe(2)
    expect(ro.text).toMatch(/--read-only: acceptance cannot be read-only/)
    expect(existsSync(join(dir, 'ro'))).toBe(false)
    expect(server.requests).toHaveLength(0)
    expect(r.text + ro.text).not.toContain('pw-guard-2')
  }, 120_000)
})
