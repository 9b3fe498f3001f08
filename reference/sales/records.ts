/** Records of the sales ledger (reference service). Plain data: no behaviour. */

export type QuoteKind = 'new' | 'mta' | (string & {})

/**
 * Quote lifecycle states (the spec does not show them; docs/sales.md documents this choice):
 * draft -> calculated -> (referred ->) bound -> issued; declined is final from any state before issued.
 */
export type QuoteState = 'draft' | 'calculated' | 'referred' | 'bound' | 'declined' | 'issued'

export interface Installment {
  /** ISO date (YYYY-MM-DD). */
  dueDate: string
  /** Premium due on that date, 2 decimals. */
  premium: number
}

/** Quote/policy financials (money with 2 decimals). */
export interface Financials {
  currency: string
  /** Premium of the policy period, before tax. */
  periodPremium: number
  taxPct: number
  tax: number
  adminFeeSum: number
  feeVatPct: number
  brokerCommPct: number
  brokerComm: number
  mgaCommPct: number
  mgaComm: number
  /** Number of installments. */
  installments: number
  /** periodPremium + tax + adminFeeSum. */
  total: number
}

export interface QuoteHistoryEntry {
  at: string
  from: QuoteState
  to: QuoteState
  note?: string
}

export interface QuoteRecord {
  id: string
  tenant: string
  /** Username of the creator. */
  owner: string
  /** Product (schema name), e.g. 'home'. */
  product: string
  kind: QuoteKind
  /** For an MTA quote: the policy it changes. */
  policyId?: string
  state: QuoteState
  /** Product data without the schema block: {policy: {...}, customer: {...}, objects: {...}}. */
  data: Record<string, unknown>
  /** Incremented on every data change. */
  version: number
  createdAt: string
  updatedAt: string
  /** Epoch ms until which the quote is locked (0 = never locked). */
  lockedUntil: number
  lockReason?: string
  /** Set by calculate. */
  financials?: Financials
  /** Set by calculate: the schedule, summing to financials.periodPremium. */
  installments?: Installment[]
  /** Ids of generated documents. */
  documents: string[]
  declineReason?: string
  referralComment?: string
  /** Set when issue succeeded. */
  issuedPolicyId?: string
  /** Id of the pending/last issue request. */
  issueRequestId?: string
  history: QuoteHistoryEntry[]
}

export interface PolicyRecord {
  id: string
  policyNo: string
  /** The quote it was issued from (the last MTA quote is in `quoteIds`). */
  quoteId: string
  quoteIds: string[]
  tenant: string
  owner: string
  product: string
  /** Product data as issued: {policy, customer, objects, ...} (policy block without id). */
  data: Record<string, unknown>
  dateIssue: string
  dateInception: string
  dateExpiry: string
  financials: Financials
  installments: Installment[]
  /** 'active' after issue; other areas may set e.g. 'terminated'. */
  status: string
  /** 1 at issue, +1 on every change (ledger.policyChanged). */
  version: number
  createdAt: string
  /** Free space for other areas (e.g. termination data, invoices bookkeeping ids). */
  extra: Record<string, unknown>
}

export type RequestStatus = 'pending' | 'success' | 'failure'

export interface RequestRecord {
  id: string
  tenant: string
  owner: string
  /** 'issue' (others may add kinds). */
  kind: string
  quoteId: string
  createdAt: string
  /** Epoch ms when processing ends. */
  readyAt: number
  status: RequestStatus
  /** Result data once complete: {policyId, policyNo} on success, {message, ...} on failure. */
  data?: Record<string, unknown>
}

export interface DocumentRecord {
  id: string
  tenant: string
  quoteId?: string
  policyId?: string
  name: string
  contentType: string
  content: Buffer
  createdAt: string
}
