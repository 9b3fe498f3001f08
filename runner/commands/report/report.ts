import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { PROJECT_ROOT } from '../../../common/config/target-config'
import { reportsDir } from '../../../common/report-paths'
import { readRunInfo, type ChecksReport } from '../../run/results/results'
import { generateAllure } from './allure-generate'
import { browserUnavailable, checkPages, type PageExpectation } from './browser-check'
import { stageResults } from './stage-results'
import { dropRunFromHistory } from './history'
import { stripAnalytics } from './strip-analytics'
import { withDidYouMean } from '../did-you-mean'

const USAGE =
  `Usage: ledger-conformance report [--results DIR] [--output DIR] [--history FILE] [--history-limit N] ` +
  `[--name NAME] [--tenant TAG] [--all] [--check] [--reports DIR]
  (in a clone: npm run report -- [options])
  Builds the Allure Report 3 HTML report (single file) of the last conformance run in $REPORTS_DIR (default reports/).
  --reports DIR    the reports folder of the run (default $REPORTS_DIR, else ./reports)
  --history FILE   Allure history JSONL: read for trends, appended with this run (default $ALLURE_HISTORY or ` +
  `<reports>/history/allure-history.jsonl)
  --tenant TAG     tenant parameter on every result (default: the run's tenant) so tenants never merge in history
  --all            report every result in the results folder, not only the last run's
  --check          open the report and the conformance matrix in headless Chromium; fail on console errors or ` +
  `missing numbers`

const REPORT_OPTIONS = {
  results: { type: 'string' },
  output: { type: 'string' },
  history: { type: 'string' },
  'history-limit': { type: 'string' },
  name: { type: 'string' },
  tenant: { type: 'string' },
  all: { type: 'boolean' },
  check: { type: 'boolean' },
  reports: { type: 'string' },
  help: { type: 'boolean' },
} as const

/** Ends the report with a message and an exit code; thrown, so the work folder is removed on the way out. */
class Failure extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message)
  }
}

function fail(message: string, code = 1): never {
  throw new Failure(message, code)
}

async function buildReport(argv: string[]): Promise<void> {
  let args
  try {
    args = parseArgs({
      args: argv,
      options: REPORT_OPTIONS,
    }).values
  } catch (e) {
    fail(`${withDidYouMean((e as Error).message, REPORT_OPTIONS)}\n${USAGE}`, 2)
  }
  if (args.help) return void process.stdout.write(`${USAGE}\n`)
  const dir = args.reports ? resolve(args.reports) : reportsDir()
  const results = resolve(args.results ?? join(dir, 'allure-results'))
  const output = resolve(args.output ?? join(dir, 'allure-report'))
  const history = resolve(args.history ?? process.env.ALLURE_HISTORY ?? join(dir, 'history', 'allure-history.jsonl'))
  const limit = Number(args['history-limit'] ?? '30')
  if (!Number.isInteger(limit) || limit < 1) fail(`--history-limit: expected a positive integer\n${USAGE}`, 2)
  if (!existsSync(results))
    fail(
      `No Allure results at ${results}: run the conformance checks first (ledger-conformance run), or pass --results.`,
    )
  const run = readRunInfo(dir)
  const tenant = args.tenant ?? run?.tenant
  const name = args.name ?? `ledger-conformance${run ? ` — ${run.profile}` : ''}${tenant ? ` — tenant ${tenant}` : ''}`

  const work = mkdtempSync(join(tmpdir(), 'lc-report-'))
  try {
    const since = !args.all && run ? Date.parse(run.startedAt) - 1000 : undefined
    const staged = stageResults(results, join(work, 'results'), {
      ...(since !== undefined ? { since } : {}),
      ...(tenant ? { tenant } : {}),
      ...(run && !args.all ? { runId: run.runId } : {}),
    })
    if (staged.results === 0)
      fail(
        `No Allure results of the last run in ${results}${
          since ? ` (started ${run?.startedAt}; --all includes older ones)` : ''
        }.`,
      )
    // one run is one line of the history, however often its report is made
    if (run && !args.all) dropRunFromHistory(history, run.runId)
    const gen = await generateAllure({
      results: [staged.dir],
      output,
      historyPath: history,
      historyLimit: limit,
      name,
      workDir: work,
      projectRoot: PROJECT_ROOT,
    })
    if (gen.exitCode !== 0 || !gen.summary)
      fail(`allure generate failed (exit ${gen.exitCode}):\n${gen.output.slice(-2000)}`)
    stripAnalytics(join(output, 'index.html'))
    const s = gen.summary.stats
    const rel = (p: string) => relative(process.cwd(), p) || '.'
    process.stdout.write(
      `Allure report: ${rel(join(output, 'index.html'))} (${staged.results} results ` +
        `of ${run ? `run ${run.runId}` : 'all runs'}${tenant ? `, tenant ${tenant}` : ''}` +
        `${staged.skippedOlder ? `; ${staged.skippedOlder} older results left out` : ''})\n`,
    )
    process.stdout.write(
      `  total ${s.total ?? 0}: ${['passed', 'failed', 'broken', 'skipped', 'unknown']
        .filter((k) => s[k])
        .map((k) => `${s[k]} ${k}`)
        .join(', ')}\n`,
    )
    process.stdout.write(
      `  history: ${rel(history)} (keep this file between runs for trends; --history to choose it)\n`,
    )

    if (args.check) {
      const why = browserUnavailable()
      // --check asked for a check this machine cannot make: not a pass (0) and not the report's fault (3), but the
      // local setup's (2, as every configuration error), one line saying what to change; the report itself was written
      if (why) fail(`report --check could not check the pages (the report was written): ${why}`, 2)
      const checks = existsSync(join(dir, 'checks.json'))
        ? (JSON.parse(readFileSync(join(dir, 'checks.json'), 'utf8')) as ChecksReport)
        : undefined
      const pages: PageExpectation[] = [
        {
          file: join(output, 'index.html'),
          texts: [String(s.total ?? 0), ...(tenant ? [`tenant ${tenant}`] : [])],
          screenshot: join(dir, 'allure-report.png'),
        },
      ]
      if (checks && existsSync(join(dir, 'conformance.html'))) {
        pages.push({
          file: join(dir, 'conformance.html'),
          texts: [checks.totals.failed === 0 ? 'CONFORMS' : 'DOES NOT CONFORM', `${checks.totals.passed} passed`],
          screenshot: join(dir, 'conformance.png'),
        })
      }
      const res = await checkPages(pages)
      let bad = false
      for (const r of res) {
        const ok = r.loaded && r.missingTexts.length === 0 && r.consoleErrors.length === 0
        bad ||= !ok
        process.stdout.write(
          `  browser ${ok ? 'OK  ' : 'FAIL'} ${rel(r.file)}${
            r.screenshot ? ` (screenshot ${rel(r.screenshot)})` : ''
          }\n`,
        )
        for (const t of r.missingTexts) process.stdout.write(`    not shown: ${t}\n`)
        for (const e of r.consoleErrors) process.stdout.write(`    console error: ${e}\n`)
      }
      if (bad) fail('report check failed')
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/**
 * ledger-conformance report (npm run report): the Allure page of the last run in the reports folder. Resolves to
 * 0 when written, 2 on a usage error or a --check this machine cannot make (no browser), 1 when there is no report
 * (no results, the tool failed, --check found a problem).
 */
export async function report(argv: string[]): Promise<number> {
  try {
    await buildReport(argv)
    return 0
  } catch (e) {
    if (!(e instanceof Failure)) throw e
    process.stderr.write(`${e.message}\n`)
    return e.code
  }
}
