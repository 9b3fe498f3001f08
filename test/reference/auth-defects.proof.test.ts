import { describe, expect, it } from 'vitest'
import { runConformance } from '../../scripts/harness/run-conformance'

/** The auth and security suites catch each auth defect of the reference service, with the right check. */
const CASES: { defect: string; files: string[]; mustFail: RegExp }[] = [
  { defect: 'auth-token-not-required', files: ['suites/security'], mustFail: /^SEC-NOTOKEN-sales\./ },
  { defect: 'auth-webhook-token-not-required', files: ['suites/security'], mustFail: /^SEC-NOTOKEN-webhooks\./ },
  { defect: 'auth-foreign-signature-accepted', files: ['suites/security'], mustFail: /^SEC-FOREIGN-/ },
  { defect: 'auth-expired-token-accepted', files: ['suites/auth'], mustFail: /^AUTH-TOKEN-001$/ },
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

  for (const c of CASES) {
    it(`${c.defect} is caught`, async () => {
      const run = await runConformance({ files: c.files, defects: [c.defect] })
      expect(run.exitCode).not.toBe(0)
      expect(run.failedIds.some((id) => c.mustFail.test(id)), `failed: ${run.failedIds.join(', ')}`).toBe(true)
    })
  }

  it('a login token that is not a JWT stops the run in preflight with a clear message', async () => {
    const run = await runConformance({ files: ['suites/auth'], defects: ['auth-login-token-not-jwt'] })
    expect(run.exitCode).not.toBe(0)
    expect(run.output).toMatch(/Login failed: .*no usable JWT access token/)
  })
})
