import { EXIT } from '../../run/verdict'
import { referenceCli } from '../../../reference/cli-command'
import type { Command } from '../command'

const HELP = `Usage: ledger-conformance reference [options]     (in a clone: npm run reference -- [options])

Starts the reference service (both specifications on one origin; in memory) on 127.0.0.1 until SIGINT or
SIGTERM, and prints its base URLs and the demo credentials. Point a run at it with SALES_BASE_URL, AUTH_URL and
WEBHOOK_BASE_URL (printed), or run without a target to get an embedded one for that run alone.

Options:
  --port N             port (default 4010; 0 picks a free one)
  --host ADDRESS       interface (default 127.0.0.1; 0.0.0.0 in the container image)
  --defect NAME        switch on a named defect (repeatable, or comma-separated); --list-defects lists them
  --variation NAME     switch on a benign variation (repeatable); --list-variations lists them
  --chaos SPEC         inject faults, e.g. "503=0.05,latency=0-200,seed=7" (docs/reliability.md)
  --lock-ms N, --issue-ms N, --referral-ms N
                       delays of the asynchronous operations
  --log                log every request
  --list-defects       print the defect catalogue (name, clause, description) and exit
  --list-variations    print the benign variations and exit
  -h, --help           this help

Environment: none read.

Exit codes:
  0  stopped by SIGINT or SIGTERM (or a list was printed)
  2  usage error: an unknown option, defect or variation, a bad port or chaos spec
  3  the service could not start (e.g. the port is taken)`

/** ledger-conformance reference: reference/cli-command.ts, the standalone reference service, in this process. */
export const referenceCommand: Command = {
  name: 'reference',
  summary: 'the reference service standalone, with optional named defects, variations and chaos',
  help: HELP,
  target: 'none',
  async run(argv) {
    const code = await referenceCli(argv)
    return code === 0 ? EXIT.conforms : code === EXIT.usage ? EXIT.usage : EXIT.inconclusive
  },
}
