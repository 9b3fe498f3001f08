import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectContract } from '../../helpers/checks/contract'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { expectPollSuccess } from '../../helpers/checks/poll'
import { useTarget } from '../../helpers/context'
import { useSalesFlow } from '../../helpers/sales/lifecycle'

const t = useTarget()
const flow = useSalesFlow(t, 'contracts')
const missing = `missing-${t.config.runId.toLowerCase().replace(/[^a-z0-9]/g, '')}`

describe('sales: response contracts not covered by the lifecycle (sales-service.md §4, §7)', () => {
  check(
    { id: 'SL-CON-001', spec: 'sales', section: '§4', requirement: 'The actions of an unlocked quote are 200 {data: [action names], links: {...}}.' },
    async () => {
      const q = await flow.createQuote(t.config.product, { label: 'contract-actions' })
      const value = await expectPollSuccess(await flow.waitActions(q.quoteId), `the actions of quote ${q.quoteId}`)
      expectStatus(value.res, 200)
      expectContract(t.contracts, value.res, 'sales/quote-actions')
    },
  )

  check(
    { id: 'SL-CON-002', spec: 'sales', section: '§7', requirement: 'An error answer of a quote operation (unknown quote) carries a JSON error body.' },
    async () => {
      const res = await t.sales.call({ op: 'sales.quote.get', params: { policyId: missing } })
      expectStatus(res, '4xx')
      expectContract(t.contracts, res, 'sales/quote-error')
    },
  )

  check(
    { id: 'SL-CON-003', spec: 'sales', section: '§3', requirement: 'Every answer of the request status endpoint, pending or complete, is {requestId, status, data?} with a status spelled as the profile says.' },
    async () => {
      const issued = await flow.issueNewPolicy(t.config.product, { label: 'contract-request' })
      const res = await t.sales.call({ op: 'sales.requests.get', params: { requestId: issued.requestId } })
      expectStatus(res, 200)
      expectContract(t.contracts, res, 'sales/quote-request-status')
      const status = String((res.body as { status?: unknown }).status).toLowerCase()
      const known = [...t.config.statuses.pending, ...t.config.statuses.success, ...t.config.statuses.failure]
      expectThat(known.includes(status), { expected: `a status among ${known.join(', ')}`, actual: status, res })
      expectThat(t.config.statuses.success.includes(status), { expected: 'the success status after the issue succeeded', actual: status, res })
    },
  )
})
