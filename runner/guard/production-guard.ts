import type { TargetConfig } from '../../helpers/client/config/types'
import { suggestedCommand } from '../../common/suggested-command'
import { writingFiles, type SuiteClasses } from './suite-classes'

export interface GuardInput {
  config: TargetConfig
  /** The suite files this run would execute. */
  files: string[]
  classes: SuiteClasses
  env: NodeJS.ProcessEnv
  /** The profile's own service URLs (before environment overrides), when it names any. */
  profileServices?: Partial<Record<'salesBaseUrl' | 'authUrl' | 'webhookBaseUrl', string>>
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

/** ALLOW_WRITES=1 (or true/yes): the operator accepts that the suite creates and changes data. */
export function allowWritesFrom(env: NodeJS.ProcessEnv): boolean {
  return /^(1|true|yes)$/i.test((env.ALLOW_WRITES ?? '').trim())
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
  return { ok: false, why: `profile '${c.profileName}' is nonProduction, but ${foreign.join(', ')} came from the environment and is not one of its services` }
}

/** Decides, before any request, whether this run may execute the suites that create or change data. */
export function productionGuard(i: GuardInput): GuardDecision {
  const writing = writingFiles(i.files, i.classes)
  if (writing.length === 0) return { allowed: true, reason: 'read-only suites only', writing }
  const np = declaredNonProduction(i)
  if (np.ok) return { allowed: true, reason: np.why, writing }
  if (allowWritesFrom(i.env)) return { allowed: true, reason: 'ALLOW_WRITES=1', writing }
  const list = writing.length > 6 ? `${writing.slice(0, 6).join(', ')} and ${writing.length - 6} more` : writing.join(', ')
  return {
    allowed: false,
    writing,
    message:
      `Production guard: refusing to run suites that create or change data against ${i.config.services.salesBaseUrl}: ${np.why}. ` +
      `No request was sent. Writing suites selected: ${list}. ` +
      `Run only the read-only checks with '${suggestedCommand('run --read-only', 'npm run smoke')}', mark a test environment nonProduction: true in its profile, ` +
      `or pass --allow-writes (${suggestedCommand('run --allow-writes', 'npm run conformance -- --allow-writes')}; or ALLOW_WRITES=1) to accept that the suite creates (and then removes) data tagged with the run id.`,
  }
}
