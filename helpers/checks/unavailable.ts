import type { HttpResult } from '../client/http/types'

/**
 * The target said it is unavailable (503, or 429 throttling) and when to come back (Retry-After), later than the run
 * could wait (helpers/client/http/retry.ts did not retry): the requirement could not be judged. The check errs with the
 * operation named (INCONCLUSIVE), it does not fail (issue 27; docs/targets.md "Whose fault a stop is").
 */
export class TargetUnavailable extends Error {
  constructor(readonly res: HttpResult) {
    const op = res.exchange?.operationId ?? `${res.request.method} ${res.request.url}`
    super(
      `the target said it is unavailable: ${op} answered ${res.status} with ` +
        `Retry-After: ${String(res.headers['retry-after']).slice(0, 40)}, beyond what the run can wait; this ` +
        `requirement could not be judged`,
    )
    this.name = 'TargetUnavailable'
  }
}

/** A 503 or 429 that carries a Retry-After: the service asked to be called again later. */
export function saysComeBackLater(res: HttpResult): boolean {
  return (res.status === 503 || res.status === 429) && res.headers?.['retry-after'] !== undefined
}
