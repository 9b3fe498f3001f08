import { basename } from 'node:path'
import { ConfigError } from '../../../common/config/config-error'
import { readEnv } from '../../../common/config/env'
import { INSTALLED } from '../../../common/project-root'

/** The targets of a multi-target run: profile paths and the key each is reported under. */
export interface TargetProfileList {
  paths: string[]
  /** The profile file name without extension ("globex" for profiles/globex.json); unique. */
  keys: string[]
}

/** Variables that name one user or tenant: in a multi-target run each profile says its own. */
const PER_TARGET = ['TARGET_PROFILE', 'TENANT', 'AUTH_USERNAME', 'AUTH_PASSWORD'] as const

/**
 * TARGET_PROFILES (comma-separated profile paths), or undefined when unset.
 * Throws ConfigError naming the variable, before anything is read or sent. An installed package writes nothing
 * inside node_modules, and a multi-target run needs generated entry files under the project
 * (runner/run/targets/entries.ts):
 * there it is a usage error that says to run each profile on its own.
 */
export function targetProfilesFrom(
  env: NodeJS.ProcessEnv,
  options: { installed?: boolean } = {},
): TargetProfileList | undefined {
  const raw = readEnv(env, 'TARGET_PROFILES')
  if (raw === undefined) return undefined
  const problems: string[] = []
  const paths = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (paths.length === 0) problems.push('TARGET_PROFILES: lists no profile')
  if (options.installed ?? INSTALLED)
    problems.push(
      'TARGET_PROFILES: several targets in one run need a clone of the project (an installed package writes nothing ' +
        'inside node_modules); run the installed CLI once per profile (--profile <file>) instead',
    )
  for (const name of PER_TARGET) {
    if ((env[name] ?? '').trim() !== '')
      problems.push(
        `${name}: cannot be combined with TARGET_PROFILES (each profile names its own tenant and user); unset it`,
      )
  }
  const keys = paths.map((p) => basename(p).replace(/\.jsonc?$/i, ''))
  keys.forEach((k, i) => {
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(k))
      problems.push(
        `TARGET_PROFILES: profile file name '${basename(paths[i]!)}' must be [A-Za-z0-9_-]{1,40} (it names the ` +
          `target in reports)`,
      )
    else if (keys.indexOf(k) !== i)
      problems.push(`TARGET_PROFILES: two profiles are named '${k}'; give each target a file name of its own`)
  })
  if (problems.length > 0) throw new ConfigError(problems)
  return { paths, keys }
}
