import { describe } from 'vitest'
import * as allure from 'allure-js-commons'
import { lifecycle } from '../../helpers/checks/check'
import { expectEqual, expectStatus, expectThat } from '../../helpers/checks/expect'
import { expectPollSuccess } from '../../helpers/checks/poll'
import { useTarget } from '../../helpers/checks/context'
import { given } from '../../helpers/checks/setup'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'

const t = useTarget()
const flow = useSalesFlow(t, 'referral')
const product = t.config.product

describe('sales: referral (sales-service.md §3 rule 3, §4)', () => {
  lifecycle(`${product}: send a calculated quote to referral`, (step) => {
    const st: { quoteId?: string; before?: string[]; after?: string[]; data?: unknown } = {}

    step(
      {
        id: 'SL-REF-001',
        spec: 'sales',
        section: '§4',
        requirement: 'A calculated quote can be sent to referral with a comment (2xx).',
      },
      async (c) => {
        if (t.config.features['referral'] === false)
          c.notApplicable('the profile says the tenant has no referral (features.referral=false)')
        const q = await given('a calculated quote', () => flow.calculatedQuote(product, { label: 'referral' }), {
          product,
        })
        st.quoteId = q.quoteId
        st.before = q.actions
        await allure.parameter('actions before referral', st.before.join(', '))
        const res = await flow.referral(q.quoteId, t.tag('referral'))
        expectStatus(res, '2xx')
      },
    )

    step(
      {
        id: 'SL-REF-002',
        spec: 'sales',
        section: '§3',
        requirement:
          'After a referral the actions endpoint releases the lock, and the allowed actions then reflect the new ' +
          'state (they change; referral is no longer offered).',
      },
      async () => {
        const value = await expectPollSuccess(
          await flow.waitActions(st.quoteId!),
          `the actions of quote ${st.quoteId} after referral`,
        )
        st.after = value.actions
        await allure.parameter('actions after referral', st.after.join(', '))
        expectThat(JSON.stringify([...st.after].sort()) !== JSON.stringify([...st.before!].sort()), {
          expected: `an actions list other than before the referral (${st.before!.join(', ')})`,
          actual: st.after.join(', '),
          res: value.res,
        })
        expectThat(!st.after.includes(flow.settings.actions.referral), {
          expected: `${flow.settings.actions.referral} no longer offered`,
          actual: st.after.join(', '),
          res: value.res,
        })
      },
    )

    step(
      {
        id: 'SL-REF-003',
        spec: 'sales',
        section: '§3',
        requirement:
          'An update the actions list no longer offers after the referral is refused with a 4xx and changes nothing.',
      },
      async (c) => {
        if (st.after!.includes(flow.settings.actions.update))
          c.notApplicable(`the target still offers ${flow.settings.actions.update} after a referral`)
        const before = await flow.getQuote(st.quoteId!)
        expectStatus(before, 200)
        const res = await flow.update(st.quoteId!, { policy: { externalReference: t.tag('referral-update') } })
        expectStatus(res, '4xx')
        const after = await flow.getQuote(st.quoteId!)
        expectEqual(
          (after.body as { data?: unknown }).data,
          (before.body as { data?: unknown }).data,
          'the quote data after the refused update',
          after,
        )
      },
    )
  })
})
