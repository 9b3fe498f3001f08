import { isAbsolute, resolve } from 'node:path'

/**
 * The options every command that names a target takes (Command.target 'reads' or 'writes'), with one meaning:
 * `--profile FILE` sets TARGET_PROFILE, `--reports DIR` sets REPORTS_DIR, each resolved against the caller's folder.
 * The same variables work without the options (common/env-vars.ts); an option wins over its variable.
 */
export const TARGET_OPTIONS = {
  profile: { type: 'string' },
  reports: { type: 'string' },
} as const

/** The same two lines in every such command's --help. */
export const TARGET_OPTIONS_HELP =
  `  --profile FILE     the target profile, anywhere (sets TARGET_PROFILE; default: ` +
  `the embedded reference service)
  --reports DIR      the reports folder (sets REPORTS_DIR; default ./reports of the current folder)`

/**
 * Puts --profile and --reports into `env` (TARGET_PROFILE, REPORTS_DIR), absolute against `cwd`; returns `env`.
 * Variables are left as they are when the option is not given.
 */
export function applyTargetOptions(
  values: { profile?: string | undefined; reports?: string | undefined },
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): NodeJS.ProcessEnv {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(cwd, p))
  if (values.profile) env.TARGET_PROFILE = abs(values.profile)
  if (values.reports) env.REPORTS_DIR = abs(values.reports)
  return env
}
