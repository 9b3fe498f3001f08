import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { acceptanceVerdict, knownFeatures, type AcceptanceReport } from '../../runner/commands/acceptance/verdict'

const work = mkdtempSync(join(tmpdir(), 'lc-acceptance-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The reference profile for a tenant without the customer_identity feature. */
function tenantProfile(): string {
  const p = JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'fixtures/targets/reference.json'), 'utf8')) as Record<
    string,
    unknown
  > & { features: Record<string, unknown> }
  delete p.$schema
  delete p.features.customer_identity
  p.name = 'tenant-without-customer-identity'
  const file = join(work, 'tenant.json')
  writeFileSync(file, JSON.stringify(p, null, 2))
  return file
}

function acceptance(reports: string, env: Record<string, string>, ...args: string[]) {
  const e: NodeJS.ProcessEnv = { ...process.env, REPORTS_DIR: reports, FORCE_COLOR: '0', ...env }
  for (const k of ['SALES_BASE_URL', 'TARGET', 'TARGET_IMAGE', 'TARGET_PROFILE', 'TENANT', 'AUTH_PASSWORD'])
    if (!(k in env)) delete e[k]
  if (!('REFERENCE_DEFECTS' in env)) delete e.REFERENCE_DEFECTS
  const r = spawnSync(process.execPath, [resolve(PROJECT_ROOT, 'bin/ledger-conformance.mjs'), 'acceptance', ...args], {
    cwd: PROJECT_ROOT,
    env: e,
    encoding: 'utf8',
    timeout: 170_000,
  })
  const report = JSON.parse(readFileSync(join(reports, 'acceptance.json'), 'utf8')) as AcceptanceReport
  return { ...r, report }
}

const SUITES = '--suites=suites/auth,suites/policies/customer-view.test.ts'

describe('npm run acceptance', () => {
  it(
    'ACCEPTED for a conforming target; checks of a feature the tenant lacks are not applicable, with the ' + 'reason',
    () => {
      const r = acceptance(join(work, 'ok'), {}, '--profile', tenantProfile(), SUITES, '--allow-reference')
      expect(r.status, r.stdout.slice(-3000)).toBe(0)
      expect(r.stdout).toContain(
        'ACCEPTED (embedded reference, not a tenant deployment)  tenant acme  profile tenant-without-customer-identity',
      )
      expect(r.report).toMatchObject({
        label: 'ACCEPTED (embedded reference, not a tenant deployment)',
        embeddedReference: true,
      })
      expect(r.report.verdict).toBe('ACCEPTED')
      expect(r.report.features.absent).toContain('customer_identity')
      expect(r.report.features.present).toContain('referral')
      const na = r.report.notApplicable.find((n) => n.reason.includes('customer_identity'))
      expect(na?.checks.length).toBeGreaterThan(0)
      expect(na?.checks.every((id) => id.startsWith('PL-CUST-'))).toBe(true)
      expect(r.report.totals?.passed).toBeGreaterThan(0)
      expect(r.report.conformance).toMatchObject({ verdict: 'CONFORMS', exitCode: 0 })
    },
  )

  it(
    'a tenant profile that resolves to the embedded reference is refused, exit 2, naming it; nothing is ' + 'started',
    () => {
      const r = acceptance(
        join(work, 'reference'),
        {},
        '--profile',
        resolve(PROJECT_ROOT, 'fixtures/targets/tenants/acme.json'),
      )
      expect(r.status, r.stderr).toBe(2)
      expect(r.stderr).toMatch(
        /resolves to the embedded reference service, not a tenant's deployment: it names no services\.salesBaseUrl/,
      )
      expect(r.stderr).toContain('exit 2')
      expect(r.stdout).not.toContain('RUN')
      expect(r.report).toMatchObject({ verdict: 'REJECTED', exitCode: 2, conformance: { exitCode: 2 } })
      expect(r.report.reasons[0]).toMatch(/embedded reference/)
    },
  )

  it(
    "strict by default: without a second tenant's user, tenant isolation is untested and the acceptance " +
      'INCONCLUSIVE (exit 3), naming users.otherTenant',
    () => {
      const p = JSON.parse(readFileSync(tenantProfile(), 'utf8')) as { users: Record<string, unknown>; name: string }
      delete p.users.otherTenant
      p.name = 'tenant-without-other-tenant'
      const file = join(work, 'no-other.json')
      writeFileSync(file, JSON.stringify(p))
      const r = acceptance(join(work, 'strict'), {}, '--profile', file, '--suites=suites/auth', '--allow-reference')
      expect(r.status, r.stdout.slice(-3000)).toBe(3)
      expect(r.report.conformance.label).toMatch(
        /INCONCLUSIVE \(--strict: \d+ requirement\(s\) untested: .*REQ-SALES-5-ISOLATION/,
      )
      expect(r.report.untested).toContainEqual(
        expect.objectContaining({
          id: 'REQ-SALES-5-ISOLATION',
          enable: [expect.stringContaining('users.otherTenant')],
        }),
      )
      expect(r.stdout).toMatch(/UNTESTED REQ-SALES-5-ISOLATION sales-service\.md §5: .*users\.otherTenant/)
    },
  )

  it(
    "a run that could not test is REJECTED and INCONCLUSIVE (exit 3), with this run's id and target, never an " +
      "earlier one's",
    () => {
      const dir = join(work, 'stale')
      acceptance(dir, {}, '--profile', tenantProfile(), '--suites=suites/auth', '--allow-reference')
      const earlier = JSON.parse(readFileSync(join(dir, 'acceptance.json'), 'utf8')) as AcceptanceReport
      const r = acceptance(
        dir,
        { SALES_BASE_URL: 'http://127.0.0.1:1', CONFORMANCE_RUN_ID: 'acceptance-now' },
        '--profile',
        tenantProfile(),
        '--suites=suites/auth',
      )
      expect(r.status, r.stdout.slice(-2000)).toBe(3)
      expect(r.report).toMatchObject({
        verdict: 'REJECTED',
        exitCode: 3,
        runId: 'acceptance-now',
        target: 'http://127.0.0.1:1',
        conformance: { verdict: 'INCONCLUSIVE', exitCode: 3 },
      })
      expect(r.report.runId).not.toBe(earlier.runId)
      expect(r.report.conformance.cause).toMatch(/unreachable/)
    },
  )

  it('REJECTED with the failed requirement and its evidence when the target breaks one', () => {
    const r = acceptance(
      join(work, 'bad'),
      { REFERENCE_DEFECTS: 'auth-login-wrong-password-accepted' },
      '--profile',
      tenantProfile(),
      '--suites=suites/auth',
      '--allow-reference',
    )
    expect(r.status).toBe(1)
    expect(r.stdout).toContain('REJECTED')
    expect(r.report.conformance.verdict).toBe('DOES NOT CONFORM')
    // one line per failed check: the run's FAILED line with its finding, and the acceptance summary names its id only
    expect(r.stdout.match(/FAILED AUTH-LOGIN-002 sales-service\.md §5: /g)).toHaveLength(1)
    expect(r.stdout).toMatch(/failed checks \(1\): AUTH-LOGIN-002 \(findings above; evidence in acceptance\.json\)/)
    const f = r.report.failed.find((x) => x.id === 'AUTH-LOGIN-002')
    expect(f?.evidence).toMatch(/expected/)
    // the profile's password never reaches the verdict
    expect(JSON.stringify(r.report)).not.toContain('demo-pass-4821')
  })
})

describe('acceptanceVerdict', () => {
  it('REJECTED with the reason when the run stopped before any check', () => {
    const v = acceptanceVerdict({
      profile: { name: 'p', path: '/p.json', tenant: 't' },
      features: knownFeatures({ referral: false }),
      suites: ['suites/auth'],
      exitCode: 1,
      checks: undefined,
      output: 'RUN v4\nError: Login failed: POST /login/t answered 401\n',
    })
    expect(v.verdict).toBe('REJECTED')
    expect(v.reasons[0]).toContain('Login failed: POST /login/t answered 401')
    expect(v.features.absent).toContain('referral')
  })
})
