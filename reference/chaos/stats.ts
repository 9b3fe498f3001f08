import type { FastifyInstance } from 'fastify'
import { matchOperation, operation, type OperationId } from '../../common/operations'
import type { ChaosMonkey } from './monkey'
import { formatChaos } from './spec'

/** The operations that create something, grouped by what they create (the side effects that must never double). */
export const CREATING_OPERATIONS: Readonly<Record<string, readonly OperationId[]>> = Object.freeze({
  quotes: ['sales.quote.create', 'sales.quote.mta'],
  policies: ['sales.quote.issue'],
  payments: ['sales.payments.insert'],
  subscriptions: ['webhooks.subscription.create'],
})

/** One answered request, as the service saw it (epoch ms). */
export interface TimelineEntry {
  op: string
  method: string
  path: string
  status: number
  receivedAt: number
  sentAt: number
}

export interface ReferenceStats {
  /** Per catalogue operation: answers by status. */
  operations: Record<string, Record<string, number>>
  /** Per kind of entity: requests the service handled and answered 2xx (each created one). */
  created: Record<string, number>
  /** Per POST operation: answered 2xx (a side effect happened). */
  postSuccesses: Record<string, number>
  chaos?: { spec: string; injected: ChaosMonkey['injected'] }
}

const MAX_TIMELINE = 200_000

/**
 * Counts, at the service's HTTP boundary, what it answered: per operation and status. Reference-only
 * control routes: GET /__reference/stats and GET /__reference/timeline (absent on real targets).
 */
export class TrafficStats {
  private readonly operations = new Map<OperationId, Record<string, number>>()
  private readonly timeline: TimelineEntry[] = []
  private readonly receivedAt = new WeakMap<object, number>()

  constructor(private readonly monkey?: ChaosMonkey) {}

  register(app: FastifyInstance): void {
    app.addHook('onRequest', async (req) => {
      this.receivedAt.set(req, Date.now())
    })
    app.addHook('onResponse', async (req, reply) => {
      const path = req.url.split('?')[0] ?? ''
      const op = matchOperation(req.method, path)
      if (!op) return
      const counts = this.operations.get(op.id) ?? {}
      const status = reply.statusCode
      counts[status] = (counts[status] ?? 0) + 1
      this.operations.set(op.id, counts)
      if (this.timeline.length < MAX_TIMELINE) {
        this.timeline.push({
          op: op.id,
          method: req.method,
          path,
          status,
          receivedAt: this.receivedAt.get(req) ?? Date.now(),
          sentAt: Date.now(),
        })
      }
    })
    app.get('/__reference/stats', async () => this.snapshot())
    app.get('/__reference/timeline', async () => ({ entries: this.timeline }))
  }

  snapshot(): ReferenceStats {
    const ok = (id: OperationId) =>
      Object.entries(this.operations.get(id) ?? {}).reduce(
        (n, [s, c]) => (Number(s) >= 200 && Number(s) < 300 ? n + c : n),
        0,
      )
    const operations = Object.fromEntries(this.operations)
    const postSuccesses: Record<string, number> = {}
    for (const id of this.operations.keys()) if (operation(id).method === 'POST') postSuccesses[id] = ok(id)
    const created = Object.fromEntries(
      Object.entries(CREATING_OPERATIONS).map(([kind, ids]) => [kind, ids.reduce((n, id) => n + ok(id), 0)]),
    )
    return {
      operations,
      created,
      postSuccesses,
      ...(this.monkey
        ? { chaos: { spec: formatChaos(this.monkey.options), injected: { ...this.monkey.injected } } }
        : {}),
    }
  }
}
