import { ChaosSpecError, parseChaos, type ChaosOptions } from './spec'

/**
 * REFERENCE_CHAOS for the embedded reference, e.g. "503=0.05,latency=0-200,seed=7".
 * Throws ChaosSpecError (message starts with the variable name and names the field).
 */
export function chaosFromEnv(env: NodeJS.ProcessEnv, embedded: boolean): ChaosOptions | undefined {
  const raw = env.REFERENCE_CHAOS?.trim()
  if (!raw) return undefined
  if (!embedded)
    throw new ChaosSpecError(
      'REFERENCE_CHAOS: only applies to the embedded reference service; unset SALES_BASE_URL (or start the reference ' +
        'with --chaos)',
    )
  try {
    return parseChaos(raw)
  } catch (e) {
    throw new ChaosSpecError(`REFERENCE_CHAOS: ${(e as Error).message}`)
  }
}
