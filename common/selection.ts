import { plannedSelectedChecks } from './run-plan'

/**
 * The checks a run was asked to run, as the CLI hands them to the run (runner/run/selection): the ids, comma-separated,
 * in LEDGER_SELECTED_CHECKS. A check that is not among them is not defined at all (helpers/checks/check.ts), so
 * the run, its counts and its reports hold exactly the selection; unset means every check.
 */
export const SELECTED_CHECKS_ENV = 'LEDGER_SELECTED_CHECKS'

/**
 * The selected ids, or undefined when every check is selected: the run plan's (common/run-plan.ts), else the variable.
 */
export function selectedChecks(env: NodeJS.ProcessEnv = process.env): ReadonlySet<string> | undefined {
  return plannedSelectedChecks(env)
}
