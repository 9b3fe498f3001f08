import type { FastifyInstance } from 'fastify'
import { errorBody, principalOf, type ReferenceContext } from '../context'
import { SALES_PREFIX } from '../auth-guard'
import { findQuote, notFound, quoteDocument, schemaPath, writableQuote } from './access'
import type { Ledger } from './ledger'
import { assignObjectIds, mergeQuoteData } from './merge'
import { isProduct, SCHEMA_TYPE, type ValidationErrors } from './schemes'
import { ACTION_NAME, actionsOf, allowed } from './states'
import { storedForm } from './stored-form'
import { raceWithPartner } from '../defects/concurrency'
import { tornWrite } from './racing'

type Json = Record<string, unknown>

function isPlainObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** The sales-get-numbers-as-strings defect: every number under `key` sent as a string. */
function numbersAsStrings(doc: Json, key: string): Json {
  const walk = (v: unknown): unknown =>
    typeof v === 'number'
      ? String(v)
      : Array.isArray(v)
        ? v.map(walk)
        : isPlainObject(v)
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
          : v
  return { ...doc, [key]: walk(doc[key]) }
}

function invalid(errors: ValidationErrors, ctx: ReferenceContext): Json {
  const shown = ctx.defects.has('sales-validation-no-field') ? { data: ['The given data was invalid.'] } : errors
  return errorBody('The given data was invalid.', { errors: shown })
}

/** Quote create, get, update and the actions endpoint (locks). */
export function registerQuoteRoutes(app: FastifyInstance, ctx: ReferenceContext, ledger: Ledger): void {
  app.post(`${SALES_PREFIX}/sales/policies/create`, async (req, reply) => {
    const principal = principalOf(req)
    const body = req.body
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return reply.code(422).send(invalid({ schema: ['The body must be a JSON object.'] }, ctx))
    const { schema, ...data } = body as Json
    const s = (schema ?? {}) as Json
    if (s['type'] !== SCHEMA_TYPE || typeof s['name'] !== 'string' || !isProduct(s['name'])) {
      return reply
        .code(422)
        .send(invalid({ 'schema.name': [`The schema.name field must name a product (${SCHEMA_TYPE}).`] }, ctx))
    }
    const product = s['name']
    if (!ctx.defects.has('sales-create-accepts-invalid')) {
      // defect exercise-restricted-create-hidden-accepted: create validates with the full schema
      const errors = ledger.schemes.validate(
        product,
        body,
        ctx.defects.has('exercise-restricted-create-hidden-accepted')
          ? [...principal.rights, 'schemes:full']
          : principal.rights,
      )
      if (errors) return reply.code(422).send(invalid(errors, ctx))
    }
    const stored = storedForm(data, ctx)
    assignObjectIds(stored, () => ledger.id())
    const quote = ledger.createQuote({
      tenant: principal.tenant,
      owner: principal.username,
      product,
      kind: 'new',
      data: stored,
    })
    return reply.code(200).send(quoteDocument(quote, ctx.ids))
  })

  app.get<{ Params: { policyId: string } }>(`${SALES_PREFIX}/sales/policies/:policyId`, async (req, reply) => {
    const quote = findQuote(ledger, ctx, req, req.params.policyId)
    if (!quote) return notFound(reply, 'quote', req.params.policyId, ctx)
    const warnings = quote.financials
      ? []
      : [{ code: 'not-calculated', title: 'The quote has not been calculated yet' }]
    const meta: Json = { status: quote.state, version: quote.version, warnings, errors: [] }
    if (!ctx.defects.has('sales-get-no-schema-path')) meta['schemaPath'] = schemaPath(quote)
    const data = quoteDocument(quote, ctx.ids)
    return reply.send({
      data: ctx.defects.has('sales-get-numbers-as-strings') ? numbersAsStrings(data, 'objects') : data,
      meta,
    })
  })

  app.put<{ Params: { policyId: string } }>(`${SALES_PREFIX}/sales/policies/:policyId/`, async (req, reply) => {
    if (ctx.defects.has('sales-refused-update-applied')) {
      const q = findQuote(ledger, ctx, req, req.params.policyId)
      if (q && !ledger.isLocked(q) && !allowed(q.state, 'update') && isPlainObject(req.body)) {
        const { schema: _s, ...patch } = req.body
        q.data = mergeQuoteData(q.data, patch, () => ledger.id())
      }
    }
    const quote = writableQuote(ledger, ctx, req, reply, req.params.policyId, 'update')
    if (!quote) return reply
    const patch = req.body
    if (patch === null || typeof patch !== 'object' || Array.isArray(patch))
      return reply.code(422).send(invalid({ data: ['The body must be a JSON object.'] }, ctx))
    const { schema: _ignored, ...rest } = patch as Json
    // concurrency-lost-update: the merge of what was read before a wait, written after it
    const base = ctx.defects.has('concurrency-lost-update') ? structuredClone(quote.data) : quote.data
    if (ctx.defects.has('concurrency-lost-update')) await raceWithPartner(quote)
    const merged = mergeQuoteData(base, storedForm(rest, ctx), () => ledger.id())
    const namedChannel = isPlainObject(rest['policy']) && 'salesChannel' in rest['policy']
    if (ctx.defects.has('sales-update-resets-unnamed') && !namedChannel && isPlainObject(merged['policy']))
      merged['policy'] = { ...merged['policy'], salesChannel: 'broker' }
    const rights = principalOf(req).rights
    const errors = !isProduct(quote.product)
      ? null
      : ledger.schemes.validate(
          quote.product,
          { schema: { type: SCHEMA_TYPE, name: quote.product }, ...merged },
          ctx.defects.has('sales-restricted-write-hidden-applied') ? [...rights, 'schemes:full'] : rights,
        )
    if (errors) {
      // stored before the answer is chosen: the refusal does not undo it
      if (ctx.defects.has('sales-restricted-refused-write-applied') && !rights.includes('schemes:full'))
        quote.data = merged
      return reply.code(422).send(invalid(errors, ctx))
    }
    if (ctx.defects.has('concurrency-torn-update'))
      return reply.code(200).send(await tornWrite(ledger, ctx, quote, storedForm(rest, ctx)))
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

  /** The lock each quote's empty list was served for (the sales-actions-empty-while-locked defect). */
  const emptyServed = new WeakMap<object, number>()
  /**
   * The change (its lock) each quote's full list was first answered for (the sales-actions-flicker-after-calculate
   * defect).
   */
  const reads = new WeakMap<object, number>()
  app.get<{ Params: { id: string }; Querystring: { longPolling?: string } }>(
    `${SALES_PREFIX}/sales/policies/actions/:id`,
    async (req, reply) => {
      const quote = findQuote(ledger, ctx, req, req.params.id)
      if (!quote) return notFound(reply, 'quote', req.params.id)
      const stuck = ctx.defects.has('sales-actions-never-unlock')
      const long = req.query.longPolling === 'true' || req.query.longPolling === '1'
      if (long && !stuck && ledger.isLocked(quote)) await ledger.waitUnlocked(quote, ctx.options.longPollMaxMs)
      else if (long && stuck) await ledger.sleep(Math.min(ctx.options.longPollMaxMs, 200))
      // sales-actions-empty-while-locked: the first read after each change is answered 200 with no actions instead of
      // 204 (423 with long polling, without waiting), as if still locked (whether the lock is still on when the read
      // arrives depends on the load, not the defect)
      if (
        !stuck &&
        ctx.defects.has('sales-actions-empty-while-locked') &&
        emptyServed.get(quote) !== quote.lockedUntil
      ) {
        emptyServed.set(quote, quote.lockedUntil)
        return reply.send({ data: [], meta: { status: quote.state } })
      }
      if (stuck || ledger.isLocked(quote))
        return long ? reply.code(423).send(errorBody('quote is locked', { code: 'locked' })) : reply.code(204).send()
      const stale =
        (quote.state === 'bound' && ctx.defects.has('sales-bound-actions-unchanged')) ||
        (quote.state === 'declined' && ctx.defects.has('sales-declined-actions-unchanged'))
      let actions = actionsOf(ctx.defects.has('sales-actions-ignore-state') || stale ? 'calculated' : quote.state)
      if (ctx.defects.has('sales-actions-flicker-after-calculate') && quote.state === 'calculated') {
        // a replica lagging behind answers the reads after the first one since the last change
        if (reads.get(quote) === quote.lockedUntil) actions = actions.filter((a) => a !== ACTION_NAME.bind)
        reads.set(quote, quote.lockedUntil)
      }
      return reply.send({
        data: ctx.defects.has('sales-actions-bad-shape') ? Object.fromEntries(actions.map((a) => [a, true])) : actions,
        meta: { status: quote.state },
        links: {
          'quote:changes': `${SALES_PREFIX}/sales/policies/${quote.id}/changes`,
          self: `${SALES_PREFIX}/sales/policies/actions/${quote.id}`,
        },
      })
    },
  )
}
