import { beforeAll, describe } from 'vitest'
import {
  expiryLeewaySeconds,
  msUntilExpired,
  takeExpiredToken,
  type ExpiringToken,
} from '../../helpers/client/auth/expiring-token'
import { check } from '../../helpers/checks/check'
import { given } from '../../helpers/checks/setup'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import type { HttpResult } from '../../helpers/client/http/types'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { issuePolicy, once } from '../../helpers/checks/policies/scenario'
import { policiesSettings } from '../../common/config/policies-settings'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'

/**
 * The policy resource kind probed from another tenant and with an expired token (sales-service.md §5), between two
 * reads of its period totals: the model's invariants judge every answer (SL-INV-006 scoping, SL-INV-007 expiry) and
 * that no money moved in between (PL-INV-001, PL-INV-002).
 */
const t = useTarget()
const s = policiesSettings(t.config)
const api = new PoliciesApi(t, s)
const flow = useSalesFlow(t)
const policy = once(() =>
  given('an issued policy', () => issuePolicy(flow, api, { label: 'policy-scope' }), { product: t.config.product }),
)
const other = t.user('otherTenant')
const st: { token?: ExpiringToken } = {}

beforeAll(async () => {
  st.token = await takeExpiredToken(t)
})

type Who = { as: NonNullable<typeof other> } | { bearer: string }
function probes(policyId: string, who: Who): Promise<HttpResult>[] {
  return [
    t.sales.call({ op: 'sales.policy.links', params: { policyId }, ...who }),
    t.sales.call({ op: 'sales.policy.invoices', params: { policyId }, ...who }),
    t.sales.call({ op: 'sales.policy.period-totals', params: { id: policyId }, ...who }),
    t.sales.call({ op: 'sales.policy.renewal', params: { policyId }, ...who }),
  ]
}

describe(
  'policies: a policy scoped to its tenant and to a live token, with its money unmoved (sales-service.md §1, ' + '§5)',
  () => {
    check(
      {
        id: 'PL-SCOPE-001',
        spec: 'sales',
        section: '§5',
        requirement:
          "A policy's links, invoices, period totals and renewal data are refused (4xx) to a user of another tenant " +
          '(that its money does not move is judged by PL-INV-002).',
      },
      async (c) => {
        if (!other) c.notApplicable('the profile names no user of another tenant (users.otherTenant)')
        const p = await policy()
        expectStatus(await api.totals(p.policyId), 200)
        for (const res of await Promise.all(probes(p.policyId, { as: other! }))) expectStatus(res, '4xx')
        expectStatus(await api.invoices(p.policyId), 200)
        expectStatus(await api.totals(p.policyId), 200)
      },
    )

    check(
      {
        id: 'PL-SCOPE-002',
        spec: 'sales',
        section: '§5',
        requirement:
          "A policy's links, invoices, period totals and renewal data are refused with 401 to an expired token.",
      },
      async (c) => {
        const p = await policy()
        if (!st.token)
          c.notApplicable('the profile names no users.expired nor users.shortLived, or their login gave no token')
        const wait = msUntilExpired(st.token!, expiryLeewaySeconds(t))
        expectThat(wait < 20_000, {
          expected: 'a token that expires within 20 s (plus the leeway)',
          actual: `${Math.round(wait / 1000)} s`,
        })
        await new Promise((resolve) => setTimeout(resolve, wait))
        for (const res of await Promise.all(probes(p.policyId, { bearer: st.token!.token }))) expectStatus(res, 401)
        expectStatus(await api.totals(p.policyId), 200)
      },
    )
  },
)
