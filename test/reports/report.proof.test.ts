import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { runConformance } from '../../scripts/harness/run-conformance'
import { browserUnavailable, checkPages } from '../../runner/commands/report/browser-check'
import { replay } from '../../runner/commands/replay/index'
import { startReference } from '../../reference/server'

function report(reportsDir: string, ...args: string[]) {
  return reportWith({}, reportsDir, ...args)
}

function reportWith(extra: NodeJS.ProcessEnv, reportsDir: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, REPORTS_DIR: reportsDir, FORCE_COLOR: '0', ...extra }
  delete env.ALLURE_HISTORY
  return spawnSync(process.execPath, [resolve(PROJECT_ROOT, 'bin/ledger-conformance.mjs'), 'report', ...args], {
    cwd: PROJECT_ROOT,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  })
}

describe('npm run report', () => {
  it(
    'builds the Allure report of the last run, with history, that headless Chromium loads without console ' + 'errors',
    async (ctx) => {
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
        expect(first.stdout).toContain(
          `total ${total}: ${t.passed} passed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`,
        )
        expect(first.stdout.match(/browser OK /g)).toHaveLength(2)
        expect(existsSync(join(dir, 'allure-report', 'index.html'))).toBe(true)
        expect(readFileSync(join(dir, 'allure-report', 'index.html'), 'utf8')).not.toContain('googletagmanager')
        expect(existsSync(join(dir, 'allure-report.png'))).toBe(true)
        expect(existsSync(join(dir, 'conformance.png'))).toBe(true)
        // a second report of the same run replaces its line of the history (issue #37): one run, one point of the
        // trends
        const second = report(dir)
        expect(second.status, second.stderr).toBe(0)
        const history = readFileSync(join(dir, 'history', 'allure-history.jsonl'), 'utf8')
          .trim()
          .split('\n')
        expect(history).toHaveLength(1)
        // --check on a machine without its browser: not "skipped" with exit 0, but exit 2 with one line saying what to
        // install (the report itself is written); the README's table: a configuration error of the local setup
        const noBrowser = reportWith({ CHROMIUM_PATH: join(dir, 'no-chromium-here'), CI: '' }, dir, '--check')
        expect(noBrowser.status, noBrowser.stdout + noBrowser.stderr).toBe(2)
        expect(noBrowser.stderr).toMatch(
          /^report --check could not check the pages \(the report was written\): no Chromium at .*no-chromium-here \(apt-get install -y chromium, or set CHROMIUM_PATH\)$/m,
        )
        expect(noBrowser.stdout + noBrowser.stderr).not.toMatch(/check skipped/)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  )

  it('a failing run: the console, checks.json, the matrix and JUnit say the same totals; the HTML matrix shows each ' +
    'failure with expected, actual and a curl reproduction without hovering', async (ctx) => {
    const why = browserUnavailable()
    if (why) {
      if (process.env.CI === 'true') throw new Error(`browser test cannot run in CI: ${why}`)
      ctx.skip(`skipped: ${why}`)
    }
    // the two defects of issue 32; only the two suites that catch them run (a run of seconds, not a full one)
    const run = await runConformance({
      files: ['suites/sales/lifecycle.test.ts', 'suites/webhooks/lifecycle.test.ts'],
      env: { REFERENCE_DEFECTS: 'sales-installments-sum-wrong,webhooks-create-200' },
      keepReports: true,
    })
    const dir = run.reportsDir
    try {
      expect(run.verdict?.exitCode, run.output.slice(-3000)).toBe(1)
      const report = run.report!
      const failed = report.checks.filter((c) => c.status === 'failed')
      expect(failed.map((c) => c.id)).toEqual(expect.arrayContaining(['SL-LIFE-007-home', 'WH-LIFE-001']))
      // one set of numbers: the console's closing line, the matrix (md) and JUnit's totals property say checks.json's
      // totals
      const t = report.totals
      const line =
        `${t.passed} passed, ${t.failed} failed, ${t.errored} errored, ${t.blocked} ` +
        `blocked, ${t['not-applicable']} not applicable, ${t.skipped} skipped, ${t.deviations} deviation(s)`
      expect(run.output).toContain(`conformance: ${line}`)
      expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain(`Checks: **${line}**`)
      expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain(`name="totals" value="${line}"`)
      // checks.json has the failure as fields, with a curl command whose secret is a shell variable
      for (const c of failed) {
        expect(c.failure, c.id).toMatchObject({
          clause: `${c.document} ${c.section}`,
          expected: expect.any(String),
          actual: expect.any(String),
        })
        expect(c.failure!.reproduce[0], c.id).toMatch(
          /^curl -sS -i -X (GET|POST) 'http:\/\/127\.0\.0\.1:\d+\/.*"\$AUTH_TOKEN"/,
        )
        expect(c.failure!.reproduce.join('\n')).not.toMatch(/eyJ|REDACTED/)
      }
      const wh = failed.find((c) => c.id === 'WH-LIFE-001')!
      const sl = failed.find((c) => c.id === 'SL-LIFE-007-home')!
      const [page] = await checkPages([
        {
          file: join(dir, 'conformance.html'),
          screenshot: join(dir, 'conformance-failures.png'),
          texts: [
            'Failed requirements',
            'Legend',
            wh.id,
            sl.id,
            wh.failure!.expected!,
            wh.failure!.actual!,
            sl.failure!.expected!,
            sl.failure!.actual!,
            'Reproduce with curl',
          ],
        },
      ])
      expect(page!.missingTexts).toEqual([])
      expect(page!.consoleErrors).toEqual([])
      // replay (the same run's reports): WH-LIFE-001 against a reference started with the same defect, by URL
      const ref = await startReference({ defects: ['webhooks-create-200'] })
      try {
        const env: NodeJS.ProcessEnv = {
          ...process.env,
          SALES_BASE_URL: ref.url,
          WEBHOOK_BASE_URL: ref.url,
          AUTH_URL: `${ref.url}/api/v1/identifier`,
        }
        delete env.TARGET_PROFILE
        const replayed = async (...args: string[]) => {
          let text = ''
          const code = await replay(
            ['WH-LIFE-001', '--reports', dir, ...args],
            (s) => (text += s),
            (s) => (text += s),
            env,
          )
          return { code, text }
        }
        // the reference by URL is nonProduction (loopback): writes would be re-sent; --read-only re-sends the reads
        // only
        const readOnly = await replayed('--read-only')
        expect(readOnly.code, readOnly.text).toBe(0)
        expect(readOnly.text).toMatch(
          /\n\[\d+\/\d+\] POST http:\/\/127\.0\.0\.1:\d+\/api\/webhook\/subscription   \(in the run: 200\)\n  skipped: POST may change data on the target: not re-sent with --read-only/,
        )
        expect(readOnly.text).toContain('may be stale now')
        const writes = await replayed('--allow-writes')
        expect(writes.code, writes.text).toBe(0)
        // the wrong answer again: 200 where the spec says 201
        expect(writes.text).toMatch(
          new RegExp(
            `\\n\\[\\d+/\\d+\\] POST ${ref.url}/api/webhook/subscription   \\(in the run: 200\\)\\n(  > .*\\n)+  < ` +
              `200   \\(as in the run\\)\\n`,
          ),
        )
        for (const r of [readOnly, writes]) expect(r.text).not.toMatch(/eyJ|demo-pass-4821/)
      } finally {
        await ref.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 300_000)
})
