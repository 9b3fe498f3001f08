import { describe, expect, it } from 'vitest'
import { runConformance } from '../../scripts/harness/run-conformance'

/**
 * The suite's own console (issue 37, item 6): a failing run prints no vitest banner, no line per test or file (no
 * `.lanes/<hash>/...` paths), no code frame of the suite's own source and no colour; one line per failed or errored
 * check with its finding, and the summary. The rest is in the reports.
 */
const RULE = '─── ledger-conformance'

describe("a failing run's console: one line per failed check plus the summary", () => {
  it(
    'a defect: no banner, ticks, frames or colour; the FAILED lines are the failed checks, each with its finding ' +
      'and request',
    async () => {
      const run = await runConformance({
        files: ['suites/sales/decline.test.ts', 'suites/webhooks/errors.test.ts'],
        defects: ['sales-declined-can-bind'],
        timeoutMs: 120_000,
      })
      const report = run.report!
      expect(run.verdict?.exitCode).toBe(1)
      const failed = report.checks.filter((c) => c.status === 'failed' || c.status === 'errored')
      expect(failed.length).toBeGreaterThan(0)
      const lines = run.output.split('\n').filter((l) => l.trim() !== '')
      // nothing of vitest's own
      expect(run.output).not.toMatch(/\bRUN\s+v\d+\.\d+/)
      expect(run.output).not.toMatch(/\.lanes\//)
      expect(run.output).not.toMatch(/❯|✓|×|⎯/)
      expect(run.output).not.toMatch(/helpers\/checks\/check\.ts:\d+|^\s+at /m)
      // eslint-disable-next-line no-control-regex
      expect(run.output).not.toMatch(/\u001b\[/)
      // nothing before the summary
      const start = lines.findIndex((l) => l.startsWith(RULE))
      expect(start, run.output).toBe(0)
      // one line per failed or errored check, each naming its id, clause, expected vs actual and the request
      const findingLines = lines.filter((l) => /^ {2}(FAILED|ERRORED) /.test(l))
      expect(findingLines).toHaveLength(failed.length)
      for (const c of failed) {
        const line = findingLines.find((l) =>
          l.startsWith(`  ${c.status.toUpperCase()} ${c.id} ${c.document} ${c.section}: `),
        )
        expect(line, c.id).toBeDefined()
        if (c.failure?.expected !== undefined)
          expect(line).toContain(`expected ${c.failure.expected}, got ${c.failure.actual}`)
        if (c.failure?.request) expect(line).toContain(c.failure.request.split(' ').slice(0, 2).join(' '))
      }
      // the rest is the summary, whose size does not grow with the failures: the run's header, totals and per-section
      // table, the operations, at most one line per blocked root cause and per not-applicable reason, the verdict, the
      // requirements, the reports and the closing line
      const sections = new Set(report.checks.map((c) => `${c.document} ${c.section}`)).size
      const groups = lines.filter((l) =>
        /^ {2}(BLOCKED|NOT APPLICABLE|SKIPPED|UNTESTED|n\/a|not exercised) /.test(l),
      ).length
      // the exercise coverage (issue 40): its figure and, when cells were left, the line saying they do not change the
      // verdict
      const exercise = lines.filter((l) => /^exercise |^ {2}\(cells not exercised/.test(l)).length
      expect(exercise).toBeLessThanOrEqual(2)
      expect(lines.length).toBeLessThanOrEqual(failed.length + sections + groups + exercise + 14)
      expect(lines.at(-1)).toMatch(/^conformance: \d+ passed, \d+ failed/)
    },
  )
})
