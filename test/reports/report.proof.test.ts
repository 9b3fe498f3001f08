import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../helpers/config'
import { runConformance } from '../../scripts/harness/run-conformance'
import { browserUnavailable } from '../../scripts/report/browser-check'

function report(reportsDir: string, ...args: string[]) {
  const tsx = resolve(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs')
  const env: NodeJS.ProcessEnv = { ...process.env, REPORTS_DIR: reportsDir, FORCE_COLOR: '0' }
  delete env.ALLURE_HISTORY
  return spawnSync(process.execPath, [tsx, 'scripts/report.ts', ...args], { cwd: PROJECT_ROOT, env, encoding: 'utf8', timeout: 120_000 })
}

describe('npm run report', () => {
  it('builds the Allure report of the last run, with history, that headless Chromium loads without console errors', async (ctx) => {
    const why = browserUnavailable()
    if (why) {
      if (process.env.CI === 'true') throw new Error(`browser test cannot run in CI: ${why}`)
      console.warn(`browser test skipped: ${why}`)
      ctx.skip(`skipped: ${why}`)
    }
    const run = await runConformance({ files: ['suites/auth'], keepReports: true })
    const dir = run.reportsDir
    try {
      expect(run.exitCode, run.output.slice(-2000)).toBe(0)
      const first = report(dir, '--check')
      expect(first.status, first.stdout + first.stderr).toBe(0)
      const total = run.report!.checks.length
      // the Allure results are checks.json's entries: the suite's checks (passed) and the model's invariants, which
      // a run of suites/auth gives nothing to judge (not applicable, skipped in Allure)
      const t = run.report!.totals
      const skipped = t.skipped + t['not-applicable'] + t.blocked
      expect(t.passed + skipped).toBe(total)
      expect(first.stdout).toContain(`total ${total}: ${t.passed} passed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`)
      expect(first.stdout.match(/browser OK /g)).toHaveLength(2)
      expect(existsSync(join(dir, 'allure-report', 'index.html'))).toBe(true)
      expect(readFileSync(join(dir, 'allure-report', 'index.html'), 'utf8')).not.toContain('googletagmanager')
      expect(existsSync(join(dir, 'allure-report.png'))).toBe(true)
      expect(existsSync(join(dir, 'conformance.png'))).toBe(true)
      // a second report appends to the same history file: that is what the trends are built from
      const second = report(dir)
      expect(second.status, second.stderr).toBe(0)
      const history = readFileSync(join(dir, 'history', 'allure-history.jsonl'), 'utf8').trim().split('\n')
      expect(history).toHaveLength(2)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
