import { rmSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { runConformance, type ConformanceRun } from '../../scripts/harness/run-conformance'
import { canaryHits } from './canaries'
import { CANARY_PASSWORD, startHostileTarget, type ScenarioName } from '../../scripts/hostile/server'

/**
 * Issue 37, item 6: a target whose answers carry a large unknown header. An answer standard clients still read (one
 * header of 70 KB: over Node's 16 KiB, under curl's and the browsers' limits) is read and judged, with the deviation
 * `answer-headers`; an answer none can read (a header of 1 MB) is ONE finding naming the request, not one per check.
 */
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

async function hostileRun(scenario: ScenarioName, files: string[]): Promise<ConformanceRun> {
  const target = await startHostileTarget(scenario)
  try {
    const run = await runConformance({
      files,
      env: {
        SALES_BASE_URL: target.url,
        AUTH_URL: `${target.url}/api/v1/identifier`,
        WEBHOOK_BASE_URL: target.url,
        AUTH_PASSWORD: CANARY_PASSWORD,
      },
      keepReports: true,
      timeoutMs: 120_000,
    })
    dirs.push(run.reportsDir)
    expect(canaryHits(run.reportsDir, run.output, target.canaries)).toEqual([])
    return run
  } finally {
    await target.close()
  }
}

const lines = (run: ConformanceRun) => run.output.split('\n').filter((l) => l.trim() !== '')

describe('hostile target: a large unknown header', () => {
  it(
    '70 KB on every answer: read and judged (CONFORMS), with the deviation answer-headers, one console line per ' +
      'operation',
    async () => {
      const run = await hostileRun('large-header', ['suites/sales/schemes.test.ts', 'suites/webhooks/errors.test.ts'])
      const checks = run.report?.checks ?? []
      expect(
        checks.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => `${c.id}: ${c.error}`),
      ).toEqual([])
      expect(run.verdict?.verdict, run.output).toBe('CONFORMS')
      const deviations = checks.flatMap((c) => c.deviations).filter((d) => d.id.startsWith('answer-headers:'))
      expect(deviations.length).toBeGreaterThan(0)
      for (const d of deviations) {
        expect(d.policy).toBe('warn')
        expect(d.message).toMatch(
          /has a header section of 7\d{4} bytes, over the 16384 bytes Node's HTTP client reads by default; read \(up to 262144 bytes/,
        )
      }
      // one console line per deviation id (an operation), not one per check that met it
      const ids = new Set(deviations.map((d) => d.id))
      expect(lines(run).filter((l) => l.startsWith('  DEVIATION answer-headers:'))).toHaveLength(ids.size)
    },
  )

  it('1 MB on the webhook event lists: one finding naming the request (the breaker), not one per check', async () => {
    const run = await hostileRun('header-overflow', [
      'suites/webhooks/events.test.ts',
      'suites/webhooks/errors.test.ts',
    ])
    const cause =
      /the target at http:\/\/127\.0\.0\.1:\d+ answered GET http:\/\/127\.0\.0\.1:\d+\/api\/webhook\/events\S* \(webhooks\.events\.list\) with an answer no client can read \(its header section is over 262144 bytes, more than curl or a browser reads\)/
    expect(run.verdict?.verdict, run.output).toBe('INCONCLUSIVE')
    expect(run.verdict?.exitCode).toBe(3)
    expect(run.verdict?.cause).toMatch(cause)
    const checks = run.report?.checks ?? []
    const errored = checks.filter((c) => c.status === 'errored')
    const blocked = checks.filter((c) => c.status === 'blocked' && cause.test(c.blocked?.reason ?? ''))
    // the checks whose request met it at once error (each naming the request); every later one is blocked by it
    expect(errored.length).toBeGreaterThan(0)
    expect(errored.length, errored.map((c) => c.id).join(', ')).toBeLessThan(blocked.length)
    for (const c of errored)
      expect(c.failure?.error ?? '', c.id).toMatch(
        /GET http:\/\/127\.0\.0\.1:\d+\/api\/webhook\/events\S* .*header section is over 262144 bytes/,
      )
    // the console: the blocked checks in one line with the cause, one line per errored check
    expect(lines(run).filter((l) => l.startsWith('  BLOCKED ') && cause.test(l))).toHaveLength(1)
    expect(lines(run).filter((l) => l.startsWith('  ERRORED '))).toHaveLength(errored.length)
  })
})
