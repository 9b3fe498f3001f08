import type { TargetConfig } from '../../helpers/config/types'

/** What identifies a run in reports (never a password or token). */
export interface RunInfo {
  runId: string
  seed: number
  profile: string
  embedded: boolean
  /** Set when the service under test ran as a container for this run. */
  container?: { image: string; id: string }
  tenant: string
  user: string
  salesBaseUrl: string
  webhookBaseUrl: string
  authUrl: string
  defects: string[]
  startedAt: string
  /** The target key in a multi-target run (TARGET_PROFILES). */
  target?: string
}

export function runInfo(config: TargetConfig): RunInfo {
  return {
    runId: config.runId,
    seed: config.seed,
    profile: config.profileName,
    embedded: config.embedded,
    tenant: config.tenant,
    user: config.users.primary.username,
    salesBaseUrl: config.services.salesBaseUrl,
    webhookBaseUrl: config.services.webhookBaseUrl,
    authUrl: config.services.authUrl,
    defects: config.reference.defects,
    startedAt: new Date().toISOString(),
  }
}
