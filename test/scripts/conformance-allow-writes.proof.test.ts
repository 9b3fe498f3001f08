import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { startReference, type RunningReference } from '../../reference/server'
import { tempDir } from '../support/temp-dir'

let ref: RunningReference
const profile = join(tempDir('prod'), 'production.json')

/** npm run conformance as a user runs it (scripts/conformance.ts), against a target marked production. */
function conformance(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TARGET_PROFILE: profile,
      REPORTS_DIR: tempDir('aw'),
      NO_COLOR: '1',
    }
    delete env.ALLOW_WRITES
    delete env.SALES_BASE_URL
    const child = spawn(
      process.execPath,
      [resolve(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/conformance.ts', ...args],
      { cwd: PROJECT_ROOT, env },
    )
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('close', (code) => done({ code, out }))
  })
}

beforeAll(async () => {
  ref = await startReference({ port: 0 })
  writeFileSync(
    profile,
    JSON.stringify({
      name: 'production-like',
      nonProduction: false,
      tenant: 'acme',
      services: { salesBaseUrl: ref.url, authUrl: `${ref.url}/api/v1/identifier`, webhookBaseUrl: ref.url },
      credentials: { username: 'broker@acme.test', password: 'demo-pass-4821' },
    }),
  )
})
afterAll(() => ref.close())

describe('npm run conformance -- --allow-writes', () => {
  it('without the flag, writing suites are refused against a production target', async () => {
    const r = await conformance(['suites/webhooks/lifecycle.test.ts'])
    expect(r.code).not.toBe(0)
    expect(r.out).toMatch(/Production guard: refusing/)
  })

  it('with the flag, the same run goes ahead; other arguments reach vitest', async () => {
    const r = await conformance(['--allow-writes', 'suites/webhooks/lifecycle.test.ts'])
    expect(r.out).not.toMatch(/Production guard/)
    expect(r.out).toMatch(/^conformance: \d+ passed, 0 failed/m)
    expect(r.code).toBe(0)
  })
})
