import { envHelp } from '../../../common/env-vars'
import { acceptance } from './acceptance'
import { inCallerEnv } from '../caller'
import type { Command } from '../command'
import { writeOptionsHelp } from '../../run/guard/write-guard'

const HELP =
  `Usage: ledger-conformance acceptance --profile FILE [--suites DIR,...]     (in a clone: npm run ` +
  `acceptance -- ...)

Tenant acceptance: runs the suites a new tenant must pass (auth, security, sales, policies, webhooks) against
the target of the profile and says ACCEPTED or REJECTED, with each failed requirement and its evidence. Checks
of features the tenant lacks (profile "features") are not applicable, with the reason. Writes
<reports>/acceptance.json next to the run's usual reports.

The acceptance suites create and change data: against a profile that is not nonProduction: true they are refused
by the production guard (exit 2, nothing sent) unless --allow-writes.

Options:
  --profile FILE       the tenant's target profile, anywhere (e.g. ./ci/acme.jsonc); required (or TARGET_PROFILE)
  --reports DIR        the reports folder (sets REPORTS_DIR; default ./reports of the current folder)
${writeOptionsHelp('acceptance')}
  --suites LIST        comma-separated suite folders or files instead of the default set
  --lenient            do not reject for requirements no check could judge (acceptance is strict by default:
                       an untested requirement, e.g. tenant isolation without users.otherTenant, is INCONCLUSIVE)
  --allow-reference    accept a profile that resolves to the embedded reference service (a demonstration; the
                       verdict says "ACCEPTED (embedded reference, not a tenant deployment)"); without it, exit 2
  -h, --help           this help

${envHelp('acceptance')}
  (and the variables the profile names in passwordEnv: passwords, never put one in the profile)

Exit codes:
  0  ACCEPTED: the run CONFORMS
  1  REJECTED: a requirement failed (DOES NOT CONFORM)
  2  usage or configuration error: no --profile, a bad profile (the field is named), a profile that resolves to
     the embedded reference without --allow-reference, the production guard's refusal; nothing was sent
  3  REJECTED: the run could not test (INCONCLUSIVE; the cause is printed)
  (the run's conformance verdict, also in acceptance.json "conformance")`

/**
 * ledger-conformance acceptance: runner/commands/acceptance/acceptance.ts with the profile anywhere and the reports in
 * the caller's folder.
 */
export const acceptanceCommand: Command = {
  name: 'acceptance',
  summary: 'tenant acceptance: ACCEPTED or REJECTED for a tenant profile, with the failed requirements',
  help: HELP,
  target: 'writes',
  run: (argv) => inCallerEnv(() => acceptance(argv)),
}
