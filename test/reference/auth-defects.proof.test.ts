import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../helpers/config'
import { runConformance } from '../../scripts/harness/run-conformance'

const dir = mkdtempSync(join(tmpdir(), 'lc-auth-profiles-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The reference profile with overrides, written to a temporary file. */
function profile(name: string, overrides: Record<string, unknown>): string {
  const base = JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'fixtures/targets/reference.json'), 'utf8')) as Record<string, unknown>
  const path = join(dir, `${name}.json`)
  writeFileSync(path, JSON.stringify({ ...base, $schema: undefined, name, ...overrides }))
  return path
}

/** The auth and security suites catch each auth defect of the reference service, with the right check. */
const CASES: { defect: string; files: string[]; mustFail: RegExp; mustPass?: string }[] = [
  { defect: 'auth-token-not-required', files: ['suites/security'], mustFail: /^SEC-NOTOKEN-sales\./ },
  { defect: 'auth-webhook-token-not-required', files: ['suites/security'], mustFail: /^SEC-NOTOKEN-webhooks\./ },
  { defect: 'auth-foreign-signature-accepted', files: ['suites/security'], mustFail: /^SEC-FOREIGN-/ },
  // members of a group (helpers/checks/group.ts), run without their representative: each is seen failing on its own
  { defect: 'auth-token-not-required', files: ['suites/security', '-t', 'SEC-NOTOKEN-sales.quote.get '], mustFail: /^SEC-NOTOKEN-sales\.quote\.get$/ },
  { defect: 'auth-foreign-signature-accepted', files: ['suites/security', '-t', 'SEC-UNSIGNED-webhooks.subscription.get '], mustFail: /^SEC-UNSIGNED-webhooks\.subscription\.get$/ },
  { defect: 'auth-foreign-signature-accepted', files: ['suites/security', '-t', 'SEC-TAMPERED-sales.policy.links '], mustFail: /^SEC-TAMPERED-sales\.policy\.links$/ },
  { defect: 'auth-expired-token-accepted', files: ['suites/auth'], mustFail: /^AUTH-TOKEN-001$/ },
  { defect: 'auth-expired-token-accepted', files: ['suites/auth'], mustFail: /^AUTH-TOKEN-002$/ },
  // one service only: the other service's check passes, so each check is needed
  { defect: 'auth-sales-expired-token-accepted', files: ['suites/auth'], mustFail: /^AUTH-TOKEN-002$/, mustPass: 'AUTH-TOKEN-001' },
  { defect: 'auth-webhooks-expiry-leeway-hour', files: ['suites/auth'], mustFail: /^AUTH-TOKEN-001$/, mustPass: 'AUTH-TOKEN-002' },
  { defect: 'auth-login-wrong-password-accepted', files: ['suites/auth'], mustFail: /^AUTH-LOGIN-002$/ },
  { defect: 'auth-tenant-header-trusted', files: ['suites/auth'], mustFail: /^AUTH-TENANT-001$/ },
]

describe('auth defects are caught by the suite', () => {
  it('the suites are green against the faithful reference', async () => {
    const run = await runConformance({ files: ['suites/auth', 'suites/security'] })
    expect(run.failedIds, run.output.slice(-3000)).toEqual([])
    expect(run.exitCode).toBe(0)
    expect(run.report?.totals.passed).toBeGreaterThan(150)
  })

  it('a service that accepts a token a few seconds past exp (the expiry-leeway variation) is a deviation, not a failure', async () => {
    const run = await runConformance({ files: ['suites/auth'], env: { TARGET_PROFILE: profile('expiry-leeway', { reference: { expiryLeewaySeconds: 5 } }) } })
    expect(run.failedIds, run.output.slice(-3000)).toEqual([])
    const token = run.report?.checks.filter((c) => c.id.startsWith('AUTH-TOKEN-')) ?? []
    expect(token.map((c) => [c.id, c.status, c.deviations?.map((d) => d.id)])).toEqual([
      ['AUTH-TOKEN-001', 'passed', ['token-expiry-leeway']],
      ['AUTH-TOKEN-002', 'passed', ['token-expiry-leeway']],
    ])
  })

  for (const c of CASES) {
    it(`${c.defect} is caught by ${c.mustFail.source}`, async () => {
      const run = await runConformance({ files: c.files, defects: [c.defect] })
      expect(run.exitCode).not.toBe(0)
      expect(run.failedIds.some((id) => c.mustFail.test(id)), `failed: ${run.failedIds.join(', ')}`).toBe(true)
      if (c.mustPass) expect(run.failedIds).not.toContain(c.mustPass)
    })
  }

  it('a login token that is not a JWT stops the run in preflight as a §5 violation: DOES NOT CONFORM, not "could not run"', async () => {
    const run = await runConformance({ files: ['suites/auth'], defects: ['auth-login-token-not-jwt'] })
    expect(run.exitCode).not.toBe(0)
    expect(run.output).toMatch(/sales-service\.md §5 violated at login: .*not a usable JWT/)
    expect(run.verdict).toMatchObject({ verdict: 'DOES NOT CONFORM', exitCode: 1 })
  })
})
