import { check, lifecycle } from '../../helpers/checks/check'
import { expectContract } from '../../helpers/checks/contract'
import { expectEqual, expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given, givenOnce } from '../../helpers/checks/setup'
import { getPointer, valuesAt } from '../../helpers/client/data/json-pointer'
import type { HttpResult } from '../../helpers/client/http/types'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { issuePolicy, type PolicyUnderTest } from '../../helpers/checks/policies/scenario'
import { policiesSettings } from '../../common/config/policies-settings'
import { fillTemplate } from '../../helpers/checks/policies/template'
import { setPointer } from '../../helpers/checks/sales/json-set'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { probesFor } from '../../helpers/checks/probes/requests'

const t = useTarget()
const s = policiesSettings(t.config)
const api = new PoliciesApi(t, s)
const flow = useSalesFlow(t)
const probes = probesFor(t)

/** What must not move in a technical change: the money documents, byte for byte, and the quotes and documents. */
interface Snapshot {
  invoices: HttpResult
  totals: HttpResult
  links: HttpResult
  financials: string
  quotes: unknown
  documents: unknown
}

async function snapshot(policyId: string): Promise<Snapshot> {
  const [invoices, totals, links] = [
    await api.invoices(policyId),
    await api.totals(policyId),
    await api.links(policyId),
  ]
  for (const res of [invoices, totals, links]) expectStatus(res, 200)
  return {
    invoices,
    totals,
    links,
    financials: JSON.stringify(getPointer(links.body, s.links.financialsPointer)),
    quotes: s.links.quotesPointer ? getPointer(links.body, s.links.quotesPointer) : undefined,
    documents: s.links.documentsPointer ? getPointer(links.body, s.links.documentsPointer) : undefined,
  }
}

function expectMoneyUnchanged(before: Snapshot, after: Snapshot): void {
  expectEqual(
    after.invoices.text,
    before.invoices.text,
    'the invoices response (byte for byte, as before the change)',
    after.invoices,
  )
  expectEqual(
    after.totals.text,
    before.totals.text,
    'the period totals response (byte for byte, as before the change)',
    after.totals,
  )
  expectEqual(
    after.financials,
    before.financials,
    `the policy financials at ${s.links.financialsPointer} (as before the change)`,
    after.links,
  )
}

lifecycle('technical change: non-financial data only (sales-service.md §4 Policy technical MTA)', (step) => {
  const st: { p?: PolicyUnderTest; before?: Snapshot; change?: Record<string, unknown>; res?: HttpResult } = {}

  step(
    {
      id: 'PL-TECH-001',
      spec: 'sales',
      section: '§4',
      requirement: 'PUT /policies/{id}/data-change accepts a change of non-financial policy data.',
    },
    async () => {
      const p = await given(
        'an issued policy and its money',
        () => issuePolicy(flow, api, { label: 'technical-change' }),
        { product: t.config.product },
      )
      st.p = p
      st.before = await given('the money of the policy before the change', () => snapshot(p.policyId), {
        product: t.config.product,
      })
      st.change = fillTemplate(s.technicalChange.set, api.vars()) as Record<string, unknown>
      const body: Record<string, unknown> = {}
      for (const [ptr, v] of Object.entries(st.change)) setPointer(body, ptr, v)
      st.res = await api.dataChange(st.p.policyId, body)
      expectStatus(st.res, '2xx')
      const name = api.contract('sales/policy-data-change')
      if (name && st.res.status !== 204) expectContract(t.contracts, st.res, name)
    },
  )

  step(
    {
      id: 'PL-TECH-002',
      spec: 'sales',
      section: '§4',
      requirement: 'After a technical change the policy shows the new non-financial data.',
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
      id: 'PL-TECH-003',
      spec: 'sales',
      section: '§4',
      requirement:
        'A technical change leaves the invoices, the period totals and the policy financials byte for byte as they ' +
        'were.',
    },
    async () => {
      expectMoneyUnchanged(st.before!, await snapshot(st.p!.policyId))
    },
  )

  step(
    {
      id: 'PL-TECH-004',
      spec: 'sales',
      section: '§4',
      requirement: 'A technical change creates no quote and no documents on the policy.',
    },
    async (c) => {
      if (st.before!.quotes === undefined && st.before!.documents === undefined) {
        return c.notApplicable(
          'the profile points at no quotes or documents list of the policy links (links.quotesPointer, ' +
            'links.documentsPointer)',
        )
      }
      const after = await snapshot(st.p!.policyId)
      expectEqual(
        after.quotes,
        st.before!.quotes,
        `the quotes of the policy at ${s.links.quotesPointer} (as before)`,
        after.links,
      )
      expectEqual(
        after.documents,
        st.before!.documents,
        `the documents of the policy at ${s.links.documentsPointer} (as before)`,
        after.links,
      )
    },
  )

  step(
    {
      id: 'PL-TECH-005',
      spec: 'sales',
      section: '§4',
      requirement:
        'A technical change that touches a financial field is refused with a 4xx, and the money of the policy does ' +
        'not move.',
    },
    async () => {
      const before = await snapshot(st.p!.policyId)
      const res = await api.dataChange(st.p!.policyId, fillTemplate(s.technicalChange.financialBody, api.vars()))
      expectStatus(res, '4xx')
      expectMoneyUnchanged(before, await snapshot(st.p!.policyId))
    },
  )
})

check(
  {
    id: 'PL-TECH-006',
    spec: 'sales',
    section: '§4',
    requirement:
      `A technical change of a policy id that does not exist is refused ` +
      `with ${probes.settings.unknownId.statuses.join(' or ')}: ${probes.settings.unknownId.why}.`,
  },
  async () => {
    const body: Record<string, unknown> = {}
    for (const [ptr, v] of Object.entries(fillTemplate(s.technicalChange.set, api.vars()) as Record<string, unknown>))
      setPointer(body, ptr, v)
    expectStatus(await api.dataChange(probes.missing('sales'), body), probes.settings.unknownId.statuses)
  },
)
