import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../../../common/project-root'
import { DEMO_PASSWORD } from '../../../../reference/demo-data'
import { startReference } from '../../../../reference/server'
import type { ChecksReport } from '../../../../runner/run/results/results'

// two files: each of the two shards gets one
const FILES = ['suites/auth', 'suites/security']

/** The installed CLI's command as a CI job runs it (async: the reference answers from this process). */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const e: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', ...env }
  for (const k of [
    'SALES_BASE_URL',
    'AUTH_URL',
    'WEBHOOK_BASE_URL',
    'TARGET',
    'TARGET_IMAGE',
    'REFERENCE_DEFECTS',
    'TARGET_PROFILE',
    'TARGET_PROFILES',
    'REPORTS_DIR',
  ])
    if (!(k in env)) delete e[k]
  const child = spawn(process.execPath, [resolve(PROJECT_ROOT, 'bin/ledger-conformance.mjs'), ...args], {
    cwd: PROJECT_ROOT,
    env: e,
  })
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr.on('data', (d: Buffer) => (out += d.toString()))
  return new Promise((done) => child.on('close', (code) => done({ code, out })))
}

describe('ledger-conformance run --shard and merge: a shard that could not test', () => {
  it('fails its own job; the merge is INCONCLUSIVE with its cause; a killed shard (no blob) too; a missing shard is ' +
    'refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lc-shard-stop-'))
    // one target for both shards: down while shard 1 runs, up for shard 2 (same URL, so the merge takes them as one
    // run)
    const probe = await startReference({ port: 0 })
    const port = new URL(probe.url).port
    await probe.close()
    const url = `http://127.0.0.1:${port}`
    const target = {
      SALES_BASE_URL: url,
      AUTH_URL: `${url}/api/v1/identifier`,
      WEBHOOK_BASE_URL: url,
      TENANT: 'acme',
      AUTH_USERNAME: 'broker@acme.test',
      AUTH_PASSWORD: DEMO_PASSWORD,
      CONFORMANCE_RUN_ID: 'nightly-proof',
      CONFORMANCE_SEED: '3',
    }
    try {
      const bad = await cli(['run', '--shard', '1/2', '--reports', join(dir, 's1'), ...FILES], target)
      expect(bad.code, bad.out.slice(-2000)).toBe(3)
      expect(bad.out).toMatch(/Target unreachable/)
      const ref = await startReference({ port: Number(port) })
      let good
      try {
        good = await cli(['run', '--shard', '2/2', '--reports', join(dir, 's2'), ...FILES], target)
      } finally {
        await ref.close()
      }
      expect(good.code, good.out.slice(-2000)).toBe(0)
      expect(good.out).toMatch(/verdict\s+CONFORMS \(partial: \d+ of \d+ checks; vitest shard 2\/2/)

      const merged = await cli(['merge', '--reports', join(dir, 'merged'), join(dir, 's1'), join(dir, 's2')], {})
      expect(merged.code, merged.out.slice(-3000)).toBe(3)
      expect(merged.out).toMatch(/verdict\s+INCONCLUSIVE \(shard 1\/2 could not run: Target unreachable/)
      const checks = JSON.parse(readFileSync(join(dir, 'merged', 'checks.json'), 'utf8')) as ChecksReport
      expect(checks).toMatchObject({ verdict: 'INCONCLUSIVE', exitCode: 3, run: { runId: 'nightly-proof' } })
      expect(checks.checks.length).toBeGreaterThan(0)
      expect(readFileSync(join(dir, 'merged', 'conformance.md'), 'utf8')).toMatch(
        /^# Conformance matrix — INCONCLUSIVE/,
      )

      // a shard killed before its blob was written (shard.json only): its cause, INCONCLUSIVE
      cpSync(join(dir, 's2', 'shard.json'), join(dir, 'killed', 'shard.json'))
      const info = JSON.parse(readFileSync(join(dir, 'killed', 'shard.json'), 'utf8')) as { index: number }
      writeFileSync(join(dir, 'killed', 'shard.json'), JSON.stringify({ ...info, index: 1 }))
      const killed = await cli(['merge', '--reports', join(dir, 'merged2'), join(dir, 'killed'), join(dir, 's2')], {})
      expect(killed.code, killed.out.slice(-3000)).toBe(3)
      expect(killed.out).toMatch(/verdict\s+INCONCLUSIVE \(shard 1\/2 could not run: it wrote no blob report/)

      // a shard not given at all: refused, nothing written
      const missing = await cli(['merge', '--reports', join(dir, 'merged3'), join(dir, 's2')], {})
      expect(missing.code, missing.out).toBe(2)
      expect(missing.out).toContain('shard 1/2 is missing')
      expect(existsSync(join(dir, 'merged3'))).toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 240_000)
})
