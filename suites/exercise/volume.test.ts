import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectEqual, expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import { given } from '../../helpers/checks/setup'
import { useWebhooks, listed } from '../../helpers/checks/webhooks/use-webhooks'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { PoliciesApi } from '../../helpers/checks/policies/api'
import { sumMoney } from '../../helpers/checks/policies/money'
import { policiesSettings } from '../../common/config/policies-settings'
import { exerciseSettings } from '../../common/config/exercise-settings'
import { getPointer } from '../../helpers/client/data/json-pointer'
import type { HttpResult } from '../../helpers/client/http/types'
import type { UserCredentials } from '../../common/config/types'

/**
 * Volume (issue 40, the exercise model's multiplicity cells: docs/exercise.md): more subscriptions for one caller than
 * the list puts on one page, some updated or deleted, read through every page as the profile says
 * (extensions.exercise.listPage); a policy paying in 12 monthly installments, its schedule and invoices read whole.
 */
const { t, subs } = useWebhooks('vol')
const x = exerciseSettings(t.config)
const flow = useSalesFlow(t)
const ps = policiesSettings(t.config)
const api = new PoliciesApi(t, ps)

/** How often a page walk is read when other callers' deletions may have shifted it. */
const WALKS = 3

/** Every page of the caller's subscription list (one answer when the profile names no paging), at most `cap` pages. */
async function readAllPages(
  cap: number,
): Promise<{ pages: HttpResult[]; entries: { id?: unknown; url?: unknown; event?: unknown }[] }> {
  const page = x.listPage
  if (!page) {
    const res = await t.webhooks.call({ op: 'webhooks.subscriptions.list' })
    return { pages: [res], entries: listed(res) }
  }
  const pages: HttpResult[] = []
  const entries: { id?: unknown; url?: unknown; event?: unknown }[] = []
  for (let n = page.firstPage; pages.length < cap; n += 1) {
    const res = await t.webhooks.call({
      op: 'webhooks.subscriptions.list',
      query: { [page.pageParam]: n, [page.sizeParam]: page.size },
    })
    pages.push(res)
    if (res.status !== 200) break
    const got = listed(res)
    entries.push(...got)
    if (got.length < page.size) break
  }
  return { pages, entries }
}

/** A caller's list read empty, with one entry of its own, with two, and empty again once they are deleted. */
async function smallLists(as: UserCredentials): Promise<void> {
  const list = async () => expectStatus(await t.webhooks.call({ op: 'webhooks.subscriptions.list', as }), 200)
  await list()
  const made: string[] = []
  try {
    for (const label of ['small-1', 'small-2']) {
      const res = await given(`a subscription of the second caller (${label})`, async () => {
        const r = await t.webhooks.call({
          op: 'webhooks.subscription.create',
          json: { event: 'export', url: subs.url(label) },
          as,
        })
        expectStatus(r, 201, { owner: 'WH-LIFE-001' })
        return r
      })
      const id = (res.body as { id?: unknown } | undefined)?.id
      if (typeof id === 'string' || typeof id === 'number') made.push(String(id))
      await list()
    }
  } finally {
    for (const id of made) await t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id }, as })
  }
  await list()
}

describe('volume: more than a page (issue 40; webhook-subscriptions.md §4)', () => {
  check(
    {
      id: 'EX-VOL-001',
      spec: 'webhooks',
      section: '§4',
      requirement:
        `With more subscriptions than a page (${x.subscriptionsForVolume}; ` +
        `extensions.exercise.subscriptionsForVolume), some updated and some deleted, the list read through every ` +
        `page (extensions.exercise.listPage) shows each live one exactly once with its current url, and no ` +
        `deleted one.`,
    },
    async () => {
      const n = x.subscriptionsForVolume
      const { live, deleted, updated } = await given(
        `${n} subscriptions of one caller, 3 updated and 3 deleted`,
        async () => {
          const made = await Promise.all(
            Array.from({ length: n }, (_, i) =>
              subs.create(i % 2 === 0 ? 'extracted' : 'export', subs.url(`volume-${i}`)),
            ),
          )
          for (const m of made) expectStatus(m.res, 201, { owner: 'WH-LIFE-001' })
          const ids = made.map((m) => m.id!)
          const updated = new Map<string, string>()
          for (const id of ids.slice(0, 3)) {
            const url = subs.url(`volume-moved-${id}`)
            expectStatus(
              await t.webhooks.call({ op: 'webhooks.subscription.update', params: { id }, json: { url } }),
              200,
              { owner: 'WH-LIFE-004' },
            )
            updated.set(id, url)
          }
          const deleted = ids.slice(-3)
          for (const id of deleted) {
            const res = await t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id } })
            expectStatus(res, '2xx', { owner: 'WH-LIFE-006' })
            subs.forget(id)
          }
          return { live: ids.slice(0, -3), deleted, updated }
        },
      )
      // a second caller's own list through none, one and a few entries of its own (no other check writes its list, so
      // the exercise model's multiplicity cells 0, 1 and several are the same every run): the model judges each answer
      // (WH-INV-001, WH-INV-006)
      const second = t.user('restricted') ?? t.user('otherTenant')
      if (second) await smallLists(second)
      const pageSize = x.listPage?.size ?? n
      // other callers of the run delete their own subscriptions meanwhile: an offset page walk they shifted misses an
      // entry
      // of ours once; a walk is read again (GETs only, at most WALKS times) and judged by the first complete one, or
      // the last
      let walk = await readAllPages(Math.ceil((n * 4) / pageSize) + 4)
      const judge = (w: typeof walk) => {
        const count = new Map<string, number>()
        for (const e of w.entries) if (typeof e.id === 'string') count.set(e.id, (count.get(e.id) ?? 0) + 1)
        return {
          count,
          twice: live.filter((id) => (count.get(id) ?? 0) > 1),
          missing: live.filter((id) => !count.has(id)),
        }
      }
      for (
        let i = 1;
        i < WALKS &&
        judge(walk).missing.length + judge(walk).twice.length > 0 &&
        walk.pages.every((r) => r.status === 200);
        i += 1
      )
        walk = await readAllPages(Math.ceil((n * 4) / pageSize) + 4)
      const { pages, entries } = walk
      for (const res of pages) expectStatus(res, 200)
      const { count, twice, missing } = judge(walk)
      const last = pages.at(-1)!
      expectThat(twice.length === 0 && missing.length === 0, {
        expected:
          `each of the ${live.length} live subscriptions listed once over ${pages.length} page(s) (in one of ` +
          `at most ${WALKS} walks)`,
        actual:
          `${missing.length} missing (${missing.slice(0, 3).join(', ')}), ${twice.length} listed more than ` +
          `once (${twice.slice(0, 3).join(', ')})`,
        res: last,
      })
      const shownDeleted = deleted.filter((id) => count.has(id))
      expectThat(shownDeleted.length === 0, {
        expected: 'no deleted subscription listed',
        actual: `listed: ${shownDeleted.join(', ')}`,
        res: last,
      })
      const urls = Object.fromEntries([...updated.keys()].map((id) => [id, entries.find((e) => e.id === id)?.url]))
      expectEqual(urls, Object.fromEntries(updated), 'the urls of the updated subscriptions as listed', last)
    },
  )
})

describe('volume: a policy paying in 12 installments (issue 40; sales-service.md §4)', () => {
  check(
    {
      id: 'EX-VOL-002',
      spec: 'sales',
      section: '§4',
      requirement:
        'A quote paying monthly (extensions.exercise.monthlySet) has a schedule of 12 installments when calculated, ' +
        "bound and issued, and the policy issued from it shows 12 invoices whose premiums are the schedule's.",
    },
    async () => {
      const product = t.config.product
      const q = await given(
        'a monthly quote, calculated',
        async () => {
          const created = await flow.createQuote(product, { label: 'exercise-monthly', set: x.monthlySet })
          await flow.unlocked(created.quoteId, 'wait after create')
          // the financials of a quote not calculated yet: the model judges the answer (PL-INV-004)
          await flow.calculation(created.quoteId)
          expectStatus(await flow.calculate(created.quoteId), '2xx', { owner: `SL-LIFE-005-${product}` })
          await flow.unlocked(created.quoteId, 'wait after calculate')
          return created
        },
        { product },
      )
      const schedule = async (when: string) => {
        const res = await flow.installments(q.quoteId)
        expectStatus(res, 200)
        // the financials in the same state: the model holds them to the schedule (PL-INV-004)
        await flow.calculation(q.quoteId)
        const list = (expectJsonBody(res) as { instalments?: { premium?: unknown }[] }).instalments
        expectThat(Array.isArray(list) && list.length === 12, {
          expected: `12 instalments of the monthly quote when ${when}`,
          actual: Array.isArray(list) ? `${list.length} instalments` : res.body,
          res,
        })
        return list!.map((i) => i.premium)
      }
      const calculated = await schedule('calculated')
      await given(
        'the quote bound',
        async () => {
          expectStatus(await flow.bind(q.quoteId), '2xx', { owner: `SL-LIFE-009-${product}` })
          await flow.unlocked(q.quoteId, 'wait after bind')
        },
        { product },
      )
      expectEqual(await schedule('bound'), calculated, 'the schedule once bound (as calculated)')
      const policyId = await given(
        'the quote issued',
        async () => {
          const issue = await flow.issue(q.quoteId)
          expectStatus(issue, '2xx', { owner: `SL-LIFE-009-${product}` })
          flow.markFinal(q.quoteId)
          const r = await flow.waitRequest(flow.requestIdOf(issue)!)
          const id = r.outcome === 'success' ? getPointer(r.value?.body, flow.settings.policyIdPointer) : undefined
          expectThat(typeof id === 'string' || typeof id === 'number', {
            expected: 'the issue request to succeed with a policy id',
            actual: r.outcome,
          })
          return String(id)
        },
        { product },
      )
      expectEqual(await schedule('issued'), calculated, 'the schedule once issued (as calculated)')
      const res = await api.invoices(policyId)
      expectStatus(res, 200)
      const invoices = api.readInvoices(res) ?? []
      expectThat(invoices.length === 12, {
        expected: '12 invoices of the monthly policy',
        actual: `${invoices.length} invoices`,
        res,
      })
      const premiums = calculated.filter((p): p is number => typeof p === 'number')
      const billed = sumMoney(invoices.map((i) => (typeof i.premium === 'number' ? i.premium : 0)))
      expectThat(Math.abs(billed - sumMoney(premiums)) <= ps.moneyTolerance * 12 + 1e-9, {
        expected: `invoice premiums summing to the schedule's ${sumMoney(premiums)}`,
        actual: billed,
        res,
      })
    },
  )
})
