import type { EnvNameOf } from '../../../common/env-vars'

/** The default image of the reference service (built by .ci/steps/20-docker.sh from the project's Dockerfile). */
export const REFERENCE_IMAGE = 'ledger-conformance/reference:local'

/** A service under test that the suite starts as a container. */
export interface ContainerTarget {
  image: string
  /** true when the image is the project's reference service: it gets the reference's command-line options. */
  reference: boolean
  /** Port the service listens on inside the container. */
  port: number
  /** Route that answers 200 once the service is ready. */
  healthPath: string
  startupTimeoutMs: number
}

/** Variables that select a container target (their meanings: common/env-vars.ts, group 'container'). */
export type ContainerEnvName = EnvNameOf<'container'>

export class ContainerTargetError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid container target; no container was started:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ContainerTargetError'
  }
}

function value(env: NodeJS.ProcessEnv, name: ContainerEnvName): string | undefined {
  const v = env[name]?.trim()
  return v ? v : undefined
}

/**
 * Reads the container target from the environment: undefined when the run is not a container run.
 * Pure; throws ContainerTargetError naming each bad variable.
 */
export function containerTargetFromEnv(env: NodeJS.ProcessEnv): ContainerTarget | undefined {
  const target = value(env, 'TARGET')
  const targetImage = value(env, 'TARGET_IMAGE')
  const problems: string[] = []
  if (target !== undefined && target !== 'container' && target !== 'embedded') {
    problems.push(`TARGET: must be 'container' or 'embedded', got '${target}'`)
  }
  if (target === 'embedded' && targetImage)
    problems.push('TARGET=embedded and TARGET_IMAGE contradict each other; unset one')
  if (!targetImage && target !== 'container') {
    if (problems.length) throw new ContainerTargetError(problems)
    return undefined
  }
  if (env.SALES_BASE_URL?.trim()) {
    problems.push(
      'SALES_BASE_URL: a container target gets its URL from the container; unset SALES_BASE_URL (or ' +
        'TARGET/TARGET_IMAGE)',
    )
  }
  const referenceImage = value(env, 'REFERENCE_IMAGE') ?? REFERENCE_IMAGE
  const image = targetImage ?? referenceImage
  if (!/^[a-z0-9][a-z0-9._/:@-]*$/i.test(image)) problems.push(`TARGET_IMAGE: not an image reference: '${image}'`)
  const int = (
    name: 'TARGET_PORT' | 'TARGET_STARTUP_TIMEOUT_MS',
    fallback: number,
    min: number,
    max: number,
  ): number => {
    const raw = value(env, name)
    if (raw === undefined) return fallback
    const n = /^\d+$/.test(raw) ? Number(raw) : NaN
    if (!(n >= min && n <= max)) problems.push(`${name}: must be an integer between ${min} and ${max}, got '${raw}'`)
    return n
  }
  const port = int('TARGET_PORT', 4010, 1, 65535)
  const startupTimeoutMs = int('TARGET_STARTUP_TIMEOUT_MS', 60_000, 1000, 600_000)
  const healthPath = value(env, 'TARGET_HEALTH_PATH') ?? '/health'
  if (!healthPath.startsWith('/')) problems.push(`TARGET_HEALTH_PATH: must start with '/', got '${healthPath}'`)
  if (problems.length) throw new ContainerTargetError(problems)
  return { image, reference: image === referenceImage, port, healthPath, startupTimeoutMs }
}
