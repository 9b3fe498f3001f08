import { describe } from 'vitest'
import { check, lifecycle } from '../../helpers/checks/check'
import { expectContract } from '../../helpers/checks/contract'
import { expectEqual, expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given, givenOnce } from '../../helpers/checks/setup'
import { getPointer } from '../../helpers/client/data/json-pointer'
import type { HttpResult } from '../../helpers/client/http/types'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { addDays, daysBetween } from '../../helpers/checks/policies/dates'
import {
  moneyEqual,
  proRataReturn,
  roundMoney,
  shortRateReturn,
  type PeriodInput,
} from '../../helpers/checks/policies/money'
import { issuePolicy } from '../../helpers/checks/policies/scenario'
import { policiesSettings } from '../../common/config/policies-settings'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'

const t = useTarget()
const s = policiesSettings(t.config)
const api = new PoliciesApi(t, s)
const flow = useSalesFlow(t)

/** The policy, its period premium (from the period totals) and the termination date used by every check. */
const subject = givenOnce(
  'an issued policy and its period premium',
  async () => {
    const p = await issuePolicy(flow, api, { label: 'termination' })
    const totals = await api.totals(p.policyId)
    expectStatus(totals, 200)
    const premium = api.readTotals(totals).premium
    expectThat(premium !== undefined && premium > 0, {
      expected: `a positive premium at ${s.totals.premium} of the period totals`,
      actual: totals.body,
      res: totals,
    })
    const span = daysBetween(p.dateInception, p.dateExpiry)
    const date = addDays(p.dateInception, Math.min(s.termination.afterDays, Math.max(0, span - 1)))
    const period: PeriodInput = {
      premium,
      dateInception: p.dateInception,
      dateExpiry: p.dateExpiry,
      dayCount: s.dayCount,
    }
    return { p, period, date, manualSum: roundMoney(premium * 0.37) }
  },
  { product: t.config.product },
)

function expectReturn(res: HttpResult, want: number, how: string): void {
  expectStatus(res, 200)
  const got = api.returnPremiumOf(res)
  expectThat(got !== undefined && moneyEqual(got, want, s.moneyTolerance), {
    expected: `return premium ${want} (${how}) at ${s.termination.returnPremiumPointer}`,
    actual: got ?? res.body,
    res,
  })
}

describe('termination return premiums, checked against independently computed amounts (sales-service.md §4)', () => {
  check(
    {
      id: 'PL-TERM-001',
      spec: 'sales',
      section: '§4',
      requirement:
        'The pro-rata return premium is the period premium times the unused days over the days of the period.',
    },
    async () => {
      const { p, period, date } = await subject()
      const res = await api.terminationPremiums(p.policyId, { type: 'pro-rata', date })
      expectReturn(
        res,
        proRataReturn(period, date),
        `pro-rata of ${period.premium} from ${date} in ${period.dateInception}..${period.dateExpiry}, ${s.dayCount}`,
      )
      const name = api.contract('sales/termination-premiums')
      if (name) expectContract(t.contracts, res, name)
    },
  )

  check(
    {
      id: 'PL-TERM-002',
      spec: 'sales',
      section: '§4',
      requirement: 'The short-rate return premium is the pro-rata return less the short-rate percentage.',
    },
    async () => {
      const { p, period, date } = await subject()
      const pct = s.termination.shortRatePct
      const res = await api.terminationPremiums(p.policyId, { type: 'short-rate', date, shortRatePct: pct })
      expectReturn(
        res,
        shortRateReturn(period, date, pct, s.termination.shortRateBase),
        `short-rate ${pct} % of the ${s.termination.shortRateBase} from ${date}`,
      )
    },
  )

  check(
    {
      id: 'PL-TERM-003',
      spec: 'sales',
      section: '§4',
      requirement: 'The manual return premium is the termination sum given.',
    },
    async () => {
      const { p, date, manualSum } = await subject()
      expectReturn(
        await api.terminationPremiums(p.policyId, { type: 'manual', date, sum: manualSum }),
        manualSum,
        'the terminationSum sent',
      )
    },
  )

  check(
    {
      id: 'PL-TERM-004',
      spec: 'sales',
      section: '§4',
      requirement: "A return premium for a termination date outside the policy's period is refused with a 4xx.",
    },
    async () => {
      const { p } = await subject()
      expectStatus(
        await api.terminationPremiums(p.policyId, { type: 'pro-rata', date: addDays(p.dateExpiry, 30) }),
        '4xx',
      )
    },
  )
})

lifecycle('termination with a manual premium (sales-service.md §1, §4)', (step) => {
  const st: { totalsBefore?: ReturnType<PoliciesApi['readTotals']>; afterFirst?: HttpResult } = {}

  step(
    {
      id: 'PL-TERM-005',
      spec: 'sales',
      section: '§4',
      requirement:
        'POST /policies/{policyId}/terminate with a manual premium terminates the policy and returns an event id.',
    },
    async () => {
      const { p, date, manualSum } = await subject()
      const before = await api.totals(p.policyId)
      expectStatus(before, 200)
      st.totalsBefore = api.readTotals(before)
      const res = await api.terminate(p.policyId, { date, sum: manualSum })
      expectStatus(res, '2xx')
      const id = getPointer(expectJsonBody(res), s.termination.eventIdPointer)
      expectThat((typeof id === 'string' && id !== '') || typeof id === 'number', {
        expected: `an event id at ${s.termination.eventIdPointer}`,
        actual: res.body,
        res,
      })
      const name = api.contract('sales/termination-event')
      if (name) expectContract(t.contracts, res, name)
    },
  )

  step(
    {
      id: 'PL-TERM-006',
      spec: 'sales',
      section: '§1, §4',
      requirement: 'After termination the policy shows its terminated status and the termination date.',
    },
    async () => {
      const { p, date } = await subject()
      const res = await api.links(p.policyId)
      expectStatus(res, 200)
      const got = {
        status: getPointer(res.body, s.links.statusPointer),
        terminationDate: getPointer(res.body, s.links.terminationDatePointer),
      }
      expectEqual(
        got,
        { status: s.links.terminatedStatus, terminationDate: date },
        `policy status (${s.links.statusPointer}) and termination date (${s.links.terminationDatePointer})`,
        res,
      )
    },
  )

  step(
    {
      id: 'PL-TERM-007',
      spec: 'sales',
      section: '§1, §4',
      requirement: 'After termination the period totals show the return premium and a premium reduced by it.',
    },
    async () => {
      const { p, manualSum } = await subject()
      const res = await api.totals(p.policyId)
      expectStatus(res, 200)
      st.afterFirst = res
      const got = api.readTotals(res)
      const want = { returnPremium: manualSum, premium: roundMoney(st.totalsBefore!.premium! - manualSum) }
      const ok =
        got.returnPremium !== undefined &&
        got.premium !== undefined &&
        moneyEqual(got.returnPremium, want.returnPremium, s.moneyTolerance) &&
        moneyEqual(got.premium, want.premium, s.moneyTolerance)
      expectThat(ok, {
        expected: `totals ${JSON.stringify(want)} (premium before ${st.totalsBefore!.premium})`,
        actual: got,
        res,
      })
    },
  )

  step(
    {
      id: 'PL-TERM-008',
      spec: 'sales',
      section: '§1, §4',
      requirement: 'A second termination of a terminated policy is refused with a 4xx and changes nothing.',
    },
    async () => {
      const { p, date, manualSum } = await subject()
      expectStatus(await api.terminate(p.policyId, { date, sum: manualSum }), '4xx')
      const after = await api.totals(p.policyId)
      expectEqual(after.text, st.afterFirst!.text, 'the period totals (as after the first termination)', after)
    },
  )
})
