import type { TargetConfig } from '../../../common/config/types'
import type { RunStop } from '../verdict'
import type { ExerciseProfile } from '../../../helpers/oracle/exercise-model'
import { exerciseProfile } from '../../../helpers/oracle/exercise-tracker'

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
  /** Set when the run stopped before its checks (configuration error, preflight): the verdict's cause. */
  stop?: RunStop
  /** A merged sharded run: the shards that could not run, each with its cause (the verdict is then INCONCLUSIVE). */
  shardStops?: string[]
  /**
   * The authoring errors of the profile's OpenAPI documents, each once with its JSON pointer (docs/contracts.md); they
   * never fail a run.
   */
  documentWarnings?: { source: string; pointer: string; message: string }[]
  /**
   * What the profile says of the exercise model's cells (users, refresh, the list's page size): the coverage's
   * denominator.
   */
  exercise?: ExerciseProfile
}

/**
 * What is known of a run before its profile is read (a run that stops on its configuration): the run id and
 * whatever the environment names as the target. Never a password.
 */
export function earlyRunInfo(env: NodeJS.ProcessEnv, runId: string): RunInfo {
  const profile = env.TARGET_PROFILES ?? env.TARGET_PROFILE ?? 'fixtures/targets/reference.json'
  return {
    runId,
    seed: /^\d{1,10}$/.test(env.CONFORMANCE_SEED ?? '') ? Number(env.CONFORMANCE_SEED) : 0,
    profile,
    embedded: !env.SALES_BASE_URL,
    tenant: env.TENANT ?? '',
    user: env.AUTH_USERNAME ?? '',
    salesBaseUrl: env.SALES_BASE_URL ?? '(from the profile)',
    webhookBaseUrl: env.WEBHOOK_BASE_URL ?? '',
    authUrl: env.AUTH_URL ?? '',
    defects: (env.REFERENCE_DEFECTS ?? '')
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean),
    startedAt: new Date().toISOString(),
  }
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
    exercise: exerciseProfile(config),
  }
}
