import { factsOf, type OperationId } from '../../common/operations'
import { getPointer } from '../client/data/json-pointer'
import type { HttpResult } from '../client/http/types'
import type { PoliciesSettings } from '../../common/config/policies-settings'
import { classesOf, schemaAt } from './real-world'
import type { InvariantId } from './invariants'
import { applyPatch, type Leaves } from './leaves'
import { firstShown, type Reported } from './reported'
import type { Violation } from './invariants'

type Json = Record<string, unknown>
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)
const idOf = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)
const ok = (res: HttpResult) => res.status >= 200 && res.status < 300
const show = (v: unknown) => JSON.stringify(v)
const cents = (n: number) => Math.round(n * 100)
const same = (a: unknown, b: unknown) =>
  a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b))

/** A view of a policy read once, kept to compare the next read with (PL-INV-005). */
interface Seen {
  value: string
  setBy: HttpResult
}

/** One policy as the run knows it, from the issue request's success on (docs/model.md, "The policy"). */
export interface PolicyState extends Reported {
  id: string
  tenant: string
  /** The quote it was issued from, and the MTA quotes issued on it since. */
  quoteId: string
  quotes: string[]
  /** The number the issue request's success named, and the number the policy view showed first. */
  requestNumber?: { value: string; setBy: HttpResult }
  number?: Seen
  inception?: Seen
  /**
   * The product data as issued (the issuing quote's leaves as last written), changed by technical changes; dropped by
   * an MTA or a termination.
   */
  leaves?: Leaves
  leavesSetBy?: HttpResult
  /** The product schema, to tell real-world values (SL-INV-009's) from the others. */
  schema?: unknown
  /**
   * The last financials, quotes list and documents list the policy view showed; dropped when an operation may change
   * them.
   */
  financials?: Seen
  quoteList?: Seen
  documentList?: Seen
  /**
   * PL-INV-006: an MTA or a termination moved the premium, so the policy view's financials no longer are the totals'.
   */
  premiumMoved?: boolean
  /** PL-INV-006: the money views last read, each with the epoch it was read in (views of one epoch must agree). */
  money?: MoneyViews
}

/**
 * The money views of one policy last read (PL-INV-006), per epoch: an operation that may add invoices or move the
 * premium starts a new one.
 */
interface MoneyViews {
  epoch: number
  linksPremium?: { cents: number; res: HttpResult }
  totalsPremium?: { cents: number; res: HttpResult }
  invoices?: Invoices
  customView?: { installments: unknown[]; res: HttpResult }
}

interface Invoices {
  sum: number
  byNumber: Map<string, { dueDate: unknown; premium: unknown }>
  res: HttpResult
}

/** What the sales model knows of the issuing quote when its request succeeds. */
export interface IssuedFrom {
  quoteId: string
  leaves?: Leaves
  leavesSetBy?: HttpResult
  schema?: unknown
}

/** A quote's last calculation and schedule read, per its writes (PL-INV-004). */
interface QuoteViews extends Reported {
  writes: number
  /** installments null: answered 409 (not calculated). */
  calculation?: {
    writes: number
    premium?: number
    installments: { dueDate: unknown; premium: unknown }[] | null
    res: HttpResult
  }
  schedule?: { writes: number; installments: { dueDate: unknown; premium: unknown }[] | null; res: HttpResult }
}

/**
 * Operations after which a policy's invoices or premium may differ (PL-INV-006 compares views of one epoch only): an
 * issue (an MTA's, asynchronous: every request status read too), an MTA quote, a termination, a technical change.
 */
/**
 * A write of a quote that is an action of its actions list, other than generating documents: its calculation and
 * schedule may change.
 */
const writesQuoteViews = (op: OperationId): boolean => {
  const action = factsOf(op).quoteAction
  return action !== null && action !== 'documents'
}
/**
 * Money moves that change no policy view (allocations, credits): a target may show what is paid in a policy's
 * financials.
 */
const movesMoneyOnly = (op: OperationId): boolean => factsOf(op).moneyMoving && !factsOf(op).changes.includes('policy')
/** Reads of a policy's money (its view's premium, period totals, invoices, the customer's installments: PL-INV-006). */
const showsPolicyMoney = (op: OperationId): boolean => {
  const f = factsOf(op)
  return f.resource === 'policy' && f.access === 'read' && (f.shows.includes('money') || f.shows.includes('invoices'))
}
const startsMoneyEpoch = (op: OperationId): boolean =>
  factsOf(op).changes.includes('invoices') || op === 'sales.requests.get'

/**
 * Where the policy number is: in the policy view, and in the issue request's success (sales §3; the anchors' policyNo).
 */
const LINKS_NUMBER = '/data/policy/policyNo'
const REQUEST_NUMBER = '/data/policyNo'

/**
 * Policies after issue and the views of one policy (sales-service.md §1, §3, §4): what it was issued with, what each
 * operation may change, and how its views must agree. Learns from issue, MTA, technical change, termination and every
 * read; judges PL-INV-003 (issued as quoted), PL-INV-004 (the views agree) and PL-INV-005 (an operation changes only
 * what it is for).
 */
export class PolicyModel {
  readonly policies = new Map<string, PolicyState>()
  private readonly views = new Map<string, QuoteViews>()
  private epoch = 0

  constructor(private readonly settings: PoliciesSettings) {}

  /** A new-business issue request succeeded: the policy it names starts here. */
  issued(id: string, tenant: string, from: IssuedFrom, res: HttpResult): void {
    if (this.policies.has(id)) return
    const number = idOf(getPointer(res.body, REQUEST_NUMBER))
    this.policies.set(id, {
      id,
      tenant,
      quoteId: from.quoteId,
      quotes: [from.quoteId],
      ...(number !== undefined ? { requestNumber: { value: number, setBy: res } } : {}),
      ...(from.leaves ? { leaves: from.leaves } : {}),
      ...(from.leavesSetBy ? { leavesSetBy: from.leavesSetBy } : {}),
      ...(from.schema !== undefined ? { schema: from.schema } : {}),
    })
  }

  /**
   * An MTA quote of the policy was issued: its data and financials are the MTA's (not computed here), its quotes list
   * grows.
   */
  mtaIssued(policyId: string, quoteId: string): void {
    const p = this.policies.get(policyId)
    if (!p) return
    if (!p.quotes.includes(quoteId)) p.quotes.push(quoteId)
    p.premiumMoved = true
    this.epoch += 1
    delete p.leaves
    delete p.financials
    delete p.quoteList
    delete p.documentList
    delete p.reported
  }

  /**
   * Something may have changed every policy's views in a way the model cannot attribute (a write without an answer).
   */
  forget(): void {
    this.epoch += 1
    for (const p of this.policies.values()) {
      delete p.financials
      delete p.quoteList
      delete p.documentList
    }
  }

  /**
   * @param settled for a quote read: an actions list was read after the quote's last write (sales §3 rule 4), so its
   *   calculation and schedule are done
   */
  observe(
    op: OperationId,
    params: Record<string, string>,
    json: unknown,
    tenant: string | undefined,
    res: HttpResult,
    overlapped: boolean,
    settled: boolean,
    evaluated: Set<InvariantId>,
    out: Violation[],
  ): void {
    const quoteId = params['policyId'] ?? params['id']
    if (startsMoneyEpoch(op)) this.epoch += 1
    // a quote's writes: what its calculation and schedule must agree on changes
    if (writesQuoteViews(op) && quoteId !== undefined) {
      const v = this.views.get(quoteId) ?? { writes: 0 }
      v.writes += 1
      this.views.set(quoteId, v)
      return
    }
    if ((op === 'sales.quote.calculation' || op === 'sales.quote.installments') && quoteId !== undefined) {
      // 409 is "not calculated": the other view must say so too (PL-INV-004)
      if ((res.status === 200 || res.status === 409) && !overlapped && settled)
        this.judgeQuoteViews(op, quoteId, res, evaluated, out)
      return
    }
    if (op === 'sales.quote.mta') {
      // a new quote on the policy: its quotes list may grow
      const p = this.policies.get(idOf(getPointer(json, '/policy/id')) ?? '')
      if (p && ok(res)) delete p.quoteList
      return
    }
    if (op === 'sales.documents.generate') {
      if (ok(res)) for (const p of this.policies.values()) delete p.documentList
      return
    }
    if (movesMoneyOnly(op)) {
      // money moves: the financials of a policy are its premium data, but a target may show what is paid there
      if (ok(res)) for (const p of this.policies.values()) delete p.financials
      return
    }
    const p = quoteId !== undefined ? this.policies.get(quoteId) : undefined
    if (!p || (tenant !== undefined && tenant !== p.tenant)) return
    if (op === 'sales.termination.terminate') {
      if (ok(res)) {
        delete p.financials
        delete p.reported
        p.premiumMoved = true
      }
      return
    }
    if (op === 'sales.policy.data-change') {
      if (!ok(res)) return
      // a technical change: the data changes by exactly what it names; money, number, dates, quotes stay
      if (p.leaves && !overlapped && isObj(json)) p.leaves = applyPatch(p.leaves, json)
      else delete p.leaves
      p.leavesSetBy = res
      delete p.reported
      return
    }
    if (op === 'sales.policy.links' && res.status === 200 && !overlapped) this.judgeLinks(p, res, evaluated, out)
    if (showsPolicyMoney(op) && res.status === 200 && !overlapped) this.judgeMoney(op, p, res, evaluated, out)
  }

  /**
   * One policy's money views agree (PL-INV-006; docs/model.md, "The agreement rules"), compared within one epoch (no
   * operation that may add invoices or move the premium in between): the invoices' premiums sum to the totals' premium
   * to the cent; the policy view's period premium is the totals' premium while no MTA or termination moved it; each
   * installment of the customer custom view that names an invoice is one of the policy's invoices, with its due date
   * and premium.
   */
  /**
   * The custom view's installments that name an invoice are the policy's invoices, with their due date and premium
   * (PL-INV-006).
   */
  private judgeCustomView(
    p: PolicyState,
    invoices: Invoices,
    view: { installments: unknown[]; res: HttpResult },
    op: OperationId,
    evaluated: Set<InvariantId>,
    out: Violation[],
  ): void {
    evaluated.add('PL-INV-006')
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? cents(v) : undefined)
    for (const inst of view.installments) {
      const n = isObj(inst) ? idOf(inst['invoicenumber']) : undefined
      if (n === undefined || !isObj(inst)) continue
      const inv = invoices.byNumber.get(n)
      const wrong = !inv
        ? 'not one of its invoices'
        : num(inst['premium']) !== num(inv.premium)
          ? `premium ${show(inst['premium'])}`
          : inv.dueDate !== undefined && inst['dueDate'] !== inv.dueDate
            ? `due date ${show(inst['dueDate'])}`
            : undefined
      if (!wrong) continue
      if (firstShown(p, 'custom-view-installment', [n, wrong])) {
        const [res, setBy] = op === 'sales.customers.custom-view' ? [view.res, invoices.res] : [invoices.res, view.res]
        out.push({
          invariant: 'PL-INV-006',
          expected: `the custom view's installments are the policy's invoices: invoice ${n} ${
            inv
              ? `with due date ${show(inv.dueDate)} and premium ${show(inv.premium)}`
              : `among ${show([...invoices.byNumber.keys()]).slice(0, 300)}`
          }`,
          actual: `custom view installment with invoice ${n}: ${wrong}`,
          res,
          setBy,
        })
      }
      return
    }
  }

  private judgeMoney(
    op: OperationId,
    p: PolicyState,
    res: HttpResult,
    evaluated: Set<InvariantId>,
    out: Violation[],
  ): void {
    if (!p.money || p.money.epoch !== this.epoch) p.money = { epoch: this.epoch }
    const m = p.money
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? cents(v) : undefined)
    if (op === 'sales.policy.links') {
      const c = num(getPointer(res.body, this.settings.links.periodPremiumPointer))
      if (c === undefined) return
      m.linksPremium = { cents: c, res }
    } else if (op === 'sales.policy.period-totals') {
      const c = num(getPointer(res.body, this.settings.totals.premium))
      if (c === undefined) return
      m.totalsPremium = { cents: c, res }
    } else if (op === 'sales.policy.invoices') {
      const list = getPointer(res.body, this.settings.invoices.listPointer)
      if (!Array.isArray(list)) return
      const byNumber = new Map<string, { dueDate: unknown; premium: unknown }>()
      let sum = 0
      for (const inv of list) {
        const premium = isObj(inv) ? num(inv['premium']) : undefined
        const n = isObj(inv) ? idOf(inv['invoicenumber']) : undefined
        if (premium === undefined || n === undefined) return
        sum += premium
        byNumber.set(n, { dueDate: inv['duedate'], premium: inv['premium'] })
      }
      m.invoices = { sum, byNumber, res }
    } else {
      const list = getPointer(res.body, '/data/installments')
      if (!Array.isArray(list)) return
      m.customView = { installments: list, res }
    }
    // until an MTA or a termination: an MTA's schedule is its quote's, while the invoices issued before stay (the
    // adjustment is an invoice of its own)
    if (
      (op === 'sales.policy.invoices' || op === 'sales.customers.custom-view') &&
      m.invoices &&
      m.customView &&
      !p.premiumMoved
    )
      this.judgeCustomView(p, m.invoices, m.customView, op, evaluated, out)
    if (op === 'sales.customers.custom-view') return
    const t = m.totalsPremium
    if (!t) return
    if (m.invoices && op !== 'sales.policy.links') {
      evaluated.add('PL-INV-006')
      if (m.invoices.sum !== t.cents && firstShown(p, 'invoices-vs-totals', [m.invoices.sum, t.cents])) {
        const [older, newer] = op === 'sales.policy.invoices' ? [t.res, res] : [m.invoices.res, res]
        out.push({
          invariant: 'PL-INV-006',
          expected: `the invoices' premiums summing to the period totals' premium ${t.cents / 100} to the cent`,
          actual: `invoices summing to ${m.invoices.sum / 100}`,
          res: newer,
          setBy: older,
        })
      }
    }
    if (m.linksPremium && !p.premiumMoved && op !== 'sales.policy.invoices') {
      evaluated.add('PL-INV-006')
      const l = m.linksPremium
      if (l.cents !== t.cents && firstShown(p, 'links-vs-totals', [l.cents, t.cents])) {
        out.push({
          invariant: 'PL-INV-006',
          expected:
            `the policy view's period premium (${this.settings.links.periodPremiumPointer}) = the period ` +
            `totals' premium ${t.cents / 100} (no MTA or termination yet)`,
          actual: `${l.cents / 100}`,
          res,
          setBy: op === 'sales.policy.links' ? t.res : l.res,
        })
      }
    }
  }

  /** The policy view: issued as quoted (PL-INV-003), number and inception for ever, no change by reads (PL-INV-005). */
  private judgeLinks(p: PolicyState, res: HttpResult, evaluated: Set<InvariantId>, out: Violation[]): void {
    const L = this.settings.links
    const number = idOf(getPointer(res.body, LINKS_NUMBER))
    // the number the request named is the one the policy shows when first read; PL-INV-005 keeps it afterwards
    if (p.requestNumber && number !== undefined && !p.number) {
      evaluated.add('PL-INV-003')
      if (number !== p.requestNumber.value && firstShown(p, 'number-vs-request', number)) {
        out.push({
          invariant: 'PL-INV-003',
          expected: `policy number ${p.requestNumber.value}, as the success of its issue request named it`,
          actual: `${LINKS_NUMBER} = ${show(number)}`,
          res,
          setBy: p.requestNumber.setBy,
        })
      }
    }
    const data = getPointer(res.body, L.dataPointer)
    if (p.leaves && isObj(data)) {
      evaluated.add('PL-INV-003')
      for (const [pointer, value] of p.leaves) {
        // what the issued policy carries of its quote: customer, insured objects and the period (not the quote's own
        // reference fields); a real-world value is judged once, on the quote (SL-INV-009)
        // after the first view, the inception date is PL-INV-005's (it never changes): one breach, one invariant
        if (pointer.startsWith('/schema/') || (pointer === '/policy/dateInception' && p.inception)) continue
        if (classesOf(value, p.schema !== undefined ? schemaAt(p.schema, pointer) : undefined).length > 0) continue
        const got = getPointer(data, pointer)
        // the view must show the customer, insured objects and period (the anchors' policy view); other policy fields
        // of the quote (payment frequency, channel, reference) are judged where the view shows them
        const required =
          /^\/(customer|objects)\//.test(pointer) ||
          pointer === '/policy/dateInception' ||
          pointer === '/policy/dateExpiry'
        if (same(got, value) || (got === undefined && !required)) continue
        if (firstShown(p, `data${pointer}`, got))
          out.push({
            invariant: 'PL-INV-003',
            expected:
              `${L.dataPointer}${pointer} = ${show(value)}, as the quote it was issued from last wrote it ` +
              `(or a technical change since)`,
            actual: `${show(got)}`,
            res,
            ...(p.leavesSetBy ? { setBy: p.leavesSetBy } : {}),
          })
        break
      }
    }
    const forever: [keyof PolicyState & ('number' | 'inception'), string | undefined, string][] = [
      ['number', number, 'policy number'],
      ['inception', idOf(getPointer(res.body, L.dateInceptionPointer)), 'inception date'],
    ]
    for (const [key, now, what] of forever) {
      if (now === undefined) continue
      const before = p[key]
      if (!before) {
        p[key] = { value: now, setBy: res }
        continue
      }
      evaluated.add('PL-INV-005')
      if (now !== before.value && firstShown(p, key, now))
        out.push({
          invariant: 'PL-INV-005',
          expected: `${what} ${before.value}: no operation changes it (technical change, MTA, termination, reads)`,
          actual: `${what} ${now}`,
          res,
          setBy: before.setBy,
        })
    }
    const lists: ['financials' | 'quoteList' | 'documentList', string | null, string][] = [
      ['financials', L.financialsPointer, 'financials'],
      ['quoteList', L.quotesPointer, 'quotes'],
      ['documentList', L.documentsPointer, 'documents'],
    ]
    for (const [key, pointer, what] of lists) {
      if (!pointer) continue
      const v = getPointer(res.body, pointer)
      if (v === undefined) continue
      const now = JSON.stringify(v)
      const before = p[key]
      p[key] = { value: now, setBy: res }
      if (!before) continue
      evaluated.add('PL-INV-005')
      if (now !== before.value && firstShown(p, key, now)) {
        out.push({
          invariant: 'PL-INV-005',
          expected:
            `the ${what} of the policy as read before (${pointer} = ${before.value.slice(0, 300)}): only ` +
            `reads and technical changes since, which change no ${what}`,
          actual: now.slice(0, 300),
          res,
          setBy: before.setBy,
        })
      }
    }
  }

  /** A quote's calculation and its installments schedule agree, and each sums to the period premium (PL-INV-004). */
  private judgeQuoteViews(
    op: OperationId,
    quoteId: string,
    res: HttpResult,
    evaluated: Set<InvariantId>,
    out: Violation[],
  ): void {
    const v = this.views.get(quoteId) ?? { writes: 0 }
    this.views.set(quoteId, v)
    const tol = cents(this.settings.moneyTolerance)
    const list = (x: unknown) =>
      Array.isArray(x)
        ? x.map((i) => ({ dueDate: isObj(i) ? i['dueDate'] : undefined, premium: isObj(i) ? i['premium'] : undefined }))
        : undefined
    const sum = (l: { premium: unknown }[]) =>
      l.reduce((s, i) => s + (typeof i.premium === 'number' ? cents(i.premium) : NaN), 0)
    if (res.status === 409) {
      // not calculated: agrees only with a view that says so too (no change since)
      if (op === 'sales.quote.calculation') v.calculation = { writes: v.writes, installments: null, res }
      else v.schedule = { writes: v.writes, installments: null, res }
    } else if (op === 'sales.quote.calculation') {
      const premium = getPointer(res.body, this.settings.mta.periodPremiumPointer)
      const installments = list(getPointer(res.body, '/installments'))
      if (typeof premium !== 'number' || !installments) return
      evaluated.add('PL-INV-004')
      if (installments.length > 0 && Math.abs(sum(installments) - cents(premium)) > tol) {
        out.push({
          invariant: 'PL-INV-004',
          expected: `installments summing to the period premium ${premium}`,
          actual: `installments summing to ${sum(installments) / 100}`,
          res,
        })
      }
      v.calculation = { writes: v.writes, premium, installments, res }
    } else {
      const installments = list(getPointer(res.body, '/instalments'))
      if (!installments) return
      v.schedule = { writes: v.writes, installments, res }
    }
    const c = v.calculation
    const s = v.schedule
    if (!c || !s || c.writes !== v.writes || s.writes !== v.writes) return
    evaluated.add('PL-INV-004')
    if (
      !same(c.installments, s.installments) &&
      firstShown(v, 'calculation-vs-schedule', [c.installments, s.installments])
    ) {
      const [older, newer] = op === 'sales.quote.calculation' ? [s.res, c.res] : [c.res, s.res]
      const shown = (l: unknown[] | null) => (l === null ? '409 (not calculated)' : show(l).slice(0, 300))
      out.push({
        invariant: 'PL-INV-004',
        expected:
          `the installments of the calculation and of the schedule alike (no change ` +
          `since): ${shown(op === 'sales.quote.calculation' ? s.installments : c.installments)}`,
        actual: shown(op === 'sales.quote.calculation' ? c.installments : s.installments),
        res: newer,
        setBy: older,
      })
    }
  }
}
