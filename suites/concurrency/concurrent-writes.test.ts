import { describe } from 'vitest'
import { checkApart, sideBySide } from '../../helpers/checks/check'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given } from '../../helpers/checks/setup'
import { getPointer } from '../../helpers/client/data/json-pointer'
import type { HttpResult } from '../../helpers/client/http/types'
import { resolveDateToken } from '../../helpers/checks/sales/date-tokens'
import { setPointer } from '../../helpers/checks/sales/json-set'
import { SalesFlowError, useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { roundMoney } from '../../helpers/checks/policies/money'
import { issuePolicy } from '../../helpers/checks/policies/scenario'
import { policiesSettings } from '../../common/config/policies-settings'
import { CheckHistory, expectLinearizable, untilOverlapped } from '../../helpers/checks/concurrency/history'
import {
  issueModel,
  moneyModel,
  quoteDataModel,
  type IssueInput,
  type IssueOutput,
  type MoneyInput,
  type MoneyOutput,
  type QuoteInput,
  type QuoteOutput,
} from '../../helpers/oracle/linearizability/models'

/**
 * Concurrent clients (issue 41): two or more operations on one resource at once, their answers and the reads after
 * them judged together by the linearizability checker (helpers/oracle/linearizability/). The spec does not say which
 * of two overlapping writers wins; it says what each operation does, so the whole history must be explainable by SOME
 * order that respects real time, with nothing lost and nothing mixed up between writers or between resources.
 */
const t = useTarget()
const flow = useSalesFlow(t, 'concurrency')
const product = t.config.product
const s = flow.settings
const ps = policiesSettings(t.config)
const api = new PoliciesApi(t, ps)

const ok = (res: HttpResult) => res.status >= 200 && res.status < 300
const refused = (res: HttpResult) => res.status >= 400 && res.status < 500
/** The premium a calculate answer carries (the quote document's financials), when it carries one. */
const PREMIUM_AT = '/data/policy/financials/periodPremium'

/**
 * A write's answer in the quote model's terms; a 5xx or an unreadable answer leaves the history (the check fails on
 * it).
 */
function writeOutput(res: HttpResult): QuoteOutput | undefined {
  if (ok(res)) return { status: 'ok' }
  return refused(res) ? { status: 'refused' } : undefined
}
function readOutput(res: HttpResult): QuoteOutput | undefined {
  return res.status === 200 ? { status: 'ok', data: getPointer(res.body, '/data') } : undefined
}
function calcOutput(res: HttpResult): QuoteOutput | undefined {
  if (!ok(res)) return refused(res) ? { status: 'refused' } : undefined
  const premium = getPointer(res.body, PREMIUM_AT)
  const data = getPointer(res.body, '/data')
  return { status: 'ok', ...(data !== undefined ? { data } : {}), ...(typeof premium === 'number' ? { premium } : {}) }
}

/**
 * A concurrent write is answered: done (2xx) or refused (4xx, e.g. the quote is locked by the other), never a server
 * error.
 */
function expectAnswered(res: HttpResult, what: string): void {
  expectThat(ok(res) || refused(res), {
    expected: `${what}: 2xx (done) or 4xx (refused, e.g. locked by the other writer)`,
    actual: `status ${res.status}`,
    res,
  })
}

/** The partial update of the product's payload overrides (pointer -> value), its date tokens resolved. */
function updateOf(): [string, unknown][] {
  const u = flow.payloadOverrides(product).update ?? { '/policy/paymentFrequency': 'annual' }
  return Object.entries(u).map(([p, v]) => [p, resolveDateToken(v, new Date())])
}
function patchOf(entries: [string, unknown][]): Record<string, unknown> {
  const json: Record<string, unknown> = {}
  for (const [p, v] of entries) setPointer(json, p, v)
  return json
}

/**
 * A quote created unlike the update at each of its fields (a field that already held its new value would make a lost
 * or mixed write invisible), unlocked, and its first read: the values of the pointers the check tracks.
 */
async function quoteToEdit(label: string, tracked: string[], o: { calculated?: boolean } = {}) {
  const unlike = Object.fromEntries(updateOf())
  const q = await given(
    `a ${o.calculated ? 'calculated ' : ''}${product} quote to edit at once from two clients`,
    async () => {
      const created = o.calculated
        ? await flow.calculatedQuote(product, { label, unlike, unlikeEach: true })
        : await flow.createQuote(product, { label, unlike, unlikeEach: true })
      if (!o.calculated) await flow.unlocked(created.quoteId, 'wait after create')
      return created
    },
    { product },
  )
  const history = new CheckHistory<QuoteInput, QuoteOutput>()
  const first = await history.run('setup', { kind: 'read' }, () => flow.getQuote(q.quoteId), readOutput)
  expectStatus(first, 200)
  const initial = new Map(tracked.map((p) => [p, getPointer(first.body, `/data${p}`)] as [string, unknown]))
  return { quoteId: q.quoteId, history, model: quoteDataModel(initial), first }
}

/** Waits for the quote's lock to go (the writes done), then reads it into the history. */
async function settleAndRead(
  quoteId: string,
  history: CheckHistory<QuoteInput, QuoteOutput>,
  caller = 'reader',
): Promise<HttpResult> {
  await given(
    'the quote unlocked after the concurrent operations',
    () => flow.released(quoteId, 'wait after the concurrent operations'),
    { product },
  )
  const after = await history.run(caller, { kind: 'read' }, () => flow.getQuote(quoteId), readOutput)
  expectStatus(after, 200)
  return after
}

/** One update per patch, all sent at once, each a writer of the quote's history. */
function updatesAtOnce(q: Awaited<ReturnType<typeof quoteToEdit>>, patches: Record<string, unknown>[]) {
  return Promise.all(
    patches.map((patch, i) =>
      q.history.run(`writer ${i + 1}`, { kind: 'update', patch }, () => flow.update(q.quoteId, patch), writeOutput),
    ),
  )
}

/** Reads the quote once its writes are done, and judges its history: one order of real time explains every answer. */
async function expectQuoteLinearizable(q: Awaited<ReturnType<typeof quoteToEdit>>, requirement: string): Promise<void> {
  const after = await settleAndRead(q.quoteId, q.history)
  await expectLinearizable([{ resource: `quote ${q.quoteId}`, model: q.model, history: q.history }], {
    requirement,
    res: after,
  })
}

/** Starts `second` once `first` is on its way (both in flight together), and awaits both. */
async function overlapping<A, B>(first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
  const a = first()
  await new Promise<void>((resolve) => setImmediate(resolve))
  return Promise.all([a, second()])
}

describe(
  'concurrency: overlapping writes on one resource, judged for linearizability (sales-service.md §3, ' + '§4)',
  () => {
    // each check edits its own resources: the checks run side by side, each its own chain of requests
    sideBySide()
    checkApart(
      {
        id: 'SL-CONC-001',
        spec: 'sales',
        section: '§4',
        requirement:
          'Two overlapping updates of one quote naming different fields are each done or refused, and the quote read ' +
          'afterwards shows the fields of every update answered 2xx: no update is lost.',
      },
      async (c) => {
        const fields = updateOf()
        if (fields.length < 2)
          c.notApplicable(`the product's update names ${fields.length} field(s); two disjoint updates need two`)
        const [a, b] = [fields.slice(0, 1), fields.slice(1, 2)]
        const patches = [patchOf(a), patchOf(b)]
        const {
          q,
          writes: [ra, rb],
        } = await untilOverlapped(c, async (n) => {
          const q = await quoteToEdit(`conc-disjoint-${n}`, [a[0]![0], b[0]![0]])
          return { q, writes: await updatesAtOnce(q, patches) }
        })
        expectAnswered(ra!, 'the first update')
        expectAnswered(rb!, 'the second update')
        expectThat(ok(ra!) || ok(rb!), {
          expected: 'one of two updates of an unlocked quote done (2xx)',
          actual: `statuses ${ra!.status} and ${rb!.status}`,
          res: rb!,
        })
        await expectQuoteLinearizable(q, 'two updates of different fields')
      },
    )

    checkApart(
      {
        id: 'SL-CONC-002',
        spec: 'sales',
        section: '§4',
        requirement:
          'Two overlapping updates of one quote naming the same fields leave the quote with the values of one writer ' +
          'whole (either may win), never a mix of both.',
      },
      async (c) => {
        const fields = updateOf()
        if (fields.length < 2) c.notApplicable(`the product's update names ${fields.length} field(s); a mix needs two`)
        const pointers = fields.map(([p]) => p)
        const {
          q,
          writes: [ra, rb],
        } = await untilOverlapped(c, async (n) => {
          const q = await quoteToEdit(`conc-same-${n}`, pointers)
          // writer 1 the update's values, writer 2 the values the quote holds now (a field it lacks removed: null):
          // either may win, a mix of the two is neither
          const patches = [
            patchOf(fields),
            patchOf(pointers.map((p) => [p, getPointer(q.first.body, `/data${p}`) ?? null])),
          ]
          return { q, writes: await updatesAtOnce(q, patches) }
        })
        expectAnswered(ra!, 'the first update')
        expectAnswered(rb!, 'the second update')
        await expectQuoteLinearizable(q, 'two updates of the same fields')
      },
    )

    checkApart(
      {
        id: 'SL-CONC-003',
        spec: 'sales',
        section: '§4',
        requirement:
          'An update overlapping a calculation of the same quote: the calculation answers the data of one moment ' +
          '(before or after the update), and an update answered 2xx is not undone by the calculation.',
      },
      async (c) => {
        const fields = updateOf().slice(0, 1)
        const patch = patchOf(fields)
        const {
          q,
          writes: [rc, ru],
        } = await untilOverlapped(c, async (n) => {
          const q = await quoteToEdit(
            `conc-calc-${n}`,
            fields.map(([p]) => p),
            { calculated: true },
          )
          const writes = await overlapping(
            () => q.history.run('calculator', { kind: 'calculate' }, () => flow.calculate(q.quoteId), calcOutput),
            () => q.history.run('writer', { kind: 'update', patch }, () => flow.update(q.quoteId, patch), writeOutput),
          )
          return { q, writes }
        })
        expectAnswered(rc!, 'the calculation')
        expectAnswered(ru!, 'the update')
        await expectQuoteLinearizable(q, 'an update and a calculation')
      },
    )

    checkApart(
      {
        id: 'SL-CONC-004',
        spec: 'sales',
        section: '§4',
        requirement:
          'Several quotes calculated at once: each calculation answers its own quote (its data and the premium its ' +
          "data was calculated at before), never another quote's numbers.",
      },
      async (c) => {
        const n = 4
        const tracked = [...(s.tagPointer ? [s.tagPointer] : []), ...updateOf().map(([p]) => p)]
        const { quotes, writes: answers } = await untilOverlapped(c, async (attempt) => {
          const quotes = await Promise.all(
            Array.from({ length: n }, (_, i) =>
              quoteToEdit(`conc-many-${attempt}-${i}`, tracked, { calculated: true }),
            ),
          )
          // each quote's premium as a calculation alone answers it (the model then holds every later one to it)
          for (const q of quotes) {
            const alone = await q.history.run(
              'setup',
              { kind: 'calculate' },
              () => flow.calculate(q.quoteId),
              calcOutput,
            )
            expectStatus(alone, '2xx')
            await given(
              'the quote unlocked after its calculation',
              () => flow.released(q.quoteId, 'wait after calculate'),
              { product },
            )
          }
          const writes = await Promise.all(
            quotes.map((q, i) =>
              q.history.run(`batch ${i + 1}`, { kind: 'calculate' }, () => flow.calculate(q.quoteId), calcOutput),
            ),
          )
          return { quotes, writes }
        })
        answers.forEach((res, i) => expectAnswered(res, `the calculation of quote ${i + 1}`))
        await expectLinearizable(
          quotes.map((q) => ({ resource: `quote ${q.quoteId}`, model: q.model, history: q.history })),
          { requirement: `${n} quotes calculated at once`, res: answers[0]! },
        )
      },
    )

    checkApart(
      {
        id: 'SL-CONC-005',
        spec: 'sales',
        section: '§3',
        requirement:
          'Two overlapping issues of one bound quote make one policy at most: every request that succeeds names the ' +
          'same policy.',
      },
      async (c) => {
        const issueOutput = (res: HttpResult): IssueOutput | undefined => {
          const request = flow.requestIdOf(res)
          if (ok(res) && request !== undefined) return { status: 'accepted', request }
          return refused(res) ? { status: 'refused' } : undefined
        }
        const {
          q,
          history,
          writes: issues,
        } = await untilOverlapped(c, async (n) => {
          const q = await given('a bound quote', () => flow.boundQuote(product, { label: `conc-issue-${n}` }), {
            product,
          })
          const history = new CheckHistory<IssueInput, IssueOutput>()
          const writes = await Promise.all(
            [1, 2].map((i) => history.run(`issuer ${i}`, { kind: 'issue' }, () => flow.issue(q.quoteId), issueOutput)),
          )
          flow.markFinal(q.quoteId)
          return { q, history, writes }
        })
        issues.forEach((res, i) => expectAnswered(res, `issue ${i + 1}`))
        const accepted = issues
          .map((res) => flow.requestIdOf(res))
          .filter((r, i): r is string => r !== undefined && ok(issues[i]!))
        expectThat(accepted.length >= 1, {
          expected: 'one of two issues of a bound quote accepted (2xx with a request id)',
          actual: issues.map((r) => r.status).join(' and '),
          res: issues[0]!,
        })
        for (const request of accepted) {
          const call = performance.now()
          const r = await flow.waitRequest(request)
          if (r.outcome !== 'success' && r.outcome !== 'failure')
            throw new SalesFlowError(
              'issue request',
              `${r.outcome} after ${r.attempts.length} attempts`,
              r.last?.value.res,
              { operation: 'sales.requests.get', product, owner: `SL-LIFE-010-${product}` },
            )
          const policy = r.outcome === 'success' ? getPointer(r.value?.body, s.policyIdPointer) : undefined
          history.add(
            'poller',
            { kind: 'outcome', request },
            r.outcome === 'success' ? { status: 'success', policy: String(policy) } : { status: 'failure' },
            call,
            performance.now(),
          )
        }
        await expectLinearizable([{ resource: `quote ${q.quoteId}`, model: issueModel, history }], {
          requirement: 'two issues of one bound quote',
          res: issues[1]!,
        })
      },
    )

    checkApart(
      {
        id: 'PL-CONC-001',
        spec: 'sales',
        section: '§1',
        requirement:
          'An allocation of a payment overlapping the credit of an earlier allocation of it: both are done or ' +
          'refused, and paid in the period totals afterwards moves by exactly what was done, in whichever order.',
      },
      async (c) => {
        const cents = (x: number) => Math.round(x * 100)
        const totals = (res: HttpResult): MoneyOutput | undefined => {
          if (res.status !== 200) return undefined
          const paid = api.readTotals(res).paid
          return { status: 'ok', ...(paid !== undefined ? { paidCents: cents(paid) } : {}) }
        }
        const moneyWrite = (res: HttpResult): MoneyOutput | undefined =>
          ok(res) ? { status: 'ok' } : refused(res) ? { status: 'refused' } : undefined
        const {
          setup,
          history,
          writes: [ra, rc],
        } = await untilOverlapped(c, async (n) => {
          const setup = await given(
            'an issued policy, a payment and a first allocation of it',
            async () => {
              const p = await issuePolicy(flow, api, { label: `conc-money-${n}` })
              const inv = await api.invoices(p.policyId)
              const first = api.readInvoices(inv)?.[0]
              if (inv.status !== 200 || first?.amount === undefined || first.amount < 5)
                throw new SalesFlowError('invoices', 'a first invoice with an amount of at least 5', inv, { product })
              const amount = roundMoney(first.amount * 0.6)
              const pay = await api.insertPayment(amount, new Date().toISOString().slice(0, 10))
              const paymentId = api.paymentIdOf(pay)
              if (!ok(pay) || paymentId === undefined)
                throw new SalesFlowError('insert payment', 'a payment id', pay, { product })
              const a1 = roundMoney(amount * 0.5)
              const alloc = await api.allocate(paymentId, [{ invoicenumber: first.invoicenumber, amount: a1 }])
              const event = api.eventIdsOf(alloc)?.[0]
              if (!ok(alloc) || event === undefined)
                throw new SalesFlowError('allocate', 'an allocation event id', alloc, { product })
              return {
                policyId: p.policyId,
                invoice: first.invoicenumber,
                paymentId,
                event,
                a1,
                a2: roundMoney(amount * 0.3),
              }
            },
            { product },
          )
          const history = new CheckHistory<MoneyInput, MoneyOutput>()
          const before = await history.run('reader', { kind: 'totals' }, () => api.totals(setup.policyId), totals)
          expectStatus(before, 200)
          const writes = await Promise.all([
            history.run(
              'allocator',
              { kind: 'allocate', cents: cents(setup.a2) },
              () => api.allocate(setup.paymentId, [{ invoicenumber: setup.invoice, amount: setup.a2 }]),
              moneyWrite,
            ),
            history.run(
              'creditor',
              { kind: 'credit', cents: cents(setup.a1) },
              () => api.credit(setup.event),
              moneyWrite,
            ),
          ])
          return { setup, history, writes }
        })
        expectAnswered(ra!, 'the allocation')
        expectAnswered(rc!, 'the credit')
        const after = await history.run('reader', { kind: 'totals' }, () => api.totals(setup.policyId), totals)
        expectStatus(after, 200)
        // the allocation made now is credited back (best effort), so the policy's money is as the file found it
        for (const e of api.eventIdsOf(ra!) ?? []) await api.credit(e).catch(() => undefined)
        await expectLinearizable([{ resource: `policy ${setup.policyId}`, model: moneyModel, history }], {
          requirement: 'an allocation and a credit of one payment',
          res: after,
        })
      },
    )
  },
)
