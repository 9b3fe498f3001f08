import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given } from '../../helpers/checks/setup'
import type { CallOptions } from '../../helpers/client/http/client'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { probesFor } from '../../helpers/checks/probes/requests'

const t = useTarget()
const flow = useSalesFlow(t, 'tenant')
const probe = probesFor(t)
const foreign = probe.settings.foreignId

describe('sales: tenant isolation (sales-service.md §5)', () => {
  check(
    {
      id: 'SL-NEG-010',
      spec: 'sales',
      section: '§5',
      requirement:
        `A quote created in one tenant cannot be read, listed for actions or calculated by a user of ` +
        `another tenant: ${foreign.statuses.join(' or ')} with no data; ${foreign.why}.`,
    },
    async (c) => {
      const other = t.user('otherTenant')
      if (!other) return c.notApplicable(t.missingUser('otherTenant'))
      const q = await given(
        'a new quote, unlocked',
        async () => {
          const created = await flow.createQuote(t.config.product, { label: 'isolation' })
          await flow.unlocked(created.quoteId, 'wait after create')
          return created
        },
        { product: t.config.product },
      )
      const probes: CallOptions[] = [
        { op: 'sales.quote.get', params: { policyId: q.quoteId }, query: probe.requiredQuery('sales.quote.get') },
        { op: 'sales.quote.actions', params: { id: q.quoteId } },
        {
          op: 'sales.quote.calculate',
          params: { id: q.quoteId },
          query: probe.requiredQuery('sales.quote.calculate'),
          json: {},
        },
      ]
      for (const p of probes) {
        const res = await t.sales.call({ ...p, as: other })
        expectThat(foreign.statuses.includes(res.status), {
          expected: `${p.op ?? '?'} as ${other.tenant} user: ${foreign.statuses.join(' or ')}`,
          actual: `status ${res.status}`,
          res,
        })
        expectThat(!res.text.includes(q.quoteId) || res.status === 404, {
          expected: 'no data of the other tenant in the answer',
          actual: 'the quote id in the body',
          res,
        })
      }
    },
  )
})
