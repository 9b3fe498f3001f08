import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectContract } from '../../helpers/checks/contract'
import { expectEqual, expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given, givenOnce } from '../../helpers/checks/setup'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { moneyEqual, sumMoney } from '../../helpers/checks/policies/money'
import { issuePolicy } from '../../helpers/checks/policies/scenario'
import { policiesSettings } from '../../common/config/policies-settings'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { probesFor } from '../../helpers/checks/probes/requests'

const t = useTarget()
const s = policiesSettings(t.config)
const api = new PoliciesApi(t, s)
const flow = useSalesFlow(t)
const probes = probesFor(t)
const policy = givenOnce('an issued policy', () => issuePolicy(flow, api, { label: 'policy-data' }), {
  product: t.config.product,
})

describe('policy data: invoices and period totals of an issued policy (sales-service.md §1, §4)', () => {
  check(
    {
      id: 'PL-DATA-001',
      spec: 'sales',
      section: '§4',
      requirement:
        "GET /policies/{policyId}/invoices returns one invoice per installment of the policy's schedule, with its " +
        'due date and premium.',
    },
    async () => {
      const p = await policy()
      const schedule = await flow.installments(p.quoteId)
      expectStatus(schedule, 200)
      const inst = (expectJsonBody(schedule) as { instalments?: unknown }).instalments
      expectThat(Array.isArray(inst) && inst.length > 0, {
        expected: 'the installments schedule of the issued quote (instalments array)',
        actual: schedule.body,
        res: schedule,
      })
      const res = await api.invoices(p.policyId)
      expectStatus(res, 200)
      const invoices = api.readInvoices(res)
      expectThat(invoices !== undefined, {
        expected: `an array of invoices at '${s.invoices.listPointer}'`,
        actual: res.body,
        res,
      })
      // sales §4 gives the invoices no order: compared as sets, sorted by due date then premium (the
      // invoices-newest-first variation answers them newest first)
      const order = (a: { duedate: unknown; premium: unknown }, b: { duedate: unknown; premium: unknown }) =>
        String(a.duedate).localeCompare(String(b.duedate)) || Number(a.premium) - Number(b.premium)
      const want = (inst as { dueDate: unknown; premium: unknown }[])
        .map((i) => ({ duedate: i.dueDate, premium: i.premium }))
        .sort(order)
      const got = invoices.map((i) => ({ duedate: i.duedate, premium: i.premium })).sort(order)
      expectEqual(got, want, 'invoices (duedate, premium), one per installment, in any order', res)
    },
  )

  check(
    {
      id: 'PL-DATA-002',
      spec: 'sales',
      section: '§4',
      requirement:
        'The period totals of a new policy agree with its invoices: premium and fees are their sums, nothing is ' +
        'paid, the balance is premium plus fees.',
    },
    async () => {
      const p = await policy()
      const inv = await api.invoices(p.policyId)
      expectStatus(inv, 200)
      const invoices = api.readInvoices(inv) ?? []
      const res = await api.totals(p.policyId)
      expectStatus(res, 200)
      const got = api.readTotals(res)
      const premium = sumMoney(invoices.map((i) => (typeof i.premium === 'number' ? i.premium : NaN)))
      const fees = sumMoney(invoices.map((i) => (typeof i.adminfee === 'number' ? i.adminfee : NaN)))
      const want = { premium, fees, paid: 0, balance: sumMoney([premium, fees]) }
      const ok = (Object.keys(want) as (keyof typeof want)[]).every(
        (k) => got[k] !== undefined && moneyEqual(got[k]!, want[k], s.moneyTolerance),
      )
      expectThat(ok, { expected: `totals ${JSON.stringify(want)} (± ${s.moneyTolerance})`, actual: got, res })
    },
  )

  check(
    {
      id: 'PL-DATA-003',
      spec: 'sales',
      section: '§4',
      requirement:
        `Invoices and period totals of a policy id that does not exist are refused ` +
        `with ${probes.settings.unknownId.statuses.join(' or ')}: ${probes.settings.unknownId.why}.`,
    },
    async () => {
      const unknown = probes.missing('sales', (await policy()).policyId)
      expectStatus(await api.invoices(unknown), probes.settings.unknownId.statuses)
      expectStatus(await api.totals(unknown), probes.settings.unknownId.statuses)
    },
  )

  check(
    {
      id: 'PL-DATA-004',
      spec: 'sales',
      section: '§4',
      requirement: "A caller of another tenant gets a 4xx and none of the policy's invoices or totals.",
    },
    async (c) => {
      const other = t.user('otherTenant')
      if (!other) return c.notApplicable(t.missingUser('otherTenant'))
      const p = await policy()
      const own = api.readInvoices(await api.invoices(p.policyId)) ?? []
      for (const res of [await api.invoices(p.policyId, other), await api.totals(p.policyId, other)]) {
        expectStatus(res, '4xx')
        const leaked = own
          .filter((i) => i.invoicenumber !== '' && res.text.includes(i.invoicenumber))
          .map((i) => i.invoicenumber)
        expectThat(leaked.length === 0, {
          expected: 'no invoice of the policy in the refusal',
          actual: `invoice numbers ${leaked.join(', ')}`,
          res,
        })
      }
    },
  )

  check(
    {
      id: 'PL-CON-001',
      spec: 'sales',
      section: '§4',
      requirement:
        'GET /policies/{policyId}/invoices answers an array of invoices with invoicenumber, duedate, premium, ' +
        'adminfee, mgacomm, brokercomm and payable.',
    },
    async () => {
      const p = await policy()
      const res = await api.invoices(p.policyId)
      expectStatus(res, 200)
      expectContract(t.contracts, res, 'sales/policy-invoices')
    },
  )

  check(
    {
      id: 'PL-CON-002',
      spec: 'sales',
      section: '§4',
      requirement:
        'GET /policies/{id}/period-totals answers the total financials of the policy (premium, fees, paid, balance, ' +
        'return premium).',
    },
    async (c) => {
      const name = api.contract('sales/policy-period-totals')
      if (!name) return c.notApplicable('the profile sets no contract for the period totals shape')
      const p = await policy()
      const res = await api.totals(p.policyId)
      expectStatus(res, 200)
      expectContract(t.contracts, res, name)
    },
  )
})
