import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { RUN_LABEL } from '../../runner/run/container/start-target'
import { REFERENCE_IMAGE } from '../../runner/run/container/target-env'
import { runConformance } from '../../scripts/harness/run-conformance'
import { requireContainerRuntime } from './require-runtime'

const ENV = { TARGET: 'container', TESTCONTAINERS_RYUK_DISABLED: 'true' }

function leftovers(runId: string): string[] {
  return execFileSync('docker', ['ps', '-aq', '--filter', `label=${RUN_LABEL}=${runId}`], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
}

/** TARGET=container: the global setup starts the reference image, runs against its mapped port, and removes it. */
describe('container target', () => {
  it('the auth suite is green against the reference image, and the container is removed afterwards', async (ctx) => {
    await requireContainerRuntime(ctx, REFERENCE_IMAGE)
    const runId = `ct-green-${process.pid}`
    const run = await runConformance({ files: ['suites/auth'], env: { ...ENV, CONFORMANCE_RUN_ID: runId } })
    expect(run.failedIds, run.output.slice(-3000)).toEqual([])
    expect(run.exitCode).toBe(0)
    expect(run.report?.totals.passed).toBeGreaterThan(3)
    // the run went to the container's mapped port (on the host testcontainers reports: localhost, or the
    // docker bridge gateway), not to an in-process reference
    expect(run.report?.run?.salesBaseUrl).toMatch(/^http:\/\/[^/]+:\d+$/)
    expect(run.report?.run?.embedded).toBe(false)
    expect((run.report?.run as { container?: { image: string } } | undefined)?.container?.image).toBe(REFERENCE_IMAGE)
    expect(leftovers(runId)).toEqual([])
  })

  it('a defect switched on in the container is caught by the matching check', async (ctx) => {
    await requireContainerRuntime(ctx, REFERENCE_IMAGE)
    const runId = `ct-defect-${process.pid}`
    const run = await runConformance({
      files: ['suites/auth'],
      defects: ['auth-login-wrong-password-accepted'],
      env: { ...ENV, CONFORMANCE_RUN_ID: runId },
    })
    expect(run.exitCode).not.toBe(0)
    expect(run.failedIds).toContain('AUTH-LOGIN-002')
    expect(leftovers(runId)).toEqual([])
  })

  it('an image that does not exist stops the run with one message naming it', async (ctx) => {
    await requireContainerRuntime(ctx)
    const run = await runConformance({
      files: ['suites/auth'],
      env: { ...ENV, TARGET_IMAGE: 'ledger-conformance/no-such-image:none', TARGET: '' },
    })
    expect(run.exitCode).not.toBe(0)
    expect(run.output).toContain('Target container: ledger-conformance/no-such-image:none')
  })
})
