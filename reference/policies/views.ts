import type { InvoiceRecord } from './records'
import type { PoliciesStore } from './store'

/** One invoice as the anchors show it; payable is what is still due on it. */
export function invoiceView(store: PoliciesStore, inv: InvoiceRecord) {
  return {
    invoicenumber: inv.invoicenumber,
    ...(store.ctx.defects.has('policies-invoice-field-misspelled') ? { dueDate: inv.duedate } : { duedate: inv.duedate }),
    premium: inv.premium,
    adminfee: inv.adminfee,
    mgacomm: inv.mgacomm,
    brokercomm: inv.brokercomm,
    payable: store.outstanding(inv),
  }
}
