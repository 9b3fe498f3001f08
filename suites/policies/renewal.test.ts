import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectContract } from '../../helpers/checks/contract'
import { expectEqual, expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given, givenOnce } from '../../helpers/checks/setup'
import { formatAjvErrors } from '../../common/ajv'
import { getPointer } from '../../helpers/client/data/json-pointer'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { nextPeriod } from '../../helpers/checks/policies/dates'
import { issuePolicy, once } from '../../helpers/checks/policies/scenario'
import { policiesSettings } from '../../common/config/policies-settings'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { probesFor } from '../../helpers/checks/probes/requests'

const t = useTarget()
const s = policiesSettings(t.config)
const api = new PoliciesApi(t, s)
const flow = useSalesFlow(t)
const probes = probesFor(t)
const policy = givenOnce('an issued policy', () => issuePolicy(flow, api, { label: 'renewal' }), {
  product: t.config.product,
})
const renewal = once(async () => {
  const p = await policy()
  // the policy's view read just before, nothing in flight on it: the renewal data is judged against what it shows
  // (PL-INV-023), whatever the order of the issue's own reads was
  await flow.getQuote(p.policyId)
  const res = await api.renewal(p.policyId)
  expectStatus(res, 200)
  const data = getPointer(expectJsonBody(res), s.renewal.dataPointer)
  expectThat(data !== null && typeof data === 'object' && !Array.isArray(data), {
    expected: `renewal data (an object) at ${s.renewal.dataPointer}`,
    actual: res.body,
    res,
  })
  return { p, res, data: data as Record<string, unknown> }
})
/** The renewal data as the setup of the checks about its content: PL-REN-001 owns the answer itself. */
const renewalGiven = () => given('the renewal data', renewal, { operation: 'sales.policy.renewal' })

describe('renewal: data prepared for a renewal quote (sales-service.md §1, §4)', () => {
  check(
    {
      id: 'PL-REN-001',
      spec: 'sales',
      section: '§4',
      requirement: 'GET /policies/{policyId}/renewal answers 200 with the data prepared for a renewal quote.',
    },
    async () => {
      const { res } = await renewal()
      const name = api.contract('sales/policy-renewal')
      if (name) expectContract(t.contracts, res, name)
    },
  )

  check(
    {
      id: 'PL-REN-002',
      spec: 'sales',
      section: '§4',
      requirement:
        "The renewal data is valid against the product's JSON schema from the schemes endpoint (it can be used to " +
        'create the renewal quote).',
    },
    async () => {
      const { p, res, data } = await renewalGiven()
      const schema = { ...(await flow.schema(p.issued.product)) }
      delete schema['$id']
      const validate = t.schemas.compile(schema) // by the draft the schema declares
      const body = { schema: { type: flow.settings.schemaType, name: p.issued.product }, ...data }
      const ok = validate(body) as boolean
      expectThat(ok, {
        expected: `renewal data valid for product ${p.issued.product}`,
        actual: formatAjvErrors(validate.errors).slice(0, 10).join('; '),
        res,
      })
    },
  )

  check(
    {
      id: 'PL-REN-003',
      spec: 'sales',
      section: '§1, §4',
      requirement: "The renewal period starts the day after the policy's period ends and lasts as long.",
    },
    async () => {
      const { p, res, data } = await renewalGiven()
      const got = {
        dateInception: getPointer(data, s.renewal.dateInceptionPointer),
        dateExpiry: getPointer(data, s.renewal.dateExpiryPointer),
      }
      expectEqual(
        got,
        nextPeriod(p.dateInception, p.dateExpiry, s.dayCount),
        `renewal dates after ${p.dateInception}..${p.dateExpiry} (${s.dayCount})`,
        res,
      )
    },
  )

  check(
    {
      id: 'PL-REN-004',
      spec: 'sales',
      section: '§1, §4',
      requirement: "The renewal data carries the policy's current customer and insured objects.",
    },
    async () => {
      const { p, res, data } = await renewalGiven()
      expectEqual(
        { customer: data['customer'], objects: data['objects'] },
        { customer: p.data['customer'], objects: p.data['objects'] },
        'customer and objects as in the policy links',
        res,
      )
    },
  )

  check(
    {
      id: 'PL-REN-005',
      spec: 'sales',
      section: '§4',
      requirement:
        `Renewal data of a policy id that does not exist is refused ` +
        `with ${probes.settings.unknownId.statuses.join(' or ')}: ${probes.settings.unknownId.why}.`,
    },
    async () => {
      expectStatus(await api.renewal(probes.missing('sales')), probes.settings.unknownId.statuses)
    },
  )
})
