import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectEqual, expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { given } from '../../helpers/checks/setup'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { issuePolicy } from '../../helpers/checks/policies/scenario'
import { policiesSettings } from '../../common/config/policies-settings'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { usePaymentSteps } from '../../helpers/checks/policies/payment-steps'

/**
 * Broker payments across invoices and policies: a file of its own, so that its money moves run beside those of
 * payments.test.ts (a file's model judges the money views only when no write of the tenant's money overlaps them: the
 * blocks of one file run one after another; docs/performance.md, third round).
 */
const t = useTarget()
const s = policiesSettings(t.config)
const api = new PoliciesApi(t, s)
const flow = useSalesFlow(t)
const { newPayment, allocate, credit } = usePaymentSteps(api)

/**
 * Every view of each policy (links, invoices, totals), each answered 200; the model judges what they show (PL-INV-002,
 * 005, 006).
 */
async function readViews(policyIds: string[]): Promise<void> {
  for (const res of await Promise.all(policyIds.flatMap((id) => [api.links(id), api.invoices(id), api.totals(id)])))
    expectStatus(res, 200)
}

describe('broker payments across invoices and policies (sales-service.md §1, §4)', () => {
  check(
    {
      id: 'PL-PAY-010',
      spec: 'sales',
      section: '§1, §4',
      requirement:
        'Two payments, one allocated to invoices of one policy and one split across the invoices of two policies, ' +
        'then each allocation event credited on its own: every view of both policies is answered after each ' +
        "step, and once every event is credited both policies' period totals are as before the payments (that " +
        'each allocation and credit moves exactly its own policy is judged by PL-INV-002).',
    },
    async () => {
      const product = t.config.product
      const [a, b] = await given(
        'two issued policies of the tenant',
        () =>
          Promise.all([
            issuePolicy(flow, api, { label: 'payments-split-a' }),
            issuePolicy(flow, api, { label: 'payments-split-b' }),
          ]),
        { product },
      )
      const invoicesOf = async (policyId: string) => {
        const res = await api.invoices(policyId)
        expectStatus(res, 200)
        const list = (api.readInvoices(res) ?? []).filter((i) => i.invoicenumber !== '' && i.amount !== undefined)
        expectThat(list.length > 0 && list[0]!.amount! >= 5, {
          expected:
            `invoices with a number and an amount (${s.invoices.amountFields.join(' + ')}), the first of at ` +
            `least 5`,
          actual: res.body,
          res,
        })
        return list
      }
      const [invA, invB] = [await invoicesOf(a.policyId), await invoicesOf(b.policyId)]
      const totalsText = async (policyId: string) => {
        const res = await api.totals(policyId)
        expectStatus(res, 200)
        return res
      }
      const before = [await totalsText(a.policyId), await totalsText(b.policyId)]
      const one = await given('a payment', () => newPayment(2), { product })
      const two = await given('a second payment', () => newPayment(2), { product })
      // the first payment on the invoices of one policy (its first and last: the same one when it has one), the second
      // split across both policies
      const events = [
        ...(
          await allocate(one, [
            { invoicenumber: invA[0]!.invoicenumber, amount: 0.6 },
            { invoicenumber: invA[invA.length - 1]!.invoicenumber, amount: 0.4 },
          ])
        ).events,
      ]
      await readViews([a.policyId, b.policyId])
      events.push(
        ...(
          await allocate(two, [
            { invoicenumber: invA[0]!.invoicenumber, amount: 0.7 },
            { invoicenumber: invB[0]!.invoicenumber, amount: 0.9 },
          ])
        ).events,
      )
      await readViews([a.policyId, b.policyId])
      for (const e of events) {
        await credit(e)
        await readViews([a.policyId, b.policyId])
      }
      const after = [await totalsText(a.policyId), await totalsText(b.policyId)]
      expectEqual(
        after[0]!.text,
        before[0]!.text,
        'the period totals of the first policy once every event is credited (as before the payments)',
        after[0]!,
      )
      expectEqual(
        after[1]!.text,
        before[1]!.text,
        'the period totals of the second policy once every event is credited (as before the payments)',
        after[1]!,
      )
    },
  )
})
