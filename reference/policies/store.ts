import type { ReferenceContext } from '../context'
import type { Ledger, PolicyEvent, PolicyRecord } from '../sales/ledger'
import { cents } from './pricing'
import type { AllocationRecord, InvoiceRecord, PaymentRecord, TerminationRecord } from './records'

export interface PeriodTotals {
  currency: string
  /** Written premium of the period: installments, MTA adjustments, less the return premium. */
  premium: number
  adminFee: number
  /** premium + adminFee. */
  total: number
  /** Sum of the live (not credited) allocations to the policy's invoices. */
  paid: number
  /** total - paid. */
  balance: number
  returnPremium: number
  invoices: number
}

/**
 * The money book of the policies area of one reference instance: invoices per policy, broker
 * payments, allocation events and terminations. Invoices are created when the ledger tells it a
 * policy was issued.
 */
export class PoliciesStore {
  readonly invoices = new Map<string, InvoiceRecord[]>()
  readonly payments = new Map<string, PaymentRecord>()
  readonly allocations = new Map<string, AllocationRecord>()
  readonly terminations = new Map<string, TerminationRecord>()

  constructor(
    readonly ledger: Ledger,
    readonly ctx: ReferenceContext,
  ) {
    ledger.policyListeners.push((e) => this.onPolicy(e))
  }

  private onPolicy(e: PolicyEvent): void {
    if (e.type === 'created') this.invoices.set(e.policy.id, this.invoicesFromInstallments(e.policy))
  }

  /** One invoice per installment; the admin fee on the first; commissions split in proportion to the premium. */
  invoicesFromInstallments(policy: PolicyRecord): InvoiceRecord[] {
    const f = policy.financials
    const list = policy.installments
    const brokerTotal = cents((f.periodPremium * f.brokerCommPct) / 100)
    const mgaTotal = cents((f.periodPremium * f.mgaCommPct) / 100)
    let brokerLeft = brokerTotal
    let mgaLeft = mgaTotal
    return list.map((inst, i) => {
      const last = i === list.length - 1
      const share = f.periodPremium === 0 ? 0 : inst.premium / f.periodPremium
      const brokercomm = last ? cents(brokerLeft) : cents(brokerTotal * share)
      const mgacomm = last ? cents(mgaLeft) : cents(mgaTotal * share)
      brokerLeft = cents(brokerLeft - brokercomm)
      mgaLeft = cents(mgaLeft - mgacomm)
      const skew = this.ctx.defects.has('policies-invoices-not-installments') && i === 0 ? 1 : 0
      return {
        invoicenumber: this.ledger.id(),
        policyId: policy.id,
        tenant: policy.tenant,
        duedate: inst.dueDate,
        premium: cents(inst.premium + skew),
        adminfee: i === 0 ? f.adminFeeSum : 0,
        mgacomm,
        brokercomm,
        source: 'installment' as const,
      }
    })
  }

  invoicesOf(policyId: string): InvoiceRecord[] {
    let list = this.invoices.get(policyId)
    if (!list) {
      list = []
      this.invoices.set(policyId, list)
    }
    return list
  }

  invoice(tenant: string, invoicenumber: string): InvoiceRecord | undefined {
    for (const list of this.invoices.values()) {
      const inv = list.find((i) => i.invoicenumber === invoicenumber)
      if (inv) return inv.tenant === tenant ? inv : undefined
    }
    return undefined
  }

  addInvoice(policy: PolicyRecord, inv: Omit<InvoiceRecord, 'invoicenumber' | 'policyId' | 'tenant'>): InvoiceRecord {
    const record: InvoiceRecord = {
      invoicenumber: this.ledger.id(),
      policyId: policy.id,
      tenant: policy.tenant,
      ...inv,
    }
    this.invoicesOf(policy.id).push(record)
    return record
  }

  /** Allocated to an invoice and not credited. */
  paidOn(invoicenumber: string): number {
    let sum = 0
    for (const a of this.allocations.values())
      if (a.invoicenumber === invoicenumber && !a.creditedAt) sum = cents(sum + a.amount)
    return sum
  }

  /** Amount still due on an invoice. */
  outstanding(inv: InvoiceRecord): number {
    return cents(inv.premium + inv.adminfee - this.paidOn(inv.invoicenumber))
  }

  /** Part of a payment not allocated (credited allocations give their amount back). */
  unallocated(payment: PaymentRecord): number {
    let used = 0
    for (const a of this.allocations.values())
      if (a.paymentId === payment.id && !a.creditedAt) used = cents(used + a.amount)
    return cents(payment.amount - used)
  }

  /** Reads of a policy's invoices (the policies-invoices-read-moves-premium defect). */
  readonly invoiceReads = new Map<string, number>()

  totals(policy: PolicyRecord): PeriodTotals {
    const list = this.invoicesOf(policy.id)
    const d = (name: Parameters<typeof this.ctx.defects.has>[0]) => this.ctx.defects.has(name)
    const drift = d('policies-invoices-read-moves-premium') ? (this.invoiceReads.get(policy.id) ?? 0) : 0
    const premium = cents(list.reduce((s, i) => s + i.premium, 0) + drift)
    const adminFee = cents(list.reduce((s, i) => s + i.adminfee, 0))
    let paid = cents(list.reduce((s, i) => s + this.paidOn(i.invoicenumber), 0))
    if (this.ctx.defects.has('policies-payment-double-counted')) {
      for (const a of this.allocations.values())
        if (a.policyId === policy.id && !a.creditedAt) paid = cents(paid + a.amount)
    }
    const total = cents(premium + adminFee)
    // the balance of these defects leaves out the invoices of one kind of money move
    const ignored = cents(
      list
        .filter(
          (i) =>
            (i.source === 'mta' && d('policies-balance-ignores-mta')) ||
            (i.source === 'termination' && d('policies-balance-ignores-termination')),
        )
        .reduce((s, i) => s + i.premium, 0),
    )
    const termination = this.terminations.get(policy.id)
    return {
      currency: policy.financials.currency,
      // the fee counted in the premium as well (total and balance keep their own sums)
      premium: d('policies-totals-premium-with-fees') ? cents(premium + adminFee) : premium,
      adminFee,
      total,
      paid,
      balance: cents(
        (this.ctx.defects.has('policies-totals-balance-without-fees') ? premium : total) -
          (d('policies-balance-ignores-allocation') ? 0 : paid) -
          ignored,
      ),
      returnPremium: termination?.returnPremium ?? 0,
      invoices: list.length,
    }
  }
}
