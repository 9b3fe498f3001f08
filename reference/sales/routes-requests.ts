import type { FastifyInstance } from 'fastify'
import type { ReferenceContext } from '../context'
import { SALES_PREFIX } from '../auth-guard'
import { notFound, tenantOf } from './access'
import type { Ledger } from './ledger'
import type { RequestRecord } from './records'

/**
 * GET /requests/{id}: pending/success/failure spelled as the instance is configured; 423 while pending with
 * longPolling.
 */
export function registerRequestRoutes(app: FastifyInstance, ctx: ReferenceContext, ledger: Ledger): void {
  const view = (r: RequestRecord): Record<string, unknown> =>
    ctx.defects.has('sales-request-status-bad-shape')
      ? { id: r.id, state: ctx.options.statusSpelling[r.status], ...(r.data !== undefined ? { data: r.data } : {}) }
      : {
          requestId: r.id,
          status: ctx.options.statusSpelling[r.status],
          ...(r.data !== undefined ? { data: r.data } : {}),
        }

  // requests whose success was already read once (sales-request-status-regresses)
  const reported = new Set<string>()
  app.get<{ Params: { requestId: string }; Querystring: { longPolling?: string } }>(
    `${SALES_PREFIX}/requests/:requestId`,
    async (req, reply) => {
      const request =
        ledger.request(tenantOf(req), req.params.requestId) ??
        (ctx.defects.has('sales-request-other-tenant') ? ledger.requests.get(req.params.requestId) : undefined)
      if (!request) {
        if (ctx.defects.has('sales-request-unknown-200'))
          return reply.send({ requestId: req.params.requestId, status: ctx.options.statusSpelling.pending })
        return notFound(reply, 'request', req.params.requestId)
      }
      const long = req.query.longPolling === 'true' || req.query.longPolling === '1'
      if (long && request.status === 'pending') {
        const deadline = Date.now() + ctx.options.longPollMaxMs
        while (request.status === 'pending' && Date.now() < deadline && !ledger.isClosed) {
          await ledger.sleep(Math.min(25, Math.max(1, Math.min(request.readyAt, deadline) - Date.now())))
          if (Date.now() >= deadline) break
        }
        if (request.status === 'pending') return reply.code(423).send(view(request))
      }
      if (ctx.defects.has('sales-request-status-regresses') && request.status === 'success') {
        if (reported.has(request.id))
          return reply.send({ requestId: request.id, status: ctx.options.statusSpelling.pending })
        reported.add(request.id)
      }
      return reply.send(view(request))
    },
  )
}
