import type { FastifyInstance } from 'fastify'
import { errorBody, principalOf, type ReferenceContext } from '../context'
import { SALES_PREFIX } from '../auth-guard'
import { findQuote, notFound, quoteDocument, schemaPath, writableQuote } from './access'
import type { Ledger } from './ledger'
import { assignObjectIds, mergeQuoteData } from './merge'
import { isProduct, SCHEMA_TYPE, type ValidationErrors } from './schemes'
import { actionsOf } from './states'

type Json = Record<string, unknown>

function invalid(errors: ValidationErrors, ctx: ReferenceContext): Json {
  const shown = ctx.defects.has('sales-validation-no-field') ? { data: ['The given data was invalid.'] } : errors
  return errorBody('The given data was invalid.', { errors: shown })
}

/** Quote create, get, update and the actions endpoint (locks). */
export function registerQuoteRoutes(app: FastifyInstance, ctx: ReferenceContext, ledger: Ledger): void {
  app.post(`${SALES_PREFIX}/sales/policies/create`, async (req, reply) => {
    const principal = principalOf(req)
    const body = req.body
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return reply.code(422).send(invalid({ schema: ['The body must be a JSON object.'] }, ctx))
    const { schema, ...data } = body as Json
    const s = (schema ?? {}) as Json
    if (s['type'] !== SCHEMA_TYPE || typeof s['name'] !== 'string' || !isProduct(s['name'])) {
      return reply.code(422).send(invalid({ 'schema.name': [`The schema.name field must name a product (${SCHEMA_TYPE}).`] }, ctx))
    }
    const product = s['name']
    if (!ctx.defects.has('sales-create-accepts-invalid')) {
      const errors = ledger.schemes.validate(product, body, principal.rights)
      if (errors) return reply.code(422).send(invalid(errors, ctx))
    }
    assignObjectIds(data, () => ledger.id())
    const quote = ledger.createQuote({ tenant: principal.tenant, owner: principal.username, product, kind: 'new', data })
    return reply.code(200).send(quoteDocument(quote, ctx.ids))
  })

  app.get<{ Params: { policyId: string } }>(`${SALES_PREFIX}/sales/policies/:policyId`, async (req, reply) => {
    const quote = findQuote(ledger, ctx, req, req.params.policyId)
    if (!quote) return notFound(reply, 'quote', req.params.policyId, ctx)
    const warnings = quote.financials ? [] : [{ code: 'not-calculated', title: 'The quote has not been calculated yet' }]
    const meta: Json = { status: quote.state, version: quote.version, warnings, errors: [] }
    if (!ctx.defects.has('sales-get-no-schema-path')) meta['schemaPath'] = schemaPath(quote)
    return reply.send({ data: quoteDocument(quote, ctx.ids), meta })
  })

  app.put<{ Params: { policyId: string } }>(`${SALES_PREFIX}/sales/policies/:policyId/`, async (req, reply) => {
    const quote = writableQuote(ledger, ctx, req, reply, req.params.policyId, 'update')
    if (!quote) return reply
    const patch = req.body
    if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return reply.code(422).send(invalid({ data: ['The body must be a JSON object.'] }, ctx))
    const { schema: _ignored, ...rest } = patch as Json
    const merged = mergeQuoteData(quote.data, rest, () => ledger.id())
    const errors = !isProduct(quote.product) ? null : ledger.schemes.validate(quote.product, { schema: { type: SCHEMA_TYPE, name: quote.product }, ...merged }, principalOf(req).rights)
    if (errors) return reply.code(422).send(invalid(errors, ctx))
    if (!ctx.defects.has('sales-update-ignored')) {
      quote.data = merged
      quote.version += 1
      delete quote.financials
      delete quote.installments
      if (quote.state !== 'draft') ledger.setState(quote, 'draft', 'data changed')
    }
    ledger.lock(quote, ctx.options.lockMs, 'update')
    return reply.code(200).send(quoteDocument(quote, ctx.ids))
  })

  app.get<{ Params: { id: string }; Querystring: { longPolling?: string } }>(`${SALES_PREFIX}/sales/policies/actions/:id`, async (req, reply) => {
    const quote = findQuote(ledger, ctx, req, req.params.id)
    if (!quote) return notFound(reply, 'quote', req.params.id)
    const stuck = ctx.defects.has('sales-actions-never-unlock')
    const long = req.query.longPolling === 'true' || req.query.longPolling === '1'
    if (long && !stuck && ledger.isLocked(quote)) await ledger.waitUnlocked(quote, ctx.options.longPollMaxMs)
    else if (long && stuck) await ledger.sleep(Math.min(ctx.options.longPollMaxMs, 200))
    if (stuck || ledger.isLocked(quote)) return long ? reply.code(423).send(errorBody('quote is locked', { code: 'locked' })) : reply.code(204).send()
    const actions = actionsOf(ctx.defects.has('sales-actions-ignore-state') ? 'calculated' : quote.state)
    return reply.send({
      data: ctx.defects.has('sales-actions-bad-shape') ? Object.fromEntries(actions.map((a) => [a, true])) : actions,
      meta: { status: quote.state },
      links: { 'quote:changes': `${SALES_PREFIX}/sales/policies/${quote.id}/changes`, self: `${SALES_PREFIX}/sales/policies/actions/${quote.id}` },
    })
  })
}
