import { readProfile } from '../../../common/config/target-config'
import type { TargetConfig } from '../../../common/config/types'
import { invocationFrom, invocationOf } from './command-line'
import { declaredNonProduction } from './production-guard'
import { guardWrites, type GuardedCommand, type WriteDecision, type WriteMode } from './write-guard'

/**
 * The one guard (write-guard.ts) for a command that talks to the target itself, in this process (explore, replay):
 * the target's profile says whether it is non-production, the user's command line (from the CLI, else `argv`) goes
 * into the refusal.
 */
export function guardTarget(o: {
  command: GuardedCommand
  argv: readonly string[]
  config: TargetConfig
  mode: WriteMode
  writes: boolean
  env: NodeJS.ProcessEnv
  detail?: string
}): WriteDecision {
  const profileServices =
    o.config.asWritten?.services ?? (o.config.profilePath ? (readProfile(o.config.profilePath).services ?? {}) : {})
  return guardWrites({
    command: o.command,
    mode: o.mode,
    env: o.env,
    writes: o.writes,
    nonProduction: declaredNonProduction({ config: o.config, profileServices }),
    target: o.config.services.salesBaseUrl,
    ...(o.detail ? { detail: o.detail } : {}),
    invocation: invocationFrom(o.env, () => invocationOf([o.command, ...o.argv], o.command, o.env)),
  })
}
