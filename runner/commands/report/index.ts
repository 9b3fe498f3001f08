import { envHelp } from '../../../common/env-vars'
import { EXIT } from '../../run/verdict'
import { report } from './report'
import { inCallerEnv } from '../caller'
import type { Command } from '../command'

const HELP = `Usage: ledger-conformance report [options]     (in a clone: npm run report -- [options])

Builds the HTML report (Allure Report 3, one self-contained page, no Java) of the last run in the reports
folder, with history and trends across runs. The conformance matrix (conformance.md/.html) is written by every
run; this adds the Allure page.

Options:
  --reports DIR        the reports folder of the run (default $REPORTS_DIR, else ./reports), as for run
  --results DIR        Allure results to report (default <reports>/allure-results)
  --output DIR         where the report goes (default <reports>/allure-report)
  --history FILE       Allure history (JSON lines): read for trends, appended with this run
                       (default $ALLURE_HISTORY, else <reports>/history/allure-history.jsonl)
  --history-limit N    runs kept in the history (default 30)
  --name NAME          report title (default: ledger-conformance, the profile and the tenant)
  --tenant TAG         tenant parameter on every result, so tenants never merge in one history (default: the run's)
  --all                every result in the results folder, not only the last run's
  --check              open the report and the conformance matrix in headless Chromium; fail on a console
                       error or missing numbers (needs Chromium: CHROMIUM_PATH or /usr/bin/chromium)
  -h, --help           this help

${envHelp('report')}

Exit codes:
  0  the report was written (with --check: both pages loaded and showed the run's numbers)
  2  usage or configuration error (an unknown option, a bad --history-limit), or --check on a machine without the
     browser it needs (no Chromium or playwright-core: the report is written, the pages are not checked)
  3  no report: no results of a run in the folder, the report tool failed, or --check found a problem`

/**
 * ledger-conformance report: runner/commands/report/report.ts in the caller's folder; its failures are tool errors (3).
 */
export const reportCommand: Command = {
  name: 'report',
  summary: 'HTML report (Allure Report 3) of the last run, with history and trends',
  help: HELP,
  target: 'none',
  async run(argv) {
    let code: number
    try {
      code = await inCallerEnv(() => report(argv))
    } catch (e) {
      process.stderr.write(`report: tool error: ${(e as Error).stack ?? String(e)}\n`)
      return EXIT.inconclusive
    }
    return code === 0 ? EXIT.conforms : code === EXIT.usage ? EXIT.usage : EXIT.inconclusive
  },
}
