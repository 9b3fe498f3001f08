import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTraffic } from '../../runner/run/results/results'
import { parseChaos } from '../../reference/chaos/spec'
import type { ReferenceStats } from '../../reference/chaos/stats'
import { startReference, type RunningReference } from '../../reference/server'
import { compareSideEffects, type SideEffectComparison } from '../../scripts/chaos/side-effects'
import { runConformance, type ConformanceRun } from '../../scripts/harness/run-conformance'

describe(
  'under chaos (heavy 503s, resets and latency on idempotent requests), a run stays green with no duplicate ' +
    'side effect',
  () => {
    let ref: RunningReference
    let run: ConformanceRun
    let cmp: SideEffectComparison
    let s: ReferenceStats
    beforeAll(async () => {
      ref = await startReference({ chaos: parseChaos('503=0.15,reset=0.05,latency=0-20,seed=5') })
      run = await runConformance({
        files: ['suites/webhooks', 'suites/auth'],
        env: { SALES_BASE_URL: ref.url, AUTH_URL: `${ref.url}/api/v1/identifier`, WEBHOOK_BASE_URL: ref.url },
        keepReports: true,
      })
      s = (await (await fetch(`${ref.url}/__reference/stats`)).json()) as ReferenceStats
      cmp = compareSideEffects(readTraffic(join(run.reportsDir, 'traffic'), run.report?.run?.runId), s)
    }, 240_000)
    afterAll(async () => {
      await ref?.close()
      if (run) rmSync(run.reportsDir, { recursive: true, force: true })
    })

    it('is green', () => {
      expect(run.failedIds, run.output.slice(-3000)).toEqual([])
      expect(run.exitCode).toBe(0)
    })

    it('faults were injected and retried, each retry recorded with its attempt', () => {
      expect((s.chaos?.injected['503'] ?? 0) + (s.chaos?.injected.reset ?? 0)).toBeGreaterThan(0)
      expect(Object.values(cmp.retries).reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
    })

    it('the service holds exactly what the suite created, and no POST was sent twice', () => {
      expect(cmp.entities.find((e) => e.kind === 'subscriptions')?.service).toBeGreaterThan(0)
      expect(cmp.mismatches).toEqual([])
      expect(cmp.postRetries).toBe(0)
    })
  },
)
