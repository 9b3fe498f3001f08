import type { FastifyInstance } from 'fastify'
import type { ReferenceContext } from '../context'
import { SALES_PREFIX } from '../auth-guard'
import { notFound, tenantOf, writableQuote } from './access'
import type { Ledger } from './ledger'
import { otherProducerPdf, tinyPdf } from './pdf'

/** Generate quote documents (answers the main document) and download any document by id. */
export function registerDocumentRoutes(app: FastifyInstance, ctx: ReferenceContext, ledger: Ledger): void {
  app.post<{ Params: { id: string } }>(`${SALES_PREFIX}/sales/policies/:id/generated-documents`, async (req, reply) => {
    const quote = writableQuote(ledger, ctx, req, reply, req.params.id, 'documents')
    if (!quote) return reply
    // sales-document-of-other-quote: the document is made from the quote that had a document before this one
    const previous = ctx.defects.has('sales-document-of-other-quote')
      ? [...ledger.documents.values()].reverse().find((x) => x.tenant === quote.tenant && x.quoteId !== quote.id)
      : undefined
    // (the first document of a tenant names a neighbour's number: the defect shows on a fresh reference too)
    const subject = previous?.quoteId ?? (ctx.defects.has('sales-document-of-other-quote') ? `${quote.id}-1` : quote.id)
    const f = quote.financials
    const policy = (quote.data['policy'] ?? {}) as Record<string, unknown>
    const write = ctx.options.documentProducer === 'other' ? otherProducerPdf : tinyPdf
    const written = write(`Quote ${subject} (${quote.product})`, [
      `Period: ${String(policy['dateInception'])} - ${String(policy['dateExpiry'])}`,
      `Premium: ${f ? `${f.periodPremium.toFixed(2)} ${f.currency}` : 'not calculated'}`,
      `Installments: ${quote.installments?.length ?? 0}`,
    ])
    // sales-document-truncated: the file is cut before its trailer (it still starts %PDF-)
    const content = ctx.defects.has('sales-document-truncated')
      ? written.subarray(0, written.lastIndexOf('startxref') - 1)
      : written
    const doc = ledger.addDocument({
      tenant: quote.tenant,
      quoteId: quote.id,
      name: `quote-${quote.id}.pdf`,
      contentType: 'application/pdf',
      content,
    })
    quote.documents.push(doc.id)
    return reply
      .code(200)
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${doc.name}"`)
      .header('content-location', `${SALES_PREFIX}/documents/${doc.id}`)
      .header('x-document-id', doc.id)
      .send(content)
  })

  app.get<{ Params: { id: string } }>(`${SALES_PREFIX}/documents/:id`, async (req, reply) => {
    const own =
      ledger.document(tenantOf(req), req.params.id) ??
      (ctx.defects.has('sales-document-other-tenant') ? ledger.documents.get(req.params.id) : undefined)
    const first =
      own && ctx.defects.has('sales-document-first-of-tenant')
        ? [...ledger.documents.values()].find((x) => x.tenant === own.tenant)
        : undefined
    const doc = first ?? own
    if (!doc && ctx.defects.has('sales-document-unknown-200'))
      return reply.code(200).header('content-type', 'application/pdf').send(Buffer.alloc(0))
    if (!doc) return notFound(reply, 'document', req.params.id)
    const type = ctx.defects.has('sales-document-wrong-type') ? 'text/plain' : doc.contentType
    const body = ctx.defects.has('sales-document-empty') ? Buffer.alloc(0) : doc.content
    return reply
      .code(200)
      .header('content-type', type)
      .header('content-disposition', `attachment; filename="${doc.name}"`)
      .send(body)
  })
}
