import type { InvoiceRecord } from './records'
import type { PoliciesStore } from './store'

/** One invoice as the anchors show it; payable is what is still due on it. */
export function invoiceView(store: PoliciesStore, inv: InvoiceRecord) {
  return {
    invoicenumber: inv.invoicenumber,
    ...(store.ctx.defects.has('policies-invoice-field-misspelled')
      ? { dueDate: inv.duedate }
      : { duedate: inv.duedate }),
    // one invoice shown a cent above what is booked (the totals and the custom view stay right)
    premium:
      store.ctx.defects.has('policies-invoice-off-by-a-cent') &&
      store.invoicesOf(inv.policyId)[0]?.invoicenumber === inv.invoicenumber
        ? Math.round(inv.premium * 100 + 1) / 100
        : inv.premium,
    adminfee: inv.adminfee,
    mgacomm: inv.mgacomm,
    brokercomm: inv.brokercomm,
    payable: store.outstanding(inv),
  }
}
