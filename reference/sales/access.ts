import type { FastifyReply, FastifyRequest } from 'fastify'
import { errorBody, principalOf, type ReferenceContext } from '../context'
import type { Ledger } from './ledger'
import type { IdFactory } from '../ids'
import type { QuoteRecord } from './records'
import { isDefectName } from '../defects/catalogue'
import { SCHEMA_TYPE } from './schemes'
import { actionsOf, allowed, type QuoteOperation } from './states'

/** The caller's tenant (the auth guard checked the header against the token). */
export function tenantOf(req: FastifyRequest): string {
  return principalOf(req).tenant
}

/** The quote in the caller's tenant (defect sales-tenant-leak: in any tenant), or undefined. */
export function findQuote(
  ledger: Ledger,
  ctx: ReferenceContext,
  req: FastifyRequest,
  id: string,
): QuoteRecord | undefined {
  if (ctx.defects.has('sales-tenant-leak')) return ledger.quotes.get(id)
  return ledger.quote(tenantOf(req), id)
}

export function notFound(reply: FastifyReply, what: string, id: string, ctx?: ReferenceContext): FastifyReply {
  if (ctx?.defects.has('sales-error-not-json'))
    return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send(`${what} not found`)
  return reply.code(404).send(errorBody(`${what} ${id} not found`, { code: 'not-found' }))
}

/** 423 while background work runs on the quote. */
export function lockedReply(reply: FastifyReply, quote: QuoteRecord): FastifyReply {
  return reply.code(423).send(
    errorBody(`quote ${quote.id} is locked (${quote.lockReason ?? 'processing'}); wait for the actions endpoint`, {
      code: 'locked',
    }),
  )
}

/** 409 with the state and what is allowed in it. Nothing changes. */
export function notAllowedReply(reply: FastifyReply, quote: QuoteRecord, op: QuoteOperation): FastifyReply {
  return reply.code(409).send(
    errorBody(`${op} is not allowed for a quote in state ${quote.state}`, {
      code: 'action-not-allowed',
      state: quote.state,
      allowed: actionsOf(quote.state),
    }),
  )
}

/**
 * The common guard of write operations: the quote exists in the tenant, is not locked and allows `op`.
 * Sends the error and returns undefined otherwise.
 */
export function writableQuote(
  ledger: Ledger,
  ctx: ReferenceContext,
  req: FastifyRequest,
  reply: FastifyReply,
  id: string,
  op: QuoteOperation,
): QuoteRecord | undefined {
  const quote =
    findQuote(ledger, ctx, req, id) ??
    (op === 'update' && ctx.defects.has('sales-update-other-tenant') ? ledger.quotes.get(id) : undefined) ??
    (op === 'calculate' && ctx.defects.has('exercise-calculate-other-tenant') ? ledger.quotes.get(id) : undefined)
  if (!quote) {
    if (ctx.defects.has('sales-unknown-quote-500')) reply.code(500).send(errorBody('internal server error'))
    else notFound(reply, 'quote', id)
    return undefined
  }
  if (ledger.isLocked(quote)) {
    lockedReply(reply, quote)
    return undefined
  }
  const d = (name: Parameters<typeof ctx.defects.has>[0]) => ctx.defects.has(name)
  const bypass =
    (op === 'bind' && quote.state === 'declined' && d('sales-declined-can-bind')) ||
    (op === 'issue' && quote.state === 'declined' && d('sales-declined-can-issue')) ||
    (op === 'issue' && quote.state === 'calculated' && d('sales-issue-unbound')) ||
    (op === 'issue' && quote.state === 'issued' && d('sales-issued-reissue')) ||
    (op === 'calculate' && quote.state === 'declined' && d('sales-declined-can-calculate')) ||
    (op === 'calculate' && quote.state === 'referred' && d('sales-referred-can-calculate')) ||
    (op === 'referral' && quote.state === 'referred' && d('sales-referred-can-referral')) ||
    (op === 'decline' && quote.state === 'issued' && d('sales-issued-can-decline')) ||
    (op === 'bind' && quote.state === 'draft' && d('sales-draft-can-bind')) ||
    // sales-<state>-accepts-<op>: sales-bound-accepts-update, sales-bound-accepts-bind, ...
    cellDefect(ctx, `sales-${quote.state}-accepts-${op}`)
  // offered (the actions list still names it) and refused all the same: one cell of the table each
  if (
    (!allowed(quote.state, op) && !bypass) ||
    (allowed(quote.state, op) && cellDefect(ctx, `sales-${quote.state}-${op}-refused`))
  ) {
    notAllowedReply(reply, quote, op)
    return undefined
  }
  return quote
}

/** A defect of one cell of the operation x state table, by its name (reference/defects/sales.ts). */
function cellDefect(ctx: ReferenceContext, name: string): boolean {
  return isDefectName(name) && ctx.defects.has(name)
}

/** "policy/regular/home/1": the schema the quote follows. */
export function schemaPath(quote: QuoteRecord): string {
  return `${SCHEMA_TYPE}/regular/${quote.product}/1`
}

/** The quote as a product document: {schema, policy: {id, ...}, customer, objects}. */
export function quoteDocument(quote: QuoteRecord, ids: IdFactory): Record<string, unknown> {
  const policy = (quote.data['policy'] ?? {}) as Record<string, unknown>
  return {
    schema: { type: SCHEMA_TYPE, name: quote.product },
    ...quote.data,
    policy: { id: ids.wire(quote.id), ...policy, ...(quote.financials ? { financials: quote.financials } : {}) },
  }
}
