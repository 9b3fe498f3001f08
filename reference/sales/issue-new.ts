import type { IssueHandler } from './ledger'
import type { PolicyRecord } from './records'

function str(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

function shiftDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** Issue of a new-business quote: creates the policy from the quote's data and its calculation. */
export const newPolicyIssueHandler: IssueHandler = (quote, ledger) => {
  if (!quote.financials || !quote.installments)
    return { ok: false, message: 'the quote has no calculation', data: { code: 'not-calculated' } }
  const policyBlock = (quote.data['policy'] ?? {}) as Record<string, unknown>
  const shift = ledger.ctx.defects.has('sales-policy-dates-differ') ? 1 : 0
  const now = new Date()
  const id = ledger.id()
  const seq = ledger.policies.size + 1
  const policy: PolicyRecord = {
    id,
    policyNo: `${quote.product.toUpperCase().slice(0, 3)}-${now.getUTCFullYear()}-${String(seq).padStart(6, '0')}`,
    quoteId: quote.id,
    quoteIds: [quote.id],
    tenant: quote.tenant,
    owner: quote.owner,
    product: quote.product,
    data: structuredClone(
      ledger.ctx.defects.has('sales-issue-uses-created-data')
        ? (ledger.createdData.get(quote.id) ?? quote.data)
        : quote.data,
    ),
    dateIssue: now.toISOString().slice(0, 10),
    dateInception: shiftDays(str(policyBlock['dateInception']), shift),
    dateExpiry: shiftDays(str(policyBlock['dateExpiry']), shift),
    financials: structuredClone(quote.financials),
    installments: structuredClone(quote.installments),
    status: 'active',
    version: 1,
    createdAt: now.toISOString(),
    extra: {},
  }
  return { ok: true, policy, data: { policyId: ledger.ctx.ids.wire(policy.id), policyNo: policy.policyNo } }
}
