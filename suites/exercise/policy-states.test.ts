import { lifecycle } from '../../helpers/checks/check'
import { expectEqual, expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import { expectPollSuccess, expectReleased } from '../../helpers/checks/poll'
import { useTarget } from '../../helpers/checks/context'
import { given } from '../../helpers/checks/setup'
import { getPointer, valuesAt } from '../../helpers/client/data/json-pointer'
import type { HttpResult } from '../../helpers/client/http/types'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { addDays, daysBetween } from '../../helpers/checks/policies/dates'
import { moneyEqual, roundMoney } from '../../helpers/checks/policies/money'
import { issuePolicy, type PolicyUnderTest } from '../../helpers/checks/policies/scenario'
import { deepMerge, fillTemplate } from '../../helpers/checks/policies/template'
import { setPointer } from '../../helpers/checks/sales/json-set'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { policiesSettings } from '../../common/config/policies-settings'
import { exerciseSettings } from '../../common/config/exercise-settings'

/**
 * A policy through its states, every view read again after each write that may change it (issue 40, the exercise
 * model's policy states and re-reads: docs/exercise.md): a technical change, an MTA, a termination; then the operations
 * a terminated policy must refuse. The model's invariants judge every re-read (PL-INV-*); these checks own what the
 * re-reads must show and the refusals.
 */
const t = useTarget()
const s = policiesSettings(t.config)
const x = exerciseSettings(t.config)
const api = new PoliciesApi(t, s)
const flow = useSalesFlow(t)

/** Query parameter -> JSON pointer into the policy data (profile features.customer_identity.params). */
const identityParams =
  (t.config.features['customer_identity'] as { params?: Record<string, string> } | undefined)?.params ?? {}

function identityOf(data: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, ptr] of Object.entries(identityParams)) {
    const v = getPointer(data, ptr)
    if (typeof v === 'string' || typeof v === 'number') out[name] = String(v)
  }
  return out
}

/**
 * Every view of a policy, read once each and side by side: the links, invoices, period totals, renewal data, custom
 * view, a termination quote.
 */
async function readEveryView(
  p: PolicyUnderTest,
  date: string,
  terminated: boolean,
): Promise<Record<string, HttpResult>> {
  // reads only, so they go at once (the model judges a read overlapped by no write, and these overlap none)
  const reads: [string, Promise<HttpResult>][] = [
    ['links', api.links(p.policyId)],
    ['invoices', api.invoices(p.policyId)],
    ['period totals', api.totals(p.policyId)],
    ['renewal', api.renewal(p.policyId)],
  ]
  if (Object.keys(identityParams).length > 0)
    reads.push(['custom view', api.customView(p.policyId, identityOf(p.data))])
  // a termination quote is a view of a live policy; on a terminated one it is a refusal (EX-TERM-003 owns it)
  if (!terminated) reads.push(['termination quote', api.terminationPremiums(p.policyId, { type: 'pro-rata', date })])
  const answers = await Promise.all(reads.map(([, answer]) => answer))
  return Object.fromEntries(reads.map(([name], i) => [name, answers[i]!]))
}

function expectEveryViewReadable(views: Record<string, HttpResult>, after: string): void {
  for (const [name, res] of Object.entries(views))
    expectThat(res.status === 200, {
      expected: `200: the ${name} of the policy read after ${after}`,
      actual: `status ${res.status}`,
      res,
    })
}

/** The renewal data carries the fields a change set (pointer -> value), as the policy does. */
function expectRenewalCarries(res: HttpResult, change: Record<string, unknown>, after: string): void {
  const data = getPointer(expectJsonBody(res), s.renewal.dataPointer)
  expectEqual(valuesAt(data, Object.keys(change)), change, `the renewal data's fields changed by ${after}`, res)
}

/**
 * An MTA of the policy with the changes given, created, calculated, bound and issued (PL-MTA-001..003 own each step).
 */
async function issueMta(
  p: PolicyUnderTest,
  changes: Record<string, unknown>,
  vars: Record<string, unknown>,
): Promise<string> {
  const payload = structuredClone(p.issued.payload)
  for (const [ptr, v] of Object.entries(changes)) setPointer(payload, ptr, v)
  const res = await api.mta(deepMerge(payload, fillTemplate(s.mta.body, vars)))
  expectStatus(res, '2xx', { owner: 'PL-MTA-001' })
  const id = String(getPointer(res.body, s.mta.quoteIdPointer))
  flow.created.set(id, { product: p.issued.product, final: false })
  await expectReleased(await flow.waitActions(id), `the actions of MTA quote ${id} after create`)
  expectStatus(await flow.calculate(id), '2xx', { owner: 'PL-MTA-002' })
  await flow.unlocked(id, 'wait after MTA calculate')
  expectStatus(await flow.bind(id), '2xx', { owner: 'PL-MTA-003' })
  await flow.unlocked(id, 'wait after MTA bind')
  const issue = await flow.issue(id)
  expectStatus(issue, '2xx', { owner: 'PL-MTA-003' })
  flow.markFinal(id)
  const requestId = flow.requestIdOf(issue)
  expectThat(requestId !== undefined, {
    expected: `a request id at ${flow.settings.requestIdPointer}`,
    actual: issue.body,
    res: issue,
  })
  await expectPollSuccess(await flow.waitRequest(requestId!), 'the MTA issue request', { owner: 'PL-MTA-003' })
  return id
}

lifecycle(
  'a policy through its states, every view re-read after each write (issue 40; sales-service.md §1, §4)',
  (step) => {
    const st: {
      p?: PolicyUnderTest
      date?: string
      dateEffective?: string
      technical?: Record<string, unknown>
      mta?: Record<string, unknown>
      terminated?: HttpResult
      linksBefore?: HttpResult
    } = {}

    step(
      {
        id: 'EX-REREAD-001',
        spec: 'sales',
        section: '§1, §4',
        requirement:
          'After a technical change every view of the policy answers 200 again, and the renewal data carries the ' +
          'changed data (a renewal prepares the policy as it is now).',
      },
      async () => {
        const p = await given(
          'an issued monthly policy, every view read once',
          async () => {
            const issued = await issuePolicy(flow, api, { label: 'exercise-states', set: x.monthlySet })
            const span = daysBetween(issued.dateInception, issued.dateExpiry)
            st.date = addDays(issued.dateInception, Math.min(s.termination.afterDays, Math.max(0, span - 1)))
            st.dateEffective = addDays(issued.dateInception, Math.min(s.mta.effectiveAfterDays, Math.max(0, span - 1)))
            expectEveryViewReadable(await readEveryView(issued, st.date, false), 'issue')
            return issued
          },
          { product: t.config.product },
        )
        st.p = p
        st.technical = fillTemplate(s.technicalChange.set, api.vars()) as Record<string, unknown>
        const body: Record<string, unknown> = {}
        for (const [ptr, v] of Object.entries(st.technical)) setPointer(body, ptr, v)
        const change = await api.dataChange(p.policyId, body)
        expectStatus(change, '2xx', { owner: 'PL-TECH-001' })
        const views = await readEveryView(p, st.date!, false)
        expectEveryViewReadable(views, 'a technical change')
        expectRenewalCarries(views['renewal']!, st.technical, 'the technical change')
      },
    )

    step(
      {
        id: 'EX-REREAD-002',
        spec: 'sales',
        section: '§1, §4',
        requirement:
          'After an MTA is issued every view of the policy answers 200 again, and the renewal data carries both the ' +
          'MTA and the earlier technical change.',
      },
      async () => {
        const p = st.p!
        const vars = api.vars({ policyId: p.policyId, dateEffective: st.dateEffective })
        st.mta = fillTemplate(s.mta.set, vars) as Record<string, unknown>
        const mtaId = await given(
          'an MTA issued on the policy',
          () => issueMta(p, { ...st.mta, ...st.technical }, vars),
          { product: t.config.product },
        )
        expectThat(mtaId !== p.policyId, { expected: 'an MTA quote of its own', actual: mtaId })
        const views = await readEveryView(p, st.date!, false)
        expectEveryViewReadable(views, 'an MTA')
        expectRenewalCarries(
          views['renewal']!,
          { ...st.technical, ...st.mta },
          'the MTA and the technical change before it',
        )
        st.linksBefore = views['links']
      },
    )

    step(
      {
        id: 'EX-REREAD-003',
        spec: 'sales',
        section: '§1, §4',
        requirement:
          'After a termination every view of the policy still answers 200 (a terminated policy stays readable: its ' +
          'links, invoices, totals, renewal data and custom view).',
      },
      async () => {
        const p = st.p!
        const sum = await given(
          'an MTA quote and a second technical change on the changed policy, and the premium to return',
          async () => {
            // an operation in each state the policy passes (the exercise model's policy states): an MTA quote of the
            // changed
            // policy (left unissued, declined after the file) and a technical change of it
            const vars = api.vars({ policyId: p.policyId, dateEffective: st.dateEffective })
            const again = await api.mta(deepMerge(structuredClone(p.issued.payload), fillTemplate(s.mta.body, vars)))
            expectStatus(again, '2xx', { owner: 'PL-MTA-001' })
            flow.created.set(String(getPointer(again.body, s.mta.quoteIdPointer)), {
              product: p.issued.product,
              final: false,
            })
            const body: Record<string, unknown> = {}
            for (const [ptr, v] of Object.entries(st.technical!)) setPointer(body, ptr, v)
            expectStatus(await api.dataChange(p.policyId, body), '2xx', { owner: 'PL-TECH-001' })
            // --thorough: an MTA again, so that the termination finds the policy changed by an MTA (the cell
            // sales.termination.terminate|state=changed, left to --thorough: a full MTA lifecycle more on the run's
            // longest chain)
            if (t.config.thorough) await issueMta(p, { ...st.mta, ...st.technical }, vars)
            const totals = await api.totals(p.policyId)
            expectStatus(totals, 200)
            return roundMoney((api.readTotals(totals).premium ?? 0) * 0.25)
          },
          { product: t.config.product },
        )
        st.terminated = await api.terminate(p.policyId, { date: st.date!, sum })
        expectStatus(st.terminated, '2xx', { owner: 'PL-TERM-005' })
        expectEveryViewReadable(await readEveryView(p, st.date!, true), 'a termination')
      },
    )

    step(
      {
        id: 'EX-TERM-001',
        spec: 'sales',
        section: '§1, §4',
        requirement:
          'An MTA of a terminated policy is refused with a 4xx (profile extensions.exercise.terminatedPolicyChanges, ' +
          'default refused).',
      },
      async (c) => {
        if (x.terminatedPolicyChanges !== 'refused')
          return c.notApplicable('the profile leaves extensions.exercise.terminatedPolicyChanges unspecified')
        const p = st.p!
        const vars = api.vars({ policyId: p.policyId, dateEffective: st.dateEffective })
        const payload = structuredClone(p.issued.payload)
        for (const [ptr, v] of Object.entries({ ...st.technical, ...st.mta })) setPointer(payload, ptr, v)
        const res = await api.mta(deepMerge(payload, fillTemplate(s.mta.body, vars)))
        if (res.status >= 200 && res.status < 300) {
          const id = getPointer(res.body, s.mta.quoteIdPointer)
          if (typeof id === 'string' || typeof id === 'number')
            flow.created.set(String(id), { product: p.issued.product, final: false })
        }
        expectStatus(res, '4xx')
      },
    )

    step(
      {
        id: 'EX-TERM-002',
        spec: 'sales',
        section: '§1, §4',
        requirement:
          'A technical change of a terminated policy is refused with a 4xx and changes nothing: the policy reads ' +
          'back as before (profile extensions.exercise.terminatedPolicyChanges, default refused).',
      },
      async (c) => {
        if (x.terminatedPolicyChanges !== 'refused')
          return c.notApplicable('the profile leaves extensions.exercise.terminatedPolicyChanges unspecified')
        const p = st.p!
        const change = fillTemplate(s.technicalChange.set, api.vars({ tag: t.tag('after-termination') })) as Record<
          string,
          unknown
        >
        const body: Record<string, unknown> = {}
        for (const [ptr, v] of Object.entries(change)) setPointer(body, ptr, v)
        expectStatus(await api.dataChange(p.policyId, body), '4xx')
        const links = await api.links(p.policyId)
        expectStatus(links, 200)
        const data = getPointer(expectJsonBody(links), s.links.dataPointer)
        expectEqual(
          valuesAt(data, Object.keys(st.technical!)),
          st.technical,
          'the policy data as the technical change before the termination left it',
          links,
        )
      },
    )

    step(
      {
        id: 'EX-TERM-003',
        spec: 'sales',
        section: '§1, §4',
        requirement:
          'A termination quote of a terminated policy is refused with a 4xx (profile ' +
          'extensions.exercise.terminatedPolicyChanges, default refused).',
      },
      async (c) => {
        if (x.terminatedPolicyChanges !== 'refused')
          return c.notApplicable('the profile leaves extensions.exercise.terminatedPolicyChanges unspecified')
        expectStatus(await api.terminationPremiums(st.p!.policyId, { type: 'pro-rata', date: st.date! }), '4xx')
      },
    )

    step(
      {
        id: 'EX-TERM-004',
        spec: 'sales',
        section: '§1, §4',
        requirement:
          'A payment allocated to an invoice of a terminated policy that still has an amount due is accepted and ' +
          "moves the policy's paid and balance by its amount (profile " +
          'extensions.exercise.terminatedPolicyPayments, default accepted: the premium billed up to the ' +
          'termination is still owed), or refused with a 4xx when the profile says refused.',
      },
      async (c) => {
        if (x.terminatedPolicyPayments === 'unspecified')
          return c.notApplicable('the profile leaves extensions.exercise.terminatedPolicyPayments unspecified')
        const p = st.p!
        const { invoice, before, paymentId } = await given(
          'an invoice of the terminated policy with an amount due, its totals, and a payment of 1.00',
          async () => {
            const inv = await api.invoices(p.policyId)
            expectStatus(inv, 200)
            const invoice = (api.readInvoices(inv) ?? []).find((i) => i.invoicenumber !== '' && (i.amount ?? 0) >= 1)
            expectThat(invoice !== undefined, {
              expected: 'an invoice of at least 1.00 on the terminated policy',
              actual: inv.body,
              res: inv,
            })
            const totals = await api.totals(p.policyId)
            expectStatus(totals, 200)
            const pay = await api.insertPayment(1, new Date().toISOString().slice(0, 10))
            expectStatus(pay, '2xx', { owner: 'PL-PAY-001' })
            const paymentId = api.paymentIdOf(pay)
            expectThat(paymentId !== undefined, {
              expected: `the payment id at ${s.payments.paymentIdPointer}`,
              actual: pay.body,
              res: pay,
            })
            return { invoice: invoice!.invoicenumber, before: api.readTotals(totals), paymentId: paymentId! }
          },
          { product: t.config.product },
        )
        const res = await api.allocate(paymentId, [{ invoicenumber: invoice, amount: 1 }])
        const events = res.status >= 200 && res.status < 300 ? (api.eventIdsOf(res) ?? []) : []
        try {
          if (x.terminatedPolicyPayments === 'refused') return expectStatus(res, '4xx')
          expectStatus(res, '2xx')
          const after = await api.totals(p.policyId)
          expectStatus(after, 200)
          const now = api.readTotals(after)
          const want = { paid: roundMoney((before.paid ?? 0) + 1), balance: roundMoney((before.balance ?? 0) - 1) }
          const moved =
            now.paid !== undefined &&
            now.balance !== undefined &&
            moneyEqual(now.paid, want.paid, s.moneyTolerance) &&
            moneyEqual(now.balance, want.balance, s.moneyTolerance)
          expectThat(moved, {
            expected:
              `paid ${want.paid} and balance ${want.balance} (1.00 allocated to invoice ${invoice}; before: ` +
              `paid ${before.paid}, balance ${before.balance})`,
            actual: { paid: now.paid, balance: now.balance },
            res: after,
          })
        } finally {
          // the allocation credited again: the policy's money as the termination left it (best effort)
          for (const e of events) await api.credit(e).catch(() => undefined)
        }
      },
    )
  },
)
