import type { OperationId } from '../../common/operations'
import { getPointer } from '../client/data/json-pointer'
import type { HttpResult } from '../client/http/types'
import type { PoliciesSettings } from '../../common/config/policies-settings'
import type { InvariantId } from './invariants'
import type { Violation } from './invariants'

type Json = Record<string, unknown>
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)
const idOf = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)
const ok = (res: HttpResult) => res.status >= 200 && res.status < 300
const cents = (n: number) => Math.round(n * 100)

export interface Totals {
  premium: number
  fees: number
  paid: number
  balance: number
}

/** One policy's money as the run moved it since the last read of its totals. */
export interface PolicyMoney {
  id: string
  tenant: string
  /** The last totals read, the baseline of the next comparison; undefined when an unknown move happened since. */
  baseline?: Totals & { setBy: HttpResult }
  /** Moves since the baseline (cents). */
  paid: number
  premium: number
  /** An MTA of the policy is being issued: its premium moves by an amount the model does not compute. */
  premiumOpen: boolean
  /** A termination happened since the baseline: fees may move. */
  terminated: boolean
  /** The operations that moved money since the baseline, for the message. */
  moves: string[]
}

/** Where a template holds a placeholder, e.g. the termination sum in the terminate body. */
export function pointerOf(template: unknown, placeholder: string, at = ''): string | undefined {
  if (template === placeholder) return at
  if (template !== null && typeof template === 'object') {
    for (const [k, v] of Object.entries(template)) {
      const p = pointerOf(v, placeholder, `${at}/${k}`)
      if (p !== undefined) return p
    }
  }
  return undefined
}

/** Policies' money (sales-service.md §1, §4): invoices, allocations, credits, terminations, period totals. */
export class MoneyModel {
  readonly policies = new Map<string, PolicyMoney>()
  /** Invoice number -> policy id, from the invoices the run read. */
  readonly invoices = new Map<string, string>()
  /** Allocation event id -> policy and amount. */
  readonly events = new Map<string, { policyId?: string; amount: number; credited: boolean }>()

  constructor(private readonly settings: PoliciesSettings) {}

  policyIssued(id: string, tenant: string): void {
    if (!this.policies.has(id))
      this.policies.set(id, { id, tenant, paid: 0, premium: 0, premiumOpen: false, terminated: false, moves: [] })
  }

  /** An MTA quote of the policy was issued (done: its request ended): its premium is open until read again. */
  mtaIssued(policyId: string, done: boolean): void {
    const p = this.policies.get(policyId)
    if (!p) return
    if (done) {
      p.premiumOpen = false
      delete p.baseline
    } else p.premiumOpen = true
  }

  /** Something moved money the model cannot attribute: no comparison until each policy is read again. */
  forget(): void {
    for (const p of this.policies.values()) delete p.baseline
  }

  observe(
    op: OperationId,
    params: Record<string, string>,
    json: unknown,
    res: HttpResult,
    overlapped: boolean,
    evaluated: Set<InvariantId>,
    out: Violation[],
  ): void {
    const s = this.settings
    switch (op) {
      case 'sales.policy.invoices': {
        const policyId = params['policyId']
        const list = getPointer(res.body, s.invoices.listPointer)
        if (res.status === 200 && policyId !== undefined && this.policies.has(policyId) && Array.isArray(list)) {
          for (const inv of list)
            if (isObj(inv) && idOf(inv['invoicenumber']) !== undefined)
              this.invoices.set(idOf(inv['invoicenumber'])!, policyId)
        }
        return
      }
      case 'sales.payments.allocate': {
        if (!ok(res)) return
        const events = getPointer(res.body, s.payments.eventsPointer)
        if (!Array.isArray(events)) return this.forget()
        for (const e of events) {
          const id = isObj(e) ? idOf(e[s.payments.eventIdField]) : undefined
          const amount = isObj(e) ? e['amount'] : undefined
          const policyId = isObj(e) ? this.invoices.get(idOf(e['invoicenumber']) ?? '') : undefined
          if (id === undefined || typeof amount !== 'number') return this.forget()
          this.events.set(id, { ...(policyId !== undefined ? { policyId } : {}), amount, credited: false })
          const p = policyId !== undefined ? this.policies.get(policyId) : undefined
          if (!p) return this.forget()
          p.paid += cents(amount)
          p.moves.push(`allocation ${id} of ${amount}`)
        }
        return
      }
      case 'sales.invoice.credit': {
        if (!ok(res)) return
        const e = this.events.get(params['eventId'] ?? '')
        const p = e?.policyId !== undefined ? this.policies.get(e.policyId) : undefined
        if (!e || !p || e.credited) return this.forget()
        e.credited = true
        p.paid -= cents(e.amount)
        p.moves.push(`credit of allocation ${params['eventId']} (${e.amount})`)
        return
      }
      case 'sales.termination.terminate': {
        const p = this.policies.get(params['policyId'] ?? '')
        if (!p || !ok(res)) return
        const at = pointerOf(s.termination.terminateBody, '{{sum}}')
        const sum = at !== undefined ? getPointer(json, at) : undefined
        if (typeof sum !== 'number') return void delete p.baseline
        p.premium -= cents(sum)
        p.terminated = true
        p.moves.push(`termination with a return premium of ${sum}`)
        return
      }
      case 'sales.policy.period-totals': {
        const p = this.policies.get(params['id'] ?? '')
        if (!p || res.status !== 200) return
        return this.judgeTotals(p, res, overlapped, evaluated, out)
      }
    }
  }

  private judgeTotals(
    p: PolicyMoney,
    res: HttpResult,
    overlapped: boolean,
    evaluated: Set<InvariantId>,
    out: Violation[],
  ): void {
    const t = this.settings.totals
    const raw = {
      premium: getPointer(res.body, t.premium),
      fees: getPointer(res.body, t.fees),
      paid: getPointer(res.body, t.paid),
      balance: getPointer(res.body, t.balance),
    }
    evaluated.add('PL-INV-001')
    const notNumbers = Object.entries(raw).filter(([, v]) => typeof v !== 'number')
    if (notNumbers.length > 0) {
      out.push({
        invariant: 'PL-INV-001',
        expected: 'premium, fees, paid and balance as numbers',
        actual: notNumbers.map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', '),
        res,
      })
      delete p.baseline
      return
    }
    const now = raw as Totals
    const tol = cents(this.settings.moneyTolerance)
    if (Math.abs(cents(now.balance) - (cents(now.premium) + cents(now.fees) - cents(now.paid))) > tol) {
      out.push({
        invariant: 'PL-INV-001',
        expected:
          `balance ${(cents(now.premium) + cents(now.fees) - cents(now.paid)) / 100} (premium ${now.premium} ` +
          `+ fees ${now.fees} - paid ${now.paid})`,
        actual: `balance ${now.balance}`,
        res,
        ...(p.baseline ? { setBy: p.baseline.setBy } : {}),
      })
    }
    const before = p.baseline
    if (before && !overlapped) {
      evaluated.add('PL-INV-002')
      const moves = p.moves.length > 0 ? `after ${p.moves.join(', ')}` : 'with no money-moving operation in between'
      const paid = cents(before.paid) + p.paid
      if (Math.abs(cents(now.paid) - paid) > tol)
        out.push({
          invariant: 'PL-INV-002',
          expected: `paid ${paid / 100} (was ${before.paid}, ${moves})`,
          actual: `paid ${now.paid}`,
          res,
          setBy: before.setBy,
        })
      const premium = cents(before.premium) + p.premium
      if (!p.premiumOpen && Math.abs(cents(now.premium) - premium) > tol)
        out.push({
          invariant: 'PL-INV-002',
          expected: `premium ${premium / 100} (was ${before.premium}, ${moves})`,
          actual: `premium ${now.premium}`,
          res,
          setBy: before.setBy,
        })
      if (!p.terminated && Math.abs(cents(now.fees) - cents(before.fees)) > tol)
        out.push({
          invariant: 'PL-INV-002',
          expected: `fees ${before.fees} (${moves})`,
          actual: `fees ${now.fees}`,
          res,
          setBy: before.setBy,
        })
    }
    if (overlapped || p.premiumOpen) delete p.baseline
    else p.baseline = { ...now, setBy: res }
    Object.assign(p, { paid: 0, premium: 0, terminated: false, moves: [] })
  }
}
