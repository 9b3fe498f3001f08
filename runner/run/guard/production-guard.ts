import type { TargetConfig } from '../../../common/config/types'
import { writingFiles, type SuiteClasses } from './suite-classes'
import { invocationFrom, invocationOf } from './command-line'
import { allowWritesFrom, guardWrites, type GuardedCommand } from './write-guard'

export { allowWritesFrom }

export interface GuardInput {
  config: TargetConfig
  /** The suite files this run would execute. */
  files: string[]
  classes: SuiteClasses
  env: NodeJS.ProcessEnv
  /** The profile's own service URLs (before environment overrides), when it names any. */
  profileServices?: Partial<Record<'salesBaseUrl' | 'authUrl' | 'webhookBaseUrl', string>>
}

/** The guarded command a vitest run belongs to (run, or acceptance), as the CLI said in its invocation. */
function commandOf(env: NodeJS.ProcessEnv): GuardedCommand {
  const inv = invocationFrom(env, () => invocationOf(['run'], 'run', env))
  return inv.command === 'acceptance' ? 'acceptance' : 'run'
}

export type GuardDecision =
  | { allowed: true; reason: string; writing: string[] }
  | { allowed: false; message: string; writing: string[] }

const LOOPBACK = /^(localhost|127(?:\.\d+){3}|\[::1\])$/i

function isLoopback(url: string): boolean {
  try {
    return LOOPBACK.test(new URL(url).hostname)
  } catch {
    return false
  }
}

/**
 * Whether the target is one the profile declares non-production. The declaration covers the embedded
 * service, loopback services and the profile's own URLs; a URL from the environment that points elsewhere
 * is not covered (a copy of the reference profile aimed at another host is production until proven otherwise).
 */
export function declaredNonProduction(i: Pick<GuardInput, 'config' | 'profileServices'>): { ok: boolean; why: string } {
  const c = i.config
  if (!c.nonProduction) return { ok: false, why: `profile '${c.profileName}' does not set nonProduction: true` }
  if (c.embedded) return { ok: true, why: 'embedded reference service' }
  const urls = [c.services.salesBaseUrl, c.services.authUrl, c.services.webhookBaseUrl]
  const own = new Set(Object.values(i.profileServices ?? {}).map((u) => u.replace(/\/+$/, '')))
  const foreign = urls.filter((u) => !isLoopback(u) && !own.has(u))
  if (foreign.length === 0) return { ok: true, why: `profile '${c.profileName}' is nonProduction` }
  return {
    ok: false,
    why:
      `profile '${c.profileName}' is nonProduction, but ${foreign.join(', ')} came from the environment and is ` +
      `not one of its services`,
  }
}

/**
 * Decides, before any request, whether this run may execute the suites that create or change data: the one guard of
 * every command (write-guard.ts), the user's command line from the CLI (COMMAND_LINE_ENV) for the refusal's text.
 */
export function productionGuard(i: GuardInput): GuardDecision {
  const writing = writingFiles(i.files, i.classes)
  const np = declaredNonProduction(i)
  const command = commandOf(i.env)
  const list =
    writing.length > 6 ? `${writing.slice(0, 6).join(', ')} and ${writing.length - 6} more` : writing.join(', ')
  const decision = guardWrites({
    command,
    // --read-only has already narrowed the files to the read-only suites; the flag itself reaches the guard as
    // ALLOW_WRITES
    mode: {},
    env: i.env,
    writes: writing.length > 0,
    nonProduction: np,
    target: i.config.services.salesBaseUrl,
    detail: `Writing suites selected: ${list}.`,
    invocation: invocationFrom(i.env, () => invocationOf(['run'], 'run', i.env)),
  })
  if (decision.go === 'refused') return { allowed: false, writing, message: decision.message }
  return { allowed: true, reason: writing.length === 0 ? 'read-only suites only' : decision.reason, writing }
}
