/** Records of the policies area of the reference service: invoices, payments, allocations, terminations. */

export interface InvoiceRecord {
  invoicenumber: string
  policyId: string
  tenant: string
  duedate: string
  premium: number
  adminfee: number
  mgacomm: number
  brokercomm: number
  /** What the invoice is: an installment at issue, an MTA adjustment, or a termination return. */
  source: 'installment' | 'mta' | 'termination'
}

export interface PaymentRecord {
  id: string
  tenant: string
  amount: number
  paymentDate: string
  reference: string
  createdAt: string
}

export interface AllocationRecord {
  eventId: string
  tenant: string
  paymentId: string
  invoicenumber: string
  policyId: string
  amount: number
  createdAt: string
  /** Set when the allocation was credited (reversed). */
  creditedAt?: string
}

export interface TerminationRecord {
  eventId: string
  terminationType: string
  terminationDate: string
  returnPremium: number
  reason?: string
  at: string
}
