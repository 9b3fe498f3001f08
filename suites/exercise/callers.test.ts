import { beforeAll, describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { RepresentedGroups } from '../../helpers/checks/group'
import { expectJsonBody, expectStatus } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given, givenOnce } from '../../helpers/checks/setup'
import { OPERATIONS, type Operation } from '../../common/operations'
import { probesFor } from '../../helpers/checks/probes/requests'
import { takeExpiredToken, msUntilExpired, expiryLeewaySeconds, type ExpiringToken } from '../../helpers/client/auth/expiring-token'
import { getPointer } from '../../helpers/client/data/json-pointer'
import { setPointer } from '../../helpers/checks/sales/json-set'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { compareSubset } from '../../helpers/checks/sales/schema-tools'
import { schemaAt } from '../../helpers/oracle/real-world'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { issuePolicy } from '../../helpers/checks/policies/scenario'
import { fillTemplate } from '../../helpers/checks/policies/template'
import { policiesSettings } from '../../helpers/client/config/policies-settings'
import { salesSettings } from '../../helpers/client/config/sales-settings'
import { OPERATION_FACTS } from '../../helpers/oracle/exercise-model'
import { exerciseSettings } from '../../helpers/client/config/exercise-settings'

/**
 * Every caller of every operation (issue 40, the exercise model's caller classes: docs/exercise.md): a token past its
 * exp on every operation, another tenant's caller on every operation that addresses this tenant's quote or policy, a
 * restricted user's create with a field its schema hides. The model's invariants (SL-INV-006/007, WH-INV-007) judge
 * every answer as well.
 */
const t = useTarget()
const probes = probesFor(t)
const flow = useSalesFlow(t)
const ps = policiesSettings(t.config)
const api = new PoliciesApi(t, ps)
const groups = new RepresentedGroups()
const x = exerciseSettings(t.config)
const SERVICES = ['sales', 'webhooks'] as const

const expired: { token?: ExpiringToken } = {}
beforeAll(async () => {
  const tk = await takeExpiredToken(t)
  if (tk && msUntilExpired(tk, expiryLeewaySeconds(t)) === 0) {
    t.redactor.addSecret(tk.token)
    expired.token = tk
  }
})

describe('every operation refuses a token past its exp (issue 40; sales-service.md §5, webhook-subscriptions.md §5)', () => {
  const representatives = SERVICES.map((service) => OPERATIONS.find((op) => op.service === service)!)
  const run = (op: Operation) => async (c: { notApplicable(reason: string): never }) => {
    if (!expired.token) return c.notApplicable('the profile names no users.expired whose login gives a JWT already past its exp plus auth.expiryLeewaySeconds')
    const client = op.service === 'sales' ? t.sales : t.webhooks
    expectStatus(await client.call({ ...probes.call(op), bearer: expired.token.token }), 401)
  }
  const meta = (op: Operation) => ({ id: `EX-EXPIRED-${op.id}`, spec: op.service === 'sales' ? ('sales' as const) : ('webhooks' as const), section: '§5', requirement: `${op.method} ${op.path} refuses a token past its exp (plus the profile's leeway) with 401.` })
  for (const op of representatives) check(meta(op), (c) => groups.representative(`EXPIRED:${op.service}`, meta(op).id, () => run(op)(c)))
  describe.concurrent('the other operations', () => {
    for (const op of OPERATIONS.filter((o) => !representatives.includes(o))) {
      check(meta(op), (c) => groups.member(`EXPIRED:${op.service}`, `the ${op.service} service's refusal of an expired token`, () => run(op)(c)))
    }
  })
})

/**
 * A draft quote and a policy of the primary user: what another tenant's caller must not reach. The policy pays annually,
 * is technically changed and then terminated by its owner, and its custom view read (one installment): states and a
 * size no other check gives a policy (the exercise model's cells; the model judges each answer).
 */
const mine = givenOnce('a quote and an issued, changed and terminated policy of this tenant', async () => {
  const q = await flow.createQuote(t.config.product, { label: 'exercise-foreign' })
  await flow.unlocked(q.quoteId, 'wait after create')
  const p = await issuePolicy(flow, api, { label: 'exercise-foreign-policy', set: x.annualSet })
  const identity = (t.config.features['customer_identity'] as { params?: Record<string, string> } | undefined)?.params ?? {}
  const query = Object.fromEntries(Object.entries(identity).map(([name, ptr]) => [name, String(getPointer(p.data, ptr))]))
  if (Object.keys(query).length > 0) expectStatus(await api.customView(p.policyId, query), 200, { owner: 'PL-CUST-001' })
  const change: Record<string, unknown> = {}
  for (const [ptr, v] of Object.entries(fillTemplate(ps.technicalChange.set, api.vars()) as Record<string, unknown>)) setPointer(change, ptr, v)
  expectStatus(await api.dataChange(p.policyId, change), '2xx', { owner: 'PL-TECH-001' })
  expectStatus(await api.terminate(p.policyId, { date: p.dateInception, sum: 0 }), '2xx', { owner: 'PL-TERM-005' })
  return { quoteId: q.quoteId, policyId: p.policyId }
}, { product: t.config.product })

/** The sales operations that address one quote or one policy of a tenant (the exercise model's facts). */
const FOREIGN_OPS = OPERATIONS.filter((op) => op.service === 'sales' && (OPERATION_FACTS[op.id]?.resource === 'quote' || OPERATION_FACTS[op.id]?.resource === 'policy'))

describe("another tenant's caller reaches no quote or policy of this tenant (issue 40; sales-service.md §4, §5)", () => {
  const representative = FOREIGN_OPS.find((op) => op.id === 'sales.quote.get')!
  const run = (op: Operation) => async (c: { notApplicable(reason: string): never }) => {
    const other = t.user('otherTenant')
    if (!other) return c.notApplicable(t.missingUser('otherTenant'))
    const { quoteId, policyId } = await mine()
    const probe = probes.call(op)
    const params = Object.fromEntries(Object.keys(probe.params).map((k) => [k, OPERATION_FACTS[op.id]?.resource === 'quote' ? quoteId : policyId]))
    const json = op.id === 'sales.quote.mta' ? fillTemplate(ps.mta.body, api.vars({ policyId, dateEffective: '2030-01-01' })) : probe.json
    const res = await t.sales.call({ ...probe, params, ...(json !== undefined ? { json } : {}), as: other })
    expectStatus(res, '4xx')
  }
  const meta = (op: Operation) => ({ id: `EX-FOREIGN-${op.id}`, spec: 'sales' as const, section: '§5', requirement: `${op.method} ${op.path} by a caller of another tenant, on this tenant's ${OPERATION_FACTS[op.id]?.resource}, is refused with a 4xx.` })
  check(meta(representative), (c) => groups.representative('FOREIGN:sales', meta(representative).id, () => run(representative)(c)))
  describe.concurrent('the other operations', () => {
    for (const op of FOREIGN_OPS.filter((o) => o !== representative)) {
      check(meta(op), (c) => groups.member('FOREIGN:sales', "the tenant scoping of a quote or a policy", () => run(op)(c)))
    }
  })
})

/** A value of a scalar schema node other than `now` (within its enum or bounds). */
function otherValue(node: unknown, now: unknown, tag: string): unknown {
  const n = (node ?? {}) as { type?: unknown; enum?: unknown[]; minimum?: number; maximum?: number; maxLength?: number }
  if (Array.isArray(n.enum)) return n.enum.find((v) => v !== now)
  if (n.type === 'boolean') return now !== true
  if (n.type === 'integer' || n.type === 'number') return now === (n.minimum ?? 0) ? (n.maximum ?? (n.minimum ?? 0) + 1) : (n.minimum ?? 0)
  if (n.type === 'string') return tag.slice(0, n.maxLength ?? tag.length)
  return undefined
}

describe("a restricted user's writes (issue 40; sales-service.md §5)", () => {
  check(
    { id: 'EX-RIGHTS-001', spec: 'sales', section: '§5', requirement: "A restricted user's create of a quote with a field its schema hides is refused with a 4xx (as its update is: SL-SCH-004)." },
    async (c) => {
      const restricted = t.user('restricted')
      if (!restricted) return c.notApplicable(t.missingUser('restricted'))
      const product = t.config.product
      const schemeParams = { type: salesSettings(t.config).schemaType, name: product }
      const { payload, pick } = await given('a payload of the primary user with a field hidden from the restricted user', async () => {
        const full = await t.sales.call({ op: 'sales.schemes.get', params: schemeParams })
        const limited = await t.sales.call({ op: 'sales.schemes.get', params: schemeParams, as: restricted })
        expectStatus(full, 200)
        expectStatus(limited, 200)
        const { payload } = await flow.validPayload(product, { label: 'exercise-restricted-create' })
        const pick = compareSubset(expectJsonBody(limited), expectJsonBody(full)).hidden
          .filter((path) => !path.includes('[]'))
          .map((path) => {
            const pointer = `/${path.split('.').join('/')}`
            const now = getPointer(payload, pointer)
            return { pointer, value: now !== undefined ? now : otherValue(schemaAt(expectJsonBody(full), pointer), now, t.tag('hidden')) }
          })
          .find((h) => h.value !== undefined)
        return { payload, pick }
      }, { product })
      if (!pick) return c.notApplicable(`the ${product} schema hides no scalar field outside arrays from the restricted user`)
      const json = structuredClone(payload)
      setPointer(json, pick.pointer, pick.value)
      // the restricted user reads a quote of its tenant first: what its rights let it see, the model judges (SL-INV-002, SL-INV-003)
      const { quoteId } = await mine()
      await t.sales.call({ op: 'sales.quote.get', params: { policyId: quoteId }, query: { withNotifications: true }, as: restricted })
      const res = await t.sales.call({ op: 'sales.quote.create', json, as: restricted })
      const id = getPointer(res.body, flow.settings.quoteIdPointer)
      if (res.status >= 200 && res.status < 300 && (typeof id === 'string' || typeof id === 'number')) flow.created.set(String(id), { product, final: false })
      expectStatus(res, '4xx')
    },
  )
})
