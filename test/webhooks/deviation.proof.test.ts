import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { runConformance } from '../../scripts/harness/run-conformance'

const dir = mkdtempSync(join(tmpdir(), 'lc-wh-profiles-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The reference profile with overrides, written to a temporary file (validated by the loader like any profile). */
function profile(name: string, overrides: Record<string, unknown>): string {
  const base = JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'fixtures/targets/reference.json'), 'utf8')) as Record<
    string,
    unknown
  >
  const path = join(dir, `${name}.json`)
  writeFileSync(path, JSON.stringify({ ...base, $schema: undefined, name, ...overrides }))
  return path
}

describe('the webhook-secret-type deviation (a string secret) is decided by the profile', () => {
  it('warn (the default): the run stays green and the report records the deviation on WH-CON-007', async () => {
    const run = await runConformance({
      files: ['suites/webhooks'],
      env: { TARGET_PROFILE: profile('secret-string-warn', { reference: { webhooks: { secretFormat: 'string' } } }) },
    })
    expect(run.failedIds, run.output.slice(-3000)).toEqual([])
    expect(run.exitCode).toBe(0)
    const con = run.report?.checks.find((c) => c.id === 'WH-CON-007')
    expect(con?.status).toBe('passed')
    expect(con?.deviations.map((d) => d.id)).toEqual(['webhook-secret-type'])
    expect(run.report?.totals.deviations).toBeGreaterThanOrEqual(1)
    // the string secret still signs the notifications
    expect(run.report?.checks.find((c) => c.id === 'WH-DLV-004')?.status).toBe('passed')
  })

  it('fail: WH-CON-007 fails naming the deviation, and nothing else fails', async () => {
    const run = await runConformance({
      files: ['suites/webhooks/contracts.test.ts'],
      env: {
        TARGET_PROFILE: profile('secret-string-fail', {
          reference: { webhooks: { secretFormat: 'string' } },
          deviations: { 'webhook-secret-type': 'fail' },
        }),
      },
    })
    expect(run.exitCode).not.toBe(0)
    expect(run.failedIds).toEqual(['WH-CON-007'])
    expect(run.report?.checks.find((c) => c.id === 'WH-CON-007')?.error).toContain('webhook-secret-type')
  })

  it('an object secret raises no deviation even when the profile would fail it', async () => {
    const run = await runConformance({
      files: ['suites/webhooks/contracts.test.ts'],
      env: { TARGET_PROFILE: profile('secret-object-fail', { deviations: { 'webhook-secret-type': 'fail' } }) },
    })
    expect(run.failedIds, run.output.slice(-3000)).toEqual([])
    expect(run.report?.checks.find((c) => c.id === 'WH-CON-007')?.deviations).toEqual([])
  })
})

describe("other clients' subscriptions in the caller's list", () => {
  it('the webhook suites stay green when the list already holds subscriptions the suite did not make', async () => {
    const run = await runConformance({
      files: ['suites/webhooks'],
      env: { TARGET_PROFILE: profile('preexisting', { reference: { webhooks: { preexistingSubscriptions: 3 } } }) },
    })
    expect(run.failedIds, run.output.slice(-3000)).toEqual([])
    expect(run.exitCode).toBe(0)
  })
})
