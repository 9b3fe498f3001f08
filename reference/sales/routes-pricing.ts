import type { FastifyInstance } from 'fastify'
import { errorBody, type ReferenceContext } from '../context'
import { SALES_PREFIX } from '../auth-guard'
import { findQuote, notFound, quoteDocument, schemaPath, writableQuote } from './access'
import type { Ledger } from './ledger'
import { financialsOf, instalmentSchedule, periodPremium, round2 } from './pricing'
import type { QuoteRecord } from './records'
import { raceWindow } from '../defects/concurrency'

function notCalculated(quote: QuoteRecord): Record<string, unknown> {
  return errorBody(`quote ${quote.id} has not been calculated`, { code: 'not-calculated', state: quote.state })
}

/** Calculate, financials and the installments schedule. */
export function registerPricingRoutes(app: FastifyInstance, ctx: ReferenceContext, ledger: Ledger): void {
  /** The first calculation of each quote (the sales-calculation-stale and sales-schedule-stale defects serve it). */
  const first = new Map<string, Pick<QuoteRecord, 'financials' | 'installments'>>()
  /** A calculation after the quote's data changed since an earlier one (sales-calculation-gone-after-recalculation). */
  const changedAndRecalculated = (quote: QuoteRecord) =>
    quote.history.some((h) => h.note === 'data changed' && h.from === 'calculated')
  /** The quote whose calculation began last (the concurrency-calculation-cross-talk defect answers with it). */
  let lastBegun: QuoteRecord | undefined
  app.post<{ Params: { id: string } }>(`${SALES_PREFIX}/sales/policies/:id/calculate`, async (req, reply) => {
    const quote = writableQuote(ledger, ctx, req, reply, req.params.id, 'calculate')
    if (!quote) return reply
    // concurrency-calculate-reverts-update: the quote read before a wait is saved whole after it
    const readBefore = ctx.defects.has('concurrency-calculate-reverts-update') ? structuredClone(quote.data) : undefined
    lastBegun = quote
    if (readBefore || ctx.defects.has('concurrency-calculation-cross-talk')) await raceWindow()
    if (readBefore) quote.data = readBefore
    let premium = periodPremium(quote.product, quote.data)
    if (ctx.defects.has('sales-calculate-random')) premium = round2(premium * (0.9 + Math.random() * 0.2))
    if (ctx.defects.has('sales-premium-zero')) premium = 0
    const policy = (quote.data['policy'] ?? {}) as Record<string, unknown>
    const schedule = instalmentSchedule(
      premium,
      String(policy['dateInception'] ?? ''),
      String(policy['paymentFrequency'] ?? 'annual'),
    )
    if (ctx.defects.has('sales-installments-sum-wrong'))
      schedule[schedule.length - 1]!.premium = round2(schedule[schedule.length - 1]!.premium + 1)
    quote.financials = financialsOf(quote.product, quote.data, premium, schedule.length)
    quote.installments = schedule
    if (!first.has(quote.id))
      first.set(quote.id, { financials: structuredClone(quote.financials), installments: structuredClone(schedule) })
    if (quote.state !== 'calculated') ledger.setState(quote, 'calculated', 'calculated')
    ledger.lock(quote, ctx.options.lockMs, 'calculate')
    const shown = ctx.defects.has('concurrency-calculation-cross-talk') && lastBegun ? lastBegun : quote
    return reply.send({
      data: quoteDocument(shown, ctx.ids),
      meta: { status: shown.state, schemaPath: schemaPath(shown), warnings: [], errors: [] },
    })
  })

  app.get<{ Params: { id: string } }>(`${SALES_PREFIX}/sales/policies/:id/calculation`, async (req, reply) => {
    const quote = findQuote(ledger, ctx, req, req.params.id)
    if (!quote) return notFound(reply, 'quote', req.params.id)
    if (!quote.financials || !quote.installments) return reply.code(409).send(notCalculated(quote))
    if (ctx.defects.has('sales-calculation-gone-after-recalculation') && changedAndRecalculated(quote))
      return reply.code(409).send(notCalculated(quote))
    const shown = ctx.defects.has('sales-calculation-stale')
      ? (first.get(quote.id) ?? quote)
      : ctx.defects.has('sales-calculation-installments-stale')
        ? { financials: quote.financials, installments: first.get(quote.id)?.installments ?? quote.installments }
        : quote
    const body = {
      data: shown.financials,
      fields: [
        { name: 'periodPremium', title: 'Premium' },
        { name: 'tax', title: 'Insurance premium tax' },
        { name: 'adminFeeSum', title: 'Administration fee' },
        { name: 'total', title: 'Total payable' },
      ],
      installments: shown.installments,
    }
    // a literal no double holds (1e999, read as Infinity): JSON.stringify cannot write it, so the text is written as a
    // careless target would
    if (ctx.defects.has('outputs-calculation-total-not-finite'))
      return reply
        .type('application/json')
        .send(JSON.stringify({ ...body, data: { ...body.data, total: 'NOT-FINITE' } }).replace('"NOT-FINITE"', '1e999'))
    return reply.send(body)
  })

  app.get<{ Params: { policyId: string } }>(
    `${SALES_PREFIX}/sales/policies/:policyId/installments-schedule`,
    async (req, reply) => {
      const quote = findQuote(ledger, ctx, req, req.params.policyId)
      if (!quote) return notFound(reply, 'quote', req.params.policyId)
      if (!quote.financials || !quote.installments) return reply.code(409).send(notCalculated(quote))
      const instalments = ctx.defects.has('sales-schedule-stale')
        ? (first.get(quote.id)?.installments ?? quote.installments)
        : quote.installments
      // the rounding rest of the last installment dropped
      if (ctx.defects.has('sales-schedule-last-cent-dropped') && instalments.length > 0)
        return reply.send({
          instalments: instalments.map((i, n) =>
            n === instalments.length - 1 ? { ...i, premium: round2(i.premium - 0.01) } : i,
          ),
        })
      return reply.send({ instalments })
    },
  )
}
