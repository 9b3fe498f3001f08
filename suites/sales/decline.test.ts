import { describe } from 'vitest'
import { lifecycle } from '../../helpers/checks/check'
import { expectContract } from '../../helpers/checks/contract'
import { expectEqual, expectStatus, expectThat } from '../../helpers/checks/expect'
import { expectPollSuccess } from '../../helpers/checks/poll'
import { useTarget } from '../../helpers/checks/context'
import { given } from '../../helpers/checks/setup'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'

const t = useTarget()
const flow = useSalesFlow(t, 'decline')
const product = t.config.product

describe('sales: decline is final (sales-service.md §3, §4)', () => {
  lifecycle(`${product}: decline a calculated quote`, (step) => {
    const st: { quoteId?: string; data?: unknown } = {}

    step(
      {
        id: 'SL-DEC-001',
        spec: 'sales',
        section: '§4',
        requirement: 'A calculated quote can be declined with a reason (2xx), and decline is then no longer offered.',
      },
      async () => {
        const q = await given(
          'a calculated quote and its data',
          async () => {
            const calculated = await flow.calculatedQuote(product, { label: 'decline' })
            const before = await flow.getQuote(calculated.quoteId)
            expectStatus(before, 200)
            return { ...calculated, data: (before.body as { data?: unknown }).data }
          },
          { product },
        )
        st.quoteId = q.quoteId
        st.data = q.data
        const res = await flow.decline(q.quoteId, t.tag('decline'))
        expectStatus(res, '2xx')
        const released = await given(
          'the declined quote unlocked',
          () => flow.released(q.quoteId, 'wait after decline'),
          { product },
        )
        const value = await expectPollSuccess(released, `the actions of quote ${q.quoteId} after decline`)
        expectThat(
          !value.actions.includes(flow.settings.actions.decline) && !value.actions.includes(flow.settings.actions.bind),
          {
            expected: 'neither decline nor bind offered for a declined quote',
            actual: value.actions.join(', '),
            res: value.res,
          },
        )
      },
    )

    step(
      {
        id: 'SL-DEC-002',
        spec: 'sales',
        section: '§3',
        requirement: 'A declined quote cannot be bound: 4xx with an error body.',
      },
      async () => {
        const res = await flow.bind(st.quoteId!)
        expectStatus(res, '4xx')
        expectContract(t.contracts, res, 'sales/quote-error')
      },
    )

    step(
      {
        id: 'SL-DEC-003',
        spec: 'sales',
        section: '§3',
        requirement: 'A declined quote cannot be issued: 4xx with an error body and no request id.',
      },
      async () => {
        const res = await flow.issue(st.quoteId!)
        expectStatus(res, '4xx')
        expectContract(t.contracts, res, 'sales/quote-error')
        expectThat(flow.requestIdOf(res) === undefined, { expected: 'no request id', actual: res.body, res })
      },
    )

    step(
      {
        id: 'SL-DEC-004',
        spec: 'sales',
        section: '§3',
        requirement: 'A declined quote refuses updates, and its data stays as it was when it was declined.',
      },
      async () => {
        const upd = await flow.update(st.quoteId!, { policy: { externalReference: t.tag('after-decline') } })
        expectStatus(upd, '4xx')
        const after = await flow.getQuote(st.quoteId!)
        expectStatus(after, 200)
        expectEqual((after.body as { data?: unknown }).data, st.data, 'the declined quote data', after)
      },
    )
  })
})
