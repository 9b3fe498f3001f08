import type { EnvNameOf } from '../env-vars'

/**
 * The variables the profile loader reads (common/config/target-config.ts): the target's, the seed and the run id. Their
 * meanings and
 * defaults are in the one list of the project's variables, common/env-vars.ts (docs/environment.md is generated from
 * it).
 */
export type EnvName = EnvNameOf<'target'> | 'CONFORMANCE_SEED' | 'CONFORMANCE_RUN_ID' | 'LEDGER_THOROUGH'

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== ''
  } catch {
    return false
  }
}

/** Reads a variable: undefined when unset or blank. */
export function readEnv(env: NodeJS.ProcessEnv, name: EnvName): string | undefined {
  const v = env[name]
  return v === undefined || v.trim() === '' ? undefined : v.trim()
}
