import { describe } from 'vitest'
import { attachEvidence } from '../../helpers/client/evidence/evidence'
import { check } from '../../helpers/checks/check'
import { expectContract } from '../../helpers/checks/contract'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { reportPoll } from '../../helpers/checks/poll'
import { useTarget } from '../../helpers/checks/context'
import { given } from '../../helpers/checks/setup'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'

const t = useTarget()
const flow = useSalesFlow(t, 'issue-failure')
const product = t.config.product

describe('sales: issue failure (sales-service.md §3)', () => {
  check(
    {
      id: 'SL-ISS-001',
      spec: 'sales',
      section: '§3',
      requirement:
        'An issue that cannot succeed ends its request in failure (polling stops there, it does not stay pending), ' +
        'with the failure data.',
    },
    async (c) => {
      const trigger = flow.settings.issueFailure
      if (!trigger)
        return c.notApplicable('the profile gives no way to provoke an issue failure (extensions.sales.issueFailure)')
      const { q, requestId } = await given(
        'an issue request of a quote that cannot be issued',
        async () => {
          const bound = await flow.boundQuote(product, { label: 'issue-failure', set: trigger.set })
          return { q: bound, ...(await flow.startIssue(bound.quoteId, product)) }
        },
        { product },
      )
      const r = await flow.waitRequest(requestId)
      await reportPoll(r)
      await given('a readable request status', async () => flow.requireReadable(r, product), { product })
      const res = r.last?.value.res
      if (r.outcome === 'success') flow.markFinal(q.quoteId)
      expectThat(r.outcome === 'failure' && res?.status === 200, {
        expected: `the request to end in the profile's failure status (${t.config.statuses.failure.join('/')})`,
        actual:
          `${r.outcome} after ${r.attempts.length} attempt(s) in ${r.elapsedMs} ms; last ` +
          `seen: ${r.last?.seen ?? 'nothing'}`,
        ...(res ? { res } : {}),
      })
      expectContract(t.contracts, res!, 'sales/quote-request-status')
      const data = (res!.body as { data?: unknown }).data
      // attached to the check's report (Allure), not printed: the checks of a lane run side by side, and vitest labels
      // a console line with whichever check it takes to be running, often another one
      await attachEvidence('issue failure data', data)
    },
  )
})
