import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../helpers/client/config/target-config'
import type { ChecksReport } from '../../runner/reporting/results'

// two files: each of the two shards gets one
const FILES = ['suites/auth', 'suites/security']

function sharded(args: string[], env: Record<string, string>) {
  const e: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', ...env }
  for (const k of ['SALES_BASE_URL', 'TARGET', 'TARGET_IMAGE', 'REFERENCE_DEFECTS', 'TARGET_PROFILE', 'TARGET_PROFILES']) if (!(k in env)) delete e[k]
  const res = spawnSync(process.execPath, [resolve(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/sharded.ts', ...args], { cwd: PROJECT_ROOT, env: e, encoding: 'utf8', timeout: 170_000 })
  return { code: res.status, out: `${res.stdout}${res.stderr}` }
}

describe('npm run conformance:sharded: a shard that could not run', () => {
  it('fails its own job, and the merged report is INCONCLUSIVE with the shard\'s cause in the summary', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lc-shard-stop-'))
    try {
      const common = { REPORTS_DIR: dir, CONFORMANCE_RUN_ID: 'nightly-proof', CONFORMANCE_SEED: '3' }
      const bad = sharded(['--shards', '2', '--only', '1', ...FILES], { ...common, SALES_BASE_URL: 'http://127.0.0.1:1' })
      expect(bad.code, bad.out.slice(-2000)).toBe(3)
      expect(bad.out).toMatch(/shard 1\/2 could not run: Target unreachable/)
      const good = sharded(['--shards', '2', '--only', '2', ...FILES], common)
      expect(good.code, good.out.slice(-2000)).toBe(0)
      const merged = sharded(['--shards', '2', '--merge-only'], { REPORTS_DIR: dir })
      expect(merged.code, merged.out.slice(-3000)).toBe(3)
      expect(merged.out).toMatch(/verdict\s+INCONCLUSIVE \(shard 1\/2 could not run: Target unreachable/)
      const checks = JSON.parse(readFileSync(join(dir, 'checks.json'), 'utf8')) as ChecksReport
      expect(checks).toMatchObject({ verdict: 'INCONCLUSIVE', exitCode: 3, run: { runId: 'nightly-proof' } })
      expect(checks.checks.length).toBeGreaterThan(0)
      expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toMatch(/^# Conformance matrix — INCONCLUSIVE/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 240_000)

  it('with no shard report at all, the merge still writes this run\'s INCONCLUSIVE reports and exits 3', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lc-shard-none-'))
    try {
      const merged = sharded(['--shards', '2', '--merge-only'], { REPORTS_DIR: dir, CONFORMANCE_RUN_ID: 'nightly-none' })
      expect(merged.code, merged.out).toBe(3)
      const v = JSON.parse(readFileSync(join(dir, 'verdict.json'), 'utf8')) as { runId: string; verdict: string; cause: string }
      expect(v).toMatchObject({ runId: 'nightly-none', verdict: 'INCONCLUSIVE' })
      expect(v.cause).toMatch(/shard 1\/2 could not run: it wrote no blob report/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
