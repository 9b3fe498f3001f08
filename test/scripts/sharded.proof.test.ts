import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import type { ChecksReport } from '../../runner/run/results/results'
import { runConformance } from '../../scripts/harness/run-conformance'

const FILES = ['suites/auth', 'suites/security']

function junitTests(dir: string): number {
  const m = /<testsuites[^>]*\btests="(\d+)"/.exec(readFileSync(join(dir, 'junit.xml'), 'utf8'))
  return Number(m?.[1])
}

function outcomes(r: ChecksReport): string[] {
  return r.checks.map((c) => `${c.id}=${c.status}`).sort()
}

describe('npm run conformance:sharded', () => {
  it(
    'two shards merged give the same checks, totals, JUnit count and measured traffic as one unsharded ' + 'run',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'lc-sharded-'))
      const single = await runConformance({ files: FILES, env: { CONFORMANCE_SEED: '7' }, keepReports: true })
      try {
        const env: NodeJS.ProcessEnv = { ...process.env, REPORTS_DIR: dir, CONFORMANCE_SEED: '7', FORCE_COLOR: '0' }
        for (const k of ['SALES_BASE_URL', 'TARGET', 'TARGET_IMAGE', 'REFERENCE_DEFECTS', 'CONFORMANCE_RUN_ID'])
          delete env[k]
        const tsx = resolve(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs')
        const res = spawnSync(process.execPath, [tsx, 'scripts/sharded.ts', '--shards', '2', ...FILES], {
          cwd: PROJECT_ROOT,
          env,
          encoding: 'utf8',
          timeout: 170_000,
        })
        expect(res.status, (res.stdout + res.stderr).slice(-3000)).toBe(0)
        // both shards ran something: a shard with no file would prove nothing about merging
        expect(res.stdout).toMatch(/shard 1\/2: exit 0/)
        expect(res.stdout).toMatch(/shard 2\/2: exit 0/)
        // each shard left its own folder, as a CI job's artifact: its blob and shard.json
        expect(readdirSync(join(dir, 'shards', 'shard-1'))).toEqual(
          expect.arrayContaining(['blob-1-2.json', 'shard.json']),
        )
        expect(readdirSync(join(dir, 'shards', 'shard-2'))).toEqual(
          expect.arrayContaining(['blob-2-2.json', 'shard.json']),
        )

        const merged = JSON.parse(readFileSync(join(dir, 'checks.json'), 'utf8')) as ChecksReport
        const one = single.report!
        expect(merged.totals).toEqual(one.totals)
        expect(outcomes(merged)).toEqual(outcomes(one))
        expect(junitTests(dir)).toBe(junitTests(single.reportsDir))
        expect(merged.operations.map((o) => [o.id, o.calls, o.checks.join(',')])).toEqual(
          one.operations.map((o) => [o.id, o.calls, o.checks.join(',')]),
        )
        const allure = readdirSync(join(dir, 'allure-results')).filter((f) => f.endsWith('-result.json'))
        expect(allure).toHaveLength(one.checks.length)
        expect(existsSync(join(dir, 'conformance.md'))).toBe(true)
        expect(res.stdout).toContain(`conformance: ${one.totals.passed} passed, ${one.totals.failed} failed`)
      } finally {
        rmSync(dir, { recursive: true, force: true })
        rmSync(single.reportsDir, { recursive: true, force: true })
      }
    },
  )
})
