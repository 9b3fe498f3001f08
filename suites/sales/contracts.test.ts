import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectContract } from '../../helpers/checks/contract'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { expectPollSuccess, reportPoll } from '../../helpers/checks/poll'
import { useTarget } from '../../helpers/checks/context'
import { given, SetupFailure } from '../../helpers/checks/setup'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { probesFor } from '../../helpers/checks/probes/requests'

const t = useTarget()
const flow = useSalesFlow(t, 'contracts')
const probes = probesFor(t)

describe('sales: response contracts not covered by the lifecycle (sales-service.md §4, §7)', () => {
  check(
    {
      id: 'SL-CON-001',
      spec: 'sales',
      section: '§4',
      requirement: 'The actions of an unlocked quote are 200 {data: [action names], links: {...}}.',
    },
    async () => {
      const q = await given('a new quote', () => flow.createQuote(t.config.product, { label: 'contract-actions' }), {
        product: t.config.product,
      })
      const r = await given('the quote unlocked', () => flow.released(q.quoteId, 'wait after create'), {
        product: t.config.product,
      })
      const value = await expectPollSuccess(r, `the actions of quote ${q.quoteId}`)
      expectStatus(value.res, 200)
      expectContract(t.contracts, value.res, 'sales/quote-actions')
    },
  )

  check(
    {
      id: 'SL-CON-002',
      spec: 'sales',
      section: '§7',
      requirement:
        `An error answer of a quote operation (a quote id that does not ` +
        `exist: ${probes.settings.unknownId.statuses.join(' or ')}) carries a JSON error body.`,
    },
    async () => {
      const res = await t.sales.call({
        op: 'sales.quote.get',
        params: { policyId: probes.missing('sales') },
        query: probes.requiredQuery('sales.quote.get'),
      })
      expectStatus(res, probes.settings.unknownId.statuses)
      expectContract(t.contracts, res, 'sales/quote-error')
    },
  )

  check(
    {
      id: 'SL-CON-003',
      spec: 'sales',
      section: '§3',
      requirement:
        'Every answer of the request status endpoint, pending or complete, is {requestId, status, data?} with a ' +
        'status spelled as the profile says.',
    },
    async () => {
      const product = t.config.product
      const { requestId } = await given(
        'an issue request',
        async () => {
          const q = await flow.boundQuote(product, { label: 'contract-request' })
          return flow.startIssue(q.quoteId, product)
        },
        { product },
      )
      const r = await flow.waitRequest(requestId)
      await reportPoll(r)
      // a request that never completes leaves the complete answer untested: SL-LIFE-010 owns "polled until complete"
      if (r.outcome === 'timeout')
        throw new SetupFailure(
          {
            reason: `request ${requestId} did not complete within the deadline (${r.last?.seen ?? 'no answer'})`,
            operation: 'sales.requests.get',
            status: `timeout: ${r.last?.seen ?? 'no answer'}`,
            owner: `SL-LIFE-010-${product}`,
          },
          r.last?.value.res,
        )
      const res = r.last!.value.res
      expectStatus(res, 200)
      expectContract(t.contracts, res, 'sales/quote-request-status')
      const status = String((res.body as { status?: unknown }).status).toLowerCase()
      const known = [...t.config.statuses.pending, ...t.config.statuses.success, ...t.config.statuses.failure]
      expectThat(known.includes(status), { expected: `a status among ${known.join(', ')}`, actual: status, res })
    },
  )
})
