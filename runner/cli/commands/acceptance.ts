import { runProjectScript } from '../caller'
import type { Command } from '../command'

const HELP = `Usage: ledger-conformance acceptance --profile FILE [--suites DIR,...]     (in a clone: npm run acceptance -- ...)

Tenant acceptance: runs the suites a new tenant must pass (auth, security, sales, policies, webhooks) against
the target of the profile and says ACCEPTED or REJECTED, with each failed requirement and its evidence. Checks
of features the tenant lacks (profile "features") are not applicable, with the reason. Writes
<reports>/acceptance.json next to the run's usual reports.

Options:
  --profile FILE       the tenant's target profile, anywhere (e.g. ./ci/acme.jsonc); required
  --suites LIST        comma-separated suite folders or files instead of the default set
  -h, --help           this help

Environment:
  REPORTS_DIR          the reports folder (default ./reports of the current directory)
  AUTH_PASSWORD, and the variables the profile names in passwordEnv
                       passwords (never put one in the profile)
  SALES_BASE_URL, AUTH_URL, WEBHOOK_BASE_URL, TENANT, AUTH_USERNAME, PRODUCT
                       override the profile's fields (ledger-conformance run --help lists every variable)

Exit codes:
  0  ACCEPTED: the run CONFORMS
  1  REJECTED: a requirement failed (DOES NOT CONFORM)
  2  usage or configuration error: no --profile, a bad profile (the field is named); nothing was sent
  3  REJECTED: the run could not test (INCONCLUSIVE; the cause is printed)
  (the run's conformance verdict, also in acceptance.json "conformance")`

/** ledger-conformance acceptance: scripts/acceptance.ts with the profile anywhere and the reports in the caller's folder. */
export const acceptanceCommand: Command = {
  name: 'acceptance',
  summary: 'tenant acceptance: ACCEPTED or REJECTED for a tenant profile, with the failed requirements',
  help: HELP,
  run: (argv) => runProjectScript('scripts/acceptance.ts', argv),
}
