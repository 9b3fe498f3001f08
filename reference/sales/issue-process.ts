import type { ReferenceContext } from '../context'
import type { Ledger } from './ledger'
import type { QuoteRecord, RequestRecord } from './records'

/** Reference-only trigger of an issue failure: this text in /policy/externalReference (docs/sales.md). */
export const ISSUE_FAILURE_MARK = 'FAIL-ISSUE'

function failureTriggered(quote: QuoteRecord): boolean {
  const ref = (quote.data['policy'] as { externalReference?: unknown } | undefined)?.externalReference
  return typeof ref === 'string' && ref.includes(ISSUE_FAILURE_MARK)
}

/** Starts an issue request: pending for issueMs (the quote stays locked), then success or failure. */
export function startIssue(ledger: Ledger, ctx: ReferenceContext, quote: QuoteRecord, owner: string): RequestRecord {
  const request: RequestRecord = {
    id: ctx.ids.requestId(),
    tenant: quote.tenant,
    owner,
    kind: 'issue',
    quoteId: quote.id,
    createdAt: new Date().toISOString(),
    readyAt: Date.now() + ctx.options.issueMs,
    status: 'pending',
  }
  ledger.requests.set(request.id, request)
  quote.issueRequestId = request.id
  ledger.lock(quote, ctx.options.issueMs, 'issue')
  if (!ctx.defects.has('sales-request-stuck-pending'))
    ledger.schedule(ctx.options.issueMs, () => finishIssue(ledger, ctx, request))
  return request
}

/** Ends a pending issue request (idempotent). */
export function finishIssue(ledger: Ledger, ctx: ReferenceContext, request: RequestRecord): void {
  if (request.status !== 'pending') return
  const quote = ledger.quotes.get(request.quoteId)
  if (!quote) {
    request.status = 'failure'
    request.data = { message: 'the quote no longer exists', code: 'quote-missing' }
    return
  }
  if (ctx.defects.has('sales-request-always-fails')) {
    request.status = 'failure'
    request.data = { message: 'internal issue error', code: 'issue-error' }
    return
  }
  if (failureTriggered(quote) && !ctx.defects.has('sales-issue-failure-ignored')) {
    request.status = 'failure'
    request.data = {
      message: 'underwriting refused to issue the quote',
      code: 'issue-refused',
      quoteId: ctx.ids.wire(quote.id),
    }
    return
  }
  const handler = ledger.issueHandlers.get(quote.kind)
  if (!handler) {
    request.status = 'failure'
    request.data = { message: `quotes of kind ${quote.kind} cannot be issued`, code: 'unsupported-kind' }
    return
  }
  const result = handler(quote, ledger)
  if (!result.ok) {
    request.status = 'failure'
    request.data = { message: result.message, ...(result.data ?? {}) }
    return
  }
  if (!ledger.policies.has(result.policy.id)) ledger.addPolicy(result.policy, quote)
  quote.issuedPolicyId = result.policy.id
  ledger.setState(quote, 'issued', `policy ${result.policy.id}`)
  request.status = 'success'
  const policyNo = ctx.defects.has('sales-request-policy-number-wrong')
    ? result.policy.policyNo.replace(/\d+$/, (n) => String(Number(n) + 1).padStart(n.length, '0'))
    : result.policy.policyNo
  request.data = {
    policyId: ctx.ids.wire(result.policy.id),
    quoteId: ctx.ids.wire(quote.id),
    ...(result.data ?? {}),
    policyNo,
  }
}
