import { isOperationId, operation } from '../../common/operations'
import type { TrafficLine } from '../../helpers/client/http/traffic-file'
import { CREATING_OPERATIONS, type ReferenceStats } from '../../reference/chaos/stats'

export interface SideEffectComparison {
  /** Per POST operation: 2xx answers the suite received (traffic) vs 2xx answers the service gave (stats). */
  operations: { id: string; suite: number; service: number }[]
  /** Per kind of entity (quotes, policies, payments, subscriptions): created as the suite saw it vs the service. */
  entities: { kind: string; suite: number; service: number }[]
  mismatches: string[]
  /** Exchanges that were a retry (attempt > 1), by method. */
  retries: Record<string, number>
  /** POST exchanges sent more than once for one call (must be 0). */
  postRetries: number
}

const ok = (s: number | undefined) => s !== undefined && s >= 200 && s < 300

/**
 * Compares what the suite meant to create (successful create POSTs in its recorded traffic) with what the
 * service did (its own count of handled POSTs answered 2xx). Any difference is a duplicate or lost side effect.
 */
export function compareSideEffects(traffic: TrafficLine[], stats: ReferenceStats): SideEffectComparison {
  const suiteOk = new Map<string, number>()
  const retries: Record<string, number> = {}
  let postRetries = 0
  for (const t of traffic) {
    if ((t.attempt ?? 1) > 1) {
      retries[t.method] = (retries[t.method] ?? 0) + 1
      if (t.method === 'POST') postRetries += 1
    }
    if (t.method === 'POST' && t.operationId && ok(t.status))
      suiteOk.set(t.operationId, (suiteOk.get(t.operationId) ?? 0) + 1)
  }
  const ids = new Set(
    [...suiteOk.keys(), ...Object.keys(stats.postSuccesses)].filter(
      (id) => isOperationId(id) && operation(id).method === 'POST',
    ),
  )
  const operations = [...ids]
    .sort()
    .map((id) => ({ id, suite: suiteOk.get(id) ?? 0, service: stats.postSuccesses[id] ?? 0 }))
  const entities = Object.entries(CREATING_OPERATIONS).map(([kind, list]) => ({
    kind,
    suite: list.reduce((n, id) => n + (suiteOk.get(id) ?? 0), 0),
    service: stats.created[kind] ?? 0,
  }))
  const mismatches = [
    ...operations
      .filter((o) => o.suite !== o.service)
      .map((o) => `${o.id}: the suite saw ${o.suite} success(es), the service answered ${o.service}`),
    ...(postRetries > 0 ? [`${postRetries} POST(s) were sent again`] : []),
  ]
  return { operations, entities, mismatches, retries, postRetries }
}
