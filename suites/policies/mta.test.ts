import { describe } from 'vitest'
import { check, lifecycle } from '../../helpers/checks/check'
import { expectContract } from '../../helpers/checks/contract'
import { expectEqual, expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import { expectPollSuccess, expectReleased } from '../../helpers/checks/poll'
import { useTarget } from '../../helpers/checks/context'
import { given, givenOnce } from '../../helpers/checks/setup'
import { getPointer, valuesAt } from '../../helpers/client/data/json-pointer'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { addDays, daysBetween } from '../../helpers/checks/policies/dates'
import { moneyEqual, mtaPremium } from '../../helpers/checks/policies/money'
import { issuePolicy, type PolicyUnderTest } from '../../helpers/checks/policies/scenario'
import { policiesSettings } from '../../common/config/policies-settings'
import { deepMerge, fillTemplate } from '../../helpers/checks/policies/template'
import { setPointer } from '../../helpers/checks/sales/json-set'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { probesFor } from '../../helpers/checks/probes/requests'

const t = useTarget()
const s = policiesSettings(t.config)
const api = new PoliciesApi(t, s)
const flow = useSalesFlow(t)
const probes = probesFor(t)

lifecycle('mid-term adjustment: a change of an issued policy through a quote (sales-service.md §1, §4)', (step) => {
  const st: {
    p?: PolicyUnderTest
    premiumBefore?: number
    dateEffective?: string
    change?: Record<string, unknown>
    mtaId?: string
    newPremium?: number
  } = {}

  step(
    {
      id: 'PL-MTA-001',
      spec: 'sales',
      section: '§4',
      requirement:
        'POST /sales/policies/mta with the id and changed data of an issued policy creates a new quote on that ' +
        'policy and returns its id.',
    },
    async () => {
      const { p, premiumBefore } = await given(
        'an issued policy and its premium',
        async () => {
          const issued = await issuePolicy(flow, api, { label: 'mta' })
          const totals = await api.totals(issued.policyId)
          expectStatus(totals, 200)
          const premium = api.readTotals(totals).premium
          expectThat(premium !== undefined, {
            expected: `the premium at ${s.totals.premium} of the period totals`,
            actual: totals.body,
            res: totals,
          })
          return { p: issued, premiumBefore: premium }
        },
        { product: t.config.product },
      )
      st.p = p
      st.premiumBefore = premiumBefore
      st.dateEffective = addDays(
        st.p.dateInception,
        Math.min(s.mta.effectiveAfterDays, Math.max(0, daysBetween(st.p.dateInception, st.p.dateExpiry) - 1)),
      )
      const vars = api.vars({ policyId: st.p.policyId, dateEffective: st.dateEffective })
      st.change = fillTemplate(s.mta.set, vars) as Record<string, unknown>
      const payload = structuredClone(st.p.issued.payload)
      for (const [ptr, v] of Object.entries(st.change)) setPointer(payload, ptr, v)
      const res = await api.mta(deepMerge(payload, fillTemplate(s.mta.body, vars)))
      expectStatus(res, '2xx')
      const id = getPointer(expectJsonBody(res), s.mta.quoteIdPointer)
      expectThat(typeof id === 'string' || typeof id === 'number', {
        expected: `the new quote id at ${s.mta.quoteIdPointer}`,
        actual: res.body,
        res,
      })
      st.mtaId = String(id)
      // declined after the file unless issued
      flow.created.set(st.mtaId, { product: st.p.issued.product, final: false })
      expectThat(st.mtaId !== st.p.policyId && st.mtaId !== st.p.quoteId, {
        expected: 'a new quote, not the policy or its original quote',
        actual: st.mtaId,
        res,
      })
      const name = api.contract('sales/policy-mta')
      if (name) expectContract(t.contracts, res, name)
    },
  )

  step(
    {
      id: 'PL-MTA-002',
      spec: 'sales',
      section: '§3, §4',
      requirement:
        'The MTA quote unlocks after creation and is calculated like any quote, with a period premium in its ' +
        'financials.',
    },
    async () => {
      // the unlock is this check's own requirement: a lock held past the deadline fails it (not a setup failure)
      await expectReleased(await flow.waitActions(st.mtaId!), `the actions of MTA quote ${st.mtaId} after create`)
      const calc = await flow.calculate(st.mtaId!)
      expectStatus(calc, '2xx')
      await expectReleased(await flow.waitActions(st.mtaId!), `the actions of MTA quote ${st.mtaId} after calculate`)
      const fin = await flow.calculation(st.mtaId!)
      expectStatus(fin, 200)
      const premium = getPointer(expectJsonBody(fin), s.mta.periodPremiumPointer)
      expectThat(typeof premium === 'number', {
        expected: `a period premium at ${s.mta.periodPremiumPointer}`,
        actual: fin.body,
        res: fin,
      })
      st.newPremium = premium
    },
  )

  step(
    {
      id: 'PL-MTA-003',
      spec: 'sales',
      section: '§3, §4',
      requirement: 'The calculated MTA quote is bound and issued; the issue request reaches success.',
    },
    async () => {
      const bind = await flow.bind(st.mtaId!)
      expectStatus(bind, '2xx')
      await flow.unlocked(st.mtaId!, 'wait after MTA bind')
      const issue = await flow.issue(st.mtaId!)
      expectStatus(issue, '2xx')
      const requestId = flow.requestIdOf(issue)
      expectThat(requestId !== undefined, {
        expected: `a request id at ${flow.settings.requestIdPointer}`,
        actual: issue.body,
        res: issue,
      })
      flow.markFinal(st.mtaId!)
      await expectPollSuccess(await flow.waitRequest(requestId), 'the MTA issue request')
    },
  )

  step(
    {
      id: 'PL-MTA-004',
      spec: 'sales',
      section: '§1, §4',
      requirement: 'After the MTA is issued, the policy shows the changed data.',
    },
    async () => {
      const res = await api.links(st.p!.policyId)
      expectStatus(res, 200)
      const data = getPointer(expectJsonBody(res), s.links.dataPointer)
      const got = valuesAt(data, Object.keys(st.change!))
      expectEqual(got, st.change, 'the changed fields of the policy data', res)
    },
  )

  step(
    {
      id: 'PL-MTA-005',
      spec: 'sales',
      section: '§1, §4',
      requirement:
        "After the MTA is issued, the policy's period premium changes by exactly the MTA premium (the new premium's " +
        'difference for the rest of the period).',
    },
    async () => {
      const p = st.p!
      expectThat(p.periodPremium !== undefined, {
        expected: `the period premium of the policy at ${s.links.periodPremiumPointer}`,
        actual: p.links.body,
        res: p.links,
      })
      const expected = mtaPremium(
        {
          premium: p.periodPremium,
          newPremium: st.newPremium!,
          dateInception: p.dateInception,
          dateExpiry: p.dateExpiry,
          dayCount: s.dayCount,
        },
        st.dateEffective!,
        s.mta.adjustment,
      )
      const res = await api.totals(p.policyId)
      expectStatus(res, 200)
      const after = api.readTotals(res).premium
      const want = Math.round((st.premiumBefore! + expected) * 100) / 100
      expectThat(after !== undefined && moneyEqual(after, want, s.moneyTolerance), {
        expected:
          `premium ${st.premiumBefore} + MTA premium ${expected} = ${want} (${s.mta.adjustment} ` +
          `from ${st.dateEffective}, ${p.periodPremium} -> ${st.newPremium})`,
        actual: after,
        res,
      })
    },
  )
})

describe('mid-term adjustment: refusals (sales-service.md §4)', () => {
  check(
    {
      id: 'PL-MTA-006',
      spec: 'sales',
      section: '§4',
      requirement:
        `An MTA of a policy id that does not exist is refused ` +
        `with ${probes.settings.unknownReference.statuses.join(' or ')}: ${probes.settings.unknownReference.why}.`,
    },
    async () => {
      const vars = api.vars({ policyId: probes.missingInBody('sales'), dateEffective: '2030-01-01' })
      const res = await api.mta(fillTemplate(s.mta.body, vars))
      expectStatus(res, probes.settings.unknownReference.statuses)
    },
  )
})
