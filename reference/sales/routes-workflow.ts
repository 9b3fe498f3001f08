import type { FastifyInstance } from 'fastify'
import { principalOf, type ReferenceContext } from '../context'
import { SALES_PREFIX } from '../auth-guard'
import { writableQuote } from './access'
import { startIssue } from './issue-process'
import type { Ledger } from './ledger'
import { raceWindow } from '../defects/concurrency'

function text(body: unknown, key: string): string | undefined {
  const v = (body as Record<string, unknown> | null | undefined)?.[key]
  return typeof v === 'string' ? v : undefined
}

/** Referral (async), decline (final), bind, issue (async request). */
export function registerWorkflowRoutes(app: FastifyInstance, ctx: ReferenceContext, ledger: Ledger): void {
  app.post<{ Params: { policyId: string } }>(
    `${SALES_PREFIX}/sales/policies/:policyId/referrals`,
    async (req, reply) => {
      if (ctx.defects.has('sales-referral-unsupported'))
        return reply.code(501).send({ message: 'referral is not implemented' })
      const quote = writableQuote(ledger, ctx, req, reply, req.params.policyId, 'referral')
      if (!quote) return reply
      if (!ctx.defects.has('sales-referral-no-lock')) {
        const comment = text(req.body, 'comment')
        if (comment !== undefined) quote.referralComment = comment
        ledger.setState(quote, 'referred', comment)
        ledger.lock(quote, ctx.options.referralMs, 'referral')
      }
      return reply.code(204).send()
    },
  )

  app.post<{ Params: { policyId: string } }>(`${SALES_PREFIX}/sales/policies/:policyId/decline`, async (req, reply) => {
    const quote = writableQuote(ledger, ctx, req, reply, req.params.policyId, 'decline')
    if (!quote) return reply
    const reason = text(req.body, 'reason')
    if (reason !== undefined) quote.declineReason = reason
    ledger.setState(quote, 'declined', reason)
    return reply.code(204).send()
  })

  app.post<{ Params: { policyId: string } }>(`${SALES_PREFIX}/sales/policies/:policyId/bind`, async (req, reply) => {
    const quote = writableQuote(ledger, ctx, req, reply, req.params.policyId, 'bind')
    if (!quote) return reply
    ledger.setState(quote, 'bound')
    ledger.lock(quote, ctx.options.lockMs, 'bind')
    return reply.code(204).send()
  })

  app.post<{ Params: { id: string } }>(`${SALES_PREFIX}/sales/policies/:id/issue`, async (req, reply) => {
    const quote = writableQuote(ledger, ctx, req, reply, req.params.id, 'issue')
    if (!quote) return reply
    // concurrency-double-issue: checked, then a wait before the request starts (and locks the quote)
    if (ctx.defects.has('concurrency-double-issue')) await raceWindow()
    const request = startIssue(ledger, ctx, quote, principalOf(req).username)
    return reply
      .code(ctx.defects.has('sales-issue-200') ? 200 : 202)
      .header('location', `${SALES_PREFIX}/requests/${request.id}`)
      .send({ requestId: request.id })
  })
}
