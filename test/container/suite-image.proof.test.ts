import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { imagePresent } from '../../runner/run/container/runtime'
import { REFERENCE_IMAGE } from '../../runner/run/container/target-env'
import { requireContainerRuntime } from './require-runtime'

// The suite image (Dockerfile.suite, scripts/build-suite-image.sh) against the reference image, the two containers
// on one docker network, as a team runs it: docker run --rm -v "$PWD:/data" ledger-conformance/suite:local run
// --profile /data/staging.jsonc; reports in /data/reports.
const SUITE_IMAGE = process.env.SUITE_IMAGE ?? 'ledger-conformance/suite:local'
const id = `lc-suite-${process.pid}`
const data = mkdtempSync(join(tmpdir(), 'lc-suite-image-'))
chmodSync(data, 0o777)
const docker = (args: string[]) => spawnSync('docker', args, { encoding: 'utf8', timeout: 300_000 })

/**
 * The suite image must be built (bash scripts/build-suite-image.sh); like the other container tests, a skip fails in
 * CI.
 */
async function requireSuiteImage(ctx: Parameters<typeof requireContainerRuntime>[0]): Promise<void> {
  if (await imagePresent(SUITE_IMAGE)) return
  const reason = `image ${SUITE_IMAGE} is not built (bash scripts/build-suite-image.sh)`
  if (process.env.CI === 'true') throw new Error(`container test cannot run in CI: ${reason}`)
  console.warn(`container test skipped: ${reason}`)
  ctx.skip(reason)
}

afterAll(() => {
  docker(['rm', '-f', `${id}-ref`])
  docker(['network', 'rm', `${id}-net`])
  rmSync(data, { recursive: true, force: true })
})

describe('the suite image', () => {
  it('docker run ... suite:local --help prints the commands and the exit codes', async (ctx) => {
    await requireContainerRuntime(ctx)
    await requireSuiteImage(ctx)
    const r = docker(['run', '--rm', SUITE_IMAGE, '--help'])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/Exit codes:\n {2}0 {2}CONFORMS/)
  })

  it(
    'runs against the reference container on one network, with the profile and the reports in the mounted ' + 'folder',
    async (ctx) => {
      await requireContainerRuntime(ctx, REFERENCE_IMAGE)
      await requireSuiteImage(ctx)
      execFileSync('docker', ['network', 'create', `${id}-net`])
      execFileSync('docker', ['run', '-d', '--rm', '--name', `${id}-ref`, '--network', `${id}-net`, REFERENCE_IMAGE])
      const ref = `http://${id}-ref:4010`
      writeFileSync(
        join(data, 'staging.jsonc'),
        `// the reference container, reached by its name on the network
{ "name": "reference-container", "nonProduction": true, "tenant": "acme",
  "services": { "salesBaseUrl": "${ref}", "authUrl": "${ref}/api/v1/identifier", "webhookBaseUrl": "${ref}" },
  "credentials": { "username": "broker@acme.test", "passwordEnv": "AUTH_PASSWORD" } }
`,
      )
      const r = docker([
        'run',
        '--rm',
        '--network',
        `${id}-net`,
        '-e',
        'AUTH_PASSWORD=demo-pass-4821',
        '-v',
        `${data}:/data`,
        SUITE_IMAGE,
        'run',
        '--profile',
        '/data/staging.jsonc',
        'suites/auth',
        'suites/webhooks',
      ])
      expect(r.status, (r.stdout + r.stderr).slice(-3000)).toBe(0)
      expect(r.stdout).toMatch(/verdict {2}CONFORMS/)
      const verdict = JSON.parse(readFileSync(join(data, 'reports', 'verdict.json'), 'utf8')) as { verdict: string }
      expect(verdict.verdict).toBe('CONFORMS')
      expect(existsSync(join(data, 'reports', 'junit.xml'))).toBe(true)
    },
  )
})
