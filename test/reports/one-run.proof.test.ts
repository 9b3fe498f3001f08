import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { runConformance } from '../../scripts/harness/run-conformance'

function report(reportsDir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, REPORTS_DIR: reportsDir, FORCE_COLOR: '0' }
  delete env.ALLURE_HISTORY
  return spawnSync(process.execPath, [resolve(PROJECT_ROOT, 'bin/ledger-conformance.mjs'), 'report'], {
    cwd: PROJECT_ROOT,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  })
}

const historyLines = (dir: string) =>
  readFileSync(join(dir, 'history', 'allure-history.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)

/**
 * A run's reports are one run (issue #37, item 5), end to end: an acceptance.json and an HTML report of an earlier
 * run do not survive the next run, and `report` made twice of one run leaves one line of it in the history.
 */
describe("a run's reports are one run", () => {
  it('report twice: one line of the run in the history; the next run removes the HTML report and acceptance.json; ' +
    'its report adds one line', async () => {
    const files = ['suites/auth/login.test.ts']
    const first = await runConformance({ files, keepReports: true })
    const dir = first.reportsDir
    try {
      expect(first.verdict?.exitCode, first.output.slice(-2000)).toBe(0)
      for (let i = 0; i < 2; i += 1) {
        const r = report(dir)
        expect(r.status, r.stdout + r.stderr).toBe(0)
      }
      expect(historyLines(dir)).toHaveLength(1)
      expect(existsSync(join(dir, 'allure-report', 'summary.json'))).toBe(true)
      // an earlier acceptance of this folder said REJECTED
      writeFileSync(join(dir, 'acceptance.json'), JSON.stringify({ runId: 'run-earlier', label: 'REJECTED' }))

      const second = await runConformance({ files, reportsDir: dir, keepReports: true })
      expect(second.verdict?.exitCode, second.output.slice(-2000)).toBe(0)
      expect(existsSync(join(dir, 'acceptance.json')), 'the earlier acceptance.json').toBe(false)
      expect(existsSync(join(dir, 'allure-report')), 'the HTML report of the earlier run').toBe(false)
      const r = report(dir)
      expect(r.status, r.stdout + r.stderr).toBe(0)
      expect(historyLines(dir)).toHaveLength(2)
      // the HTML report is the second run's
      expect(r.stdout).toContain(`of run ${second.report!.run!.runId}`)
      expect(second.report!.run!.runId).not.toBe(first.report!.run!.runId)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 300_000)
})
