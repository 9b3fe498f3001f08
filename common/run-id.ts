import { randomBytes } from 'node:crypto'

/**
 * A new run id, `run-<yyyymmdd>-<6 hex>`: it tags the data a run creates and names its reports. The one place the
 * formula is written; CONFORMANCE_RUN_ID, when set, is used instead (or the run plan's, common/run-plan.ts).
 */
export function newRunId(now: Date = new Date()): string {
  return `run-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(3).toString('hex')}`
}
