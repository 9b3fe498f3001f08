import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder of the project (package.json, fixtures/): where its own data files are read from. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * A file of an installed dependency, wherever npm put it: the project's own node_modules in a clone, or the
 * caller's (a folder up) when this package is installed as a dependency. Found the way Node looks up a package,
 * without going through its exports map.
 */
export function dependencyFile(pkg: string, file: string): string {
  const dirs = createRequire(join(PROJECT_ROOT, 'package.json')).resolve.paths(pkg) ?? []
  for (const d of dirs) {
    if (existsSync(join(d, pkg, 'package.json'))) return join(d, pkg, file)
  }
  throw new Error(`dependency ${pkg} is not installed (looked in ${dirs.slice(0, 3).join(', ')}, ...)`)
}

/** True when this project runs as an installed package (inside some node_modules), not from a clone. */
export const INSTALLED = PROJECT_ROOT.split(/[\\/]/).includes('node_modules')

/**
 * Where an installed package keeps vitest's caches (transformed modules, results): never inside node_modules, which
 * may be read-only and belongs to the caller's package manager. $LEDGER_CONFORMANCE_CACHE, else
 * $XDG_CACHE_HOME/ledger-conformance, else ~/.cache/ledger-conformance.
 */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LEDGER_CONFORMANCE_CACHE) return resolve(env.LEDGER_CONFORMANCE_CACHE)
  return join(env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache'), 'ledger-conformance')
}

/**
 * The vitest arguments that load the project's conformance config. Installed, the config is processed in memory
 * (`--configLoader runner`) instead of being bundled into node_modules/.vite-temp.
 */
export function conformanceConfigArgs(): string[] {
  return ['--config', join(PROJECT_ROOT, 'vitest.config.ts'), ...(INSTALLED ? ['--configLoader', 'runner'] : [])]
}
