import type { UserCredentials } from '../../../common/config/types'
import type { SuiteContext } from '../context'
import { getPointer } from '../../client/data/json-pointer'
import type { HttpResult } from '../../client/http/types'
import { sumMoney } from './money'
import type { PoliciesSettings } from '../../../common/config/policies-settings'
import { fillTemplate, type TemplateVars } from './template'

export interface Totals {
  premium?: number
  fees?: number
  paid?: number
  balance?: number
  returnPremium?: number
}

export interface InvoiceLine {
  invoicenumber: string
  duedate: unknown
  premium: unknown
  adminfee: unknown
  payable: unknown
  /** Sum of the profile's amountFields (undefined when one is not a number). */
  amount?: number
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}

function idOf(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined
}

/**
 * The policy, payment and customer operations of the sales service, spelled by the profile's policies block.
 * Never asserts and never retries a POST; readers return undefined for what is missing.
 */
export class PoliciesApi {
  constructor(
    readonly t: SuiteContext,
    readonly s: PoliciesSettings,
  ) {}

  vars(extra: TemplateVars = {}): TemplateVars {
    return { tag: this.t.tag('policies'), ...extra }
  }

  links(policyId: string): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.policy.links', params: { policyId } })
  }
  invoices(policyId: string, as?: UserCredentials): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.policy.invoices', params: { policyId }, ...(as ? { as } : {}) })
  }
  totals(policyId: string, as?: UserCredentials): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.policy.period-totals', params: { id: policyId }, ...(as ? { as } : {}) })
  }
  renewal(policyId: string): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.policy.renewal', params: { policyId } })
  }
  dataChange(policyId: string, json: unknown): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.policy.data-change', params: { id: policyId }, json })
  }
  mta(json: unknown): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.quote.mta', json })
  }
  terminationPremiums(
    policyId: string,
    v: { type: string; date: string; sum?: number; shortRatePct?: number },
  ): Promise<HttpResult> {
    const json = fillTemplate(
      this.s.termination.premiumsBody,
      this.vars({ type: v.type, date: v.date, sum: v.sum, shortRatePct: v.shortRatePct }),
    )
    return this.t.sales.call({
      op: 'sales.termination.premiums',
      params: { policyId },
      json: JSON.parse(JSON.stringify(json)),
    })
  }
  terminate(policyId: string, v: { date: string; sum: number }): Promise<HttpResult> {
    const json = fillTemplate(this.s.termination.terminateBody, this.vars({ date: v.date, sum: v.sum }))
    return this.t.sales.call({ op: 'sales.termination.terminate', params: { policyId }, json })
  }
  insertPayment(amount: number, date: string): Promise<HttpResult> {
    return this.t.sales.call({
      op: 'sales.payments.insert',
      json: fillTemplate(this.s.payments.insertBody, this.vars({ amount, date })),
    })
  }
  allocate(paymentId: string, allocations: { invoicenumber: string; amount: number }[]): Promise<HttpResult> {
    return this.t.sales.call({
      op: 'sales.payments.allocate',
      json: fillTemplate(this.s.payments.allocateBody, this.vars({ paymentId, allocations })),
    })
  }
  credit(eventId: string): Promise<HttpResult> {
    return this.t.sales.call({
      op: 'sales.invoice.credit',
      params: { eventId },
      json: fillTemplate(this.s.payments.creditBody, this.vars()),
    })
  }
  customView(policyId: string, query: Record<string, string | undefined>): Promise<HttpResult> {
    return this.t.sales.call({ op: 'sales.customers.custom-view', params: { policyId }, query })
  }

  readTotals(res: HttpResult): Totals {
    const p = this.s.totals
    const out: Totals = {}
    for (const k of ['premium', 'fees', 'paid', 'balance', 'returnPremium'] as const) {
      const v = num(getPointer(res.body, p[k]))
      if (v !== undefined) out[k] = v
    }
    return out
  }

  /** The invoices of an invoices response, or undefined when there is no array at the profile's pointer. */
  readInvoices(res: HttpResult): InvoiceLine[] | undefined {
    const list = getPointer(res.body, this.s.invoices.listPointer)
    if (!Array.isArray(list)) return undefined
    return list.map((raw) => {
      const i = (raw ?? {}) as Record<string, unknown>
      const parts = this.s.invoices.amountFields.map((f) => num(i[f]))
      const amount = parts.every((x): x is number => x !== undefined) ? sumMoney(parts) : undefined
      return {
        invoicenumber: idOf(i['invoicenumber']) ?? '',
        duedate: i['duedate'],
        premium: i['premium'],
        adminfee: i['adminfee'],
        payable: i['payable'],
        ...(amount !== undefined ? { amount } : {}),
      }
    })
  }

  paymentIdOf(res: HttpResult): string | undefined {
    return idOf(getPointer(res.body, this.s.payments.paymentIdPointer))
  }

  eventIdsOf(res: HttpResult): string[] | undefined {
    const events = getPointer(res.body, this.s.payments.eventsPointer)
    if (!Array.isArray(events)) return undefined
    const ids = events.map((e) => idOf((e ?? {})[this.s.payments.eventIdField as keyof typeof e]))
    return ids.every((x) => x !== undefined) ? (ids as string[]) : undefined
  }

  returnPremiumOf(res: HttpResult): number | undefined {
    return num(getPointer(res.body, this.s.termination.returnPremiumPointer))
  }

  /** The contract of a shape, or null when the profile says the target's shape is not described. */
  contract(name: string): string | null {
    return Object.hasOwn(this.s.contracts, name) ? (this.s.contracts[name] ?? null) : name
  }
}
