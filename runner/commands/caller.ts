import { isAbsolute, resolve } from 'node:path'
import { CALLER_CWD_ENV } from '../../common/report-paths'
import { PROJECT_ROOT } from '../../common/project-root'

/**
 * The environment of a command run from the caller's folder: REPORTS_DIR made absolute against the caller's
 * working directory (default ./reports), and the profile paths too, so a child process that works inside the
 * project (an installed package's folder, under node_modules) still writes to and reads from the caller's folder,
 * and prints report paths relative to it.
 */
export function callerEnv(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): NodeJS.ProcessEnv {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(cwd, p))
  // report paths are printed relative to the caller's folder, not to the project's (common/report-paths.ts callerPath)
  const out: NodeJS.ProcessEnv = {
    ...env,
    REPORTS_DIR: abs(env.REPORTS_DIR || 'reports'),
    [CALLER_CWD_ENV]: env[CALLER_CWD_ENV] || cwd,
  }
  if (env.TARGET_PROFILE) out.TARGET_PROFILE = abs(env.TARGET_PROFILE)
  if (env.TARGET_PROFILES)
    out.TARGET_PROFILES = env.TARGET_PROFILES.split(',')
      .map((p) => (p.trim() ? abs(p.trim()) : p))
      .join(',')
  if (env.ALLURE_HISTORY) out.ALLURE_HISTORY = abs(env.ALLURE_HISTORY)
  return out
}

/**
 * Runs a command's module (imported, in this process) with process.env as callerEnv makes it: the reports folder
 * and the profiles resolved against the caller's folder (the default reports folder of the report helpers is the
 * project's, which installed is under node_modules). The variables it changed are put back afterwards.
 */
export async function inCallerEnv<T>(work: () => Promise<T>): Promise<T> {
  const before = { ...process.env }
  const changed = Object.entries(callerEnv()).filter(([k, v]) => before[k] !== v)
  for (const [k, v] of changed) process.env[k] = v
  try {
    return await work()
  } finally {
    for (const [k] of changed) {
      if (before[k] === undefined) delete process.env[k]
      else process.env[k] = before[k]
    }
  }
}
