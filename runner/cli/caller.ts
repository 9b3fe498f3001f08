import { spawn } from 'node:child_process'
import { isAbsolute, resolve } from 'node:path'
import { PROJECT_ROOT } from '../../common/project-root'
import { CALLER_CWD_ENV } from '../../helpers/client/evidence/paths'

/**
 * The environment of a command run from the caller's folder: REPORTS_DIR made absolute against the caller's
 * working directory (default ./reports), and the profile paths too, so a child process that works inside the
 * project (an installed package's folder, under node_modules) still writes to and reads from the caller's folder,
 * and prints report paths relative to it.
 */
export function callerEnv(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): NodeJS.ProcessEnv {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(cwd, p))
  // report paths are printed relative to the caller's folder, not to the project's (helpers/client/evidence/paths.ts callerPath)
  const out: NodeJS.ProcessEnv = { ...env, REPORTS_DIR: abs(env.REPORTS_DIR || 'reports'), [CALLER_CWD_ENV]: env[CALLER_CWD_ENV] || cwd }
  if (env.TARGET_PROFILE) out.TARGET_PROFILE = abs(env.TARGET_PROFILE)
  if (env.TARGET_PROFILES) out.TARGET_PROFILES = env.TARGET_PROFILES.split(',').map((p) => (p.trim() ? abs(p.trim()) : p)).join(',')
  if (env.ALLURE_HISTORY) out.ALLURE_HISTORY = abs(env.ALLURE_HISTORY)
  return out
}

/** The tsx loader, as a file URL: a child resolves it wherever the caller is (no tsx needed in the caller's folder). */
export const TSX_LOADER = import.meta.resolve('tsx')

/**
 * Runs one of the project's TypeScript entry points (path relative to the project) in a child node with the
 * caller's working directory and environment, stdio inherited; SIGINT/SIGTERM are passed on. Resolves to the
 * child's exit code (a child killed by a signal: 128 + its number, as a shell reports it).
 */
export function runProjectScript(script: string, args: readonly string[], env: NodeJS.ProcessEnv = callerEnv()): Promise<number> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, resolve(PROJECT_ROOT, script), ...args], { stdio: 'inherit', env })
  const forward = (s: NodeJS.Signals) => child.kill(s)
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  return new Promise((done) => {
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward)
      process.off('SIGTERM', forward)
      done(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1))
    })
  })
}
