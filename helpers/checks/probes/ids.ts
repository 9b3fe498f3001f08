import { createHash } from 'node:crypto'
import type { IdKind, IdStyle } from './settings'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The style of an id the run has seen: a JSON integer or digits, a UUID, another string; undefined for no id. */
export function styleOf(seen: unknown): IdStyle | undefined {
  if (typeof seen === 'number' && Number.isSafeInteger(seen)) return 'integer'
  if (typeof seen !== 'string' || seen === '') return undefined
  if (/^[0-9]+$/.test(seen)) return 'integer'
  return UUID.test(seen) ? 'uuid' : 'string'
}

/**
 * An id of the given style that names nothing on the target, the same for one run and family:
 * - integer: 2 000 000 000 plus up to 10^8 from the run's seed (within a signed 32-bit integer, far above any
 *   counter a test tenant reaches);
 * - uuid: a version-4 UUID hashed from the run id (unguessable, so never handed out);
 * - string: `missing-<run id>-<family>`.
 */
export function missingId(style: IdStyle, run: { runId: string; seed: number }, kind: IdKind): string {
  if (style === 'integer') return String(2_000_000_000 + (run.seed % 100_000_000))
  if (style === 'string') return `missing-${run.runId.toLowerCase().replace(/[^a-z0-9]/g, '')}-${kind}`
  const h = createHash('sha256').update(`${run.runId}:${kind}`).digest('hex')
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}
