import { beforeAll, describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given, givenOnce } from '../../helpers/checks/setup'
import { OPERATIONS, factsOf, type Operation } from '../../common/operations'
import type { HttpResult } from '../../helpers/client/http/types'
import { probesFor } from '../../helpers/checks/probes/requests'
import {
  takeExpiredToken,
  msUntilExpired,
  expiryLeewaySeconds,
  type ExpiringToken,
} from '../../helpers/client/auth/expiring-token'
import { getPointer } from '../../helpers/client/data/json-pointer'
import { setPointer } from '../../helpers/checks/sales/json-set'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { compareSubset } from '../../helpers/checks/sales/schema-tools'
import { schemaAt } from '../../helpers/oracle/real-world'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { issuePolicy } from '../../helpers/checks/policies/scenario'
import { fillTemplate } from '../../helpers/checks/policies/template'
import { policiesSettings } from '../../common/config/policies-settings'
import { salesSettings } from '../../common/config/sales-settings'
import { EXERCISE_FACTS } from '../../helpers/oracle/exercise-model'
import { exerciseSettings } from '../../common/config/exercise-settings'

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

/** Each operation's answer that is not the status wanted, as "METHOD path (operation): status". */
function offenders(results: { op: Operation; res: HttpResult }[], ok: (status: number) => boolean): string[] {
  return results
    .filter((r) => !ok(r.res.status))
    .map((r) => `${r.op.method} ${r.op.path} (${r.op.id}): status ${r.res.status}`)
}

describe(
  'every operation refuses a token past its exp (issue 40; sales-service.md §5, webhook-subscriptions.md ' + '§5)',
  () => {
    // one requirement per service, judged over every operation at once: the failure names every operation that let the
    // token in
    const EXPIRED_CHECKS = [
      { id: 'EX-EXPIRED-001', service: SERVICES[0] },
      { id: 'EX-EXPIRED-002', service: SERVICES[1] },
    ]
    for (const { id, service } of EXPIRED_CHECKS) {
      check(
        {
          id,
          spec: service,
          section: '§5',
          requirement:
            `Every operation of the ${service} service refuses a token past its exp (plus the profile's ` +
            `leeway) with 401.`,
        },
        async (c) => {
          if (!expired.token)
            return c.notApplicable(
              'the profile names no users.expired whose login gives a JWT already past its exp plus ' +
                'auth.expiryLeewaySeconds',
            )
          const client = service === 'sales' ? t.sales : t.webhooks
          const results = await Promise.all(
            OPERATIONS.filter((op) => op.service === service).map(async (op) => ({
              op,
              res: await client.call({ ...probes.call(op), bearer: expired.token!.token }),
            })),
          )
          const bad = offenders(results, (s) => s === 401)
          expectThat(bad.length === 0, {
            expected: `401 from each of the ${results.length} operations`,
            actual: bad.join('; '),
            res: results.find((r) => r.res.status !== 401)?.res ?? results[0]!.res,
          })
        },
      )
    }
  },
)

/**
 * A draft quote and a policy of the primary user: what another tenant's caller must not reach. The policy pays
 * annually,
 * is technically changed and then terminated by its owner, and its custom view read (one installment): states and a
 * size no other check gives a policy (the exercise model's cells; the model judges each answer).
 */
const mine = givenOnce(
  'a quote and an issued, changed and terminated policy of this tenant',
  async () => {
    const q = await flow.createQuote(t.config.product, { label: 'exercise-foreign' })
    await flow.unlocked(q.quoteId, 'wait after create')
    const p = await issuePolicy(flow, api, { label: 'exercise-foreign-policy', set: x.annualSet })
    // its one installment and one invoice, read by the owner: the schedules' multiplicity 1 whatever the run's seed
    // made
    // of the other checks' payment frequencies (the model judges both answers)
    expectStatus(await flow.installments(p.quoteId), 200)
    expectStatus(await api.invoices(p.policyId), 200)
    const identity =
      (t.config.features['customer_identity'] as { params?: Record<string, string> } | undefined)?.params ?? {}
    const query = Object.fromEntries(
      Object.entries(identity).map(([name, ptr]) => [name, String(getPointer(p.data, ptr))]),
    )
    if (Object.keys(query).length > 0)
      expectStatus(await api.customView(p.policyId, query), 200, { owner: 'PL-CUST-001' })
    const change: Record<string, unknown> = {}
    for (const [ptr, v] of Object.entries(fillTemplate(ps.technicalChange.set, api.vars()) as Record<string, unknown>))
      setPointer(change, ptr, v)
    expectStatus(await api.dataChange(p.policyId, change), '2xx', { owner: 'PL-TECH-001' })
    expectStatus(await api.terminate(p.policyId, { date: p.dateInception, sum: 0 }), '2xx', { owner: 'PL-TERM-005' })
    return { quoteId: q.quoteId, policyId: p.policyId }
  },
  { product: t.config.product },
)

/**
 * The sales operations that address one quote or one policy of a tenant (the exercise model's facts; an allocation
 * names invoices, not the policy).
 */
const FOREIGN_OPS = OPERATIONS.filter(
  (op) =>
    op.service === 'sales' &&
    (EXERCISE_FACTS[op.id].resource === 'quote' || EXERCISE_FACTS[op.id].resource === 'policy') &&
    factsOf(op.id).resource !== 'payment',
)

describe(
  "another tenant's caller reaches no quote or policy of this tenant (issue 40; sales-service.md §4, " + '§5)',
  () => {
    check(
      {
        id: 'EX-FOREIGN-001',
        spec: 'sales',
        section: '§5',
        requirement:
          'Every operation on one quote or one policy of this tenant, by a caller of another tenant, is refused with ' +
          'a 4xx.',
      },
      async (c) => {
        const other = t.user('otherTenant')
        if (!other) return c.notApplicable(t.missingUser('otherTenant'))
        const { quoteId, policyId } = await mine()
        const results = await Promise.all(
          FOREIGN_OPS.map(async (op) => {
            const probe = probes.call(op)
            const params = Object.fromEntries(
              Object.keys(probe.params).map((k) => [
                k,
                EXERCISE_FACTS[op.id].resource === 'quote' ? quoteId : policyId,
              ]),
            )
            const json =
              op.id === 'sales.quote.mta'
                ? fillTemplate(ps.mta.body, api.vars({ policyId, dateEffective: '2030-01-01' }))
                : probe.json
            return {
              op,
              res: await t.sales.call({ ...probe, params, ...(json !== undefined ? { json } : {}), as: other }),
            }
          }),
        )
        const bad = offenders(results, (s) => s >= 400 && s < 500)
        expectThat(bad.length === 0, {
          expected: `a 4xx from each of the ${results.length} operations`,
          actual: bad.join('; '),
          res: results.find((r) => r.res.status < 400 || r.res.status >= 500)?.res ?? results[0]!.res,
        })
      },
    )
  },
)

/** A value of a scalar schema node other than `now` (within its enum or bounds). */
function otherValue(node: unknown, now: unknown, tag: string): unknown {
  const n = (node ?? {}) as { type?: unknown; enum?: unknown[]; minimum?: number; maximum?: number; maxLength?: number }
  if (Array.isArray(n.enum)) return n.enum.find((v) => v !== now)
  if (n.type === 'boolean') return now !== true
  if (n.type === 'integer' || n.type === 'number')
    return now === (n.minimum ?? 0) ? (n.maximum ?? (n.minimum ?? 0) + 1) : (n.minimum ?? 0)
  if (n.type === 'string') return tag.slice(0, n.maxLength ?? tag.length)
  return undefined
}

describe("a restricted user's writes (issue 40; sales-service.md §5)", () => {
  check(
    {
      id: 'EX-RIGHTS-001',
      spec: 'sales',
      section: '§5',
      requirement:
        "A restricted user's create of a quote with a field its schema hides is refused with a 4xx (as its update " +
        'is: SL-SCH-004).',
    },
    async (c) => {
      const restricted = t.user('restricted')
      if (!restricted) return c.notApplicable(t.missingUser('restricted'))
      const product = t.config.product
      const schemeParams = { type: salesSettings(t.config).schemaType, name: product }
      const { payload, pick } = await given(
        'a payload of the primary user with a field hidden from the restricted user',
        async () => {
          const full = await t.sales.call({ op: 'sales.schemes.get', params: schemeParams })
          const limited = await t.sales.call({ op: 'sales.schemes.get', params: schemeParams, as: restricted })
          expectStatus(full, 200)
          expectStatus(limited, 200)
          const { payload } = await flow.validPayload(product, { label: 'exercise-restricted-create' })
          const pick = compareSubset(expectJsonBody(limited), expectJsonBody(full))
            .hidden.filter((path) => !path.includes('[]'))
            .map((path) => {
              const pointer = `/${path.split('.').join('/')}`
              const now = getPointer(payload, pointer)
              return {
                pointer,
                value:
                  now !== undefined ? now : otherValue(schemaAt(expectJsonBody(full), pointer), now, t.tag('hidden')),
              }
            })
            .find((h) => h.value !== undefined)
          return { payload, pick }
        },
        { product },
      )
      if (!pick)
        return c.notApplicable(`the ${product} schema hides no scalar field outside arrays from the restricted user`)
      const json = structuredClone(payload)
      setPointer(json, pick.pointer, pick.value)
      // the restricted user reads a quote of its tenant first: what its rights let it see, the model judges
      // (SL-INV-002, SL-INV-003)
      const { quoteId } = await mine()
      await t.sales.call({
        op: 'sales.quote.get',
        params: { policyId: quoteId },
        query: { withNotifications: true },
        as: restricted,
      })
      const res = await t.sales.call({ op: 'sales.quote.create', json, as: restricted })
      const id = getPointer(res.body, flow.settings.quoteIdPointer)
      if (res.status >= 200 && res.status < 300 && (typeof id === 'string' || typeof id === 'number'))
        flow.created.set(String(id), { product, final: false })
      expectStatus(res, '4xx')
    },
  )
})
