import { isAbsolute, join, relative, resolve } from 'node:path'
import { PROJECT_ROOT } from './project-root'
import { plannedCallerCwd } from './run-plan'

/** Where reports go: $REPORTS_DIR or <project>/reports. */
export function reportsDir(env: NodeJS.ProcessEnv = process.env): string {
  const d = env.REPORTS_DIR
  if (!d) return resolve(PROJECT_ROOT, 'reports')
  return isAbsolute(d) ? d : resolve(process.cwd(), d)
}

export function trafficDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(reportsDir(env), 'traffic')
}

/** A multi-target run's reports of one target (reports/targets/<key>), or the folder of them all. */
export function targetReportsDir(env: NodeJS.ProcessEnv = process.env, key?: string): string {
  const all = join(reportsDir(env), 'targets')
  return key ? join(all, key) : all
}

/**
 * Set by the Allure reporter at the start of a run (runner/vitest/allure-reporter.ts): where the workers write the
 * exchange attachments (helpers/client/http/allure-sink.ts).
 */
export const ALLURE_RESULTS_ENV = 'LC_ALLURE_RESULTS_DIR'

/** Set by `ledger-conformance run` for its vitest child (which works in the project's folder): the caller's folder. */
export const CALLER_CWD_ENV = 'CONFORMANCE_CALLER_CWD'

/** A path as the person who started the run would type it: relative to their working directory ('.' for itself). */
export function callerPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  return relative(plannedCallerCwd(env) || process.cwd(), path) || '.'
}
