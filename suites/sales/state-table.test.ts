import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { given, SetupFailure } from '../../helpers/checks/setup'
import { expectEqual, expectStatus, expectThat } from '../../helpers/checks/expect'
import { expectPollSuccess } from '../../helpers/checks/poll'
import { useTarget } from '../../helpers/checks/context'
import { RequestLimiter } from '../../helpers/client/http/limiter'
import { awaitedByOthers } from '../../helpers/client/http/running-check'
import { documentIdOf } from '../../helpers/oracle/documents'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import {
  perform,
  QUOTE_STATES,
  quoteData,
  reachState,
  TABLE_OPERATIONS,
  type QuoteStateName,
  type TableOperation,
  type TableQuote,
} from '../../helpers/checks/sales/state-table'

/**
 * The operation x state table (sales-service.md §3 rule 4; docs/model.md): every quote operation tried in every state
 * the
 * suite can reach. The spec shows no states or transitions, so the target's own actions list is the oracle: an
 * operation it offers must succeed (tried on a fresh quote in that state), one it does not offer must be refused with a
 * 4xx and leave the quote data unchanged. The model's invariants (SL-INV-*) judge every answer besides.
 */
const t = useTarget()
const flow = useSalesFlow(t, 'table')
const product = t.config.product
const s = flow.settings

// at most 24 cells on fresh quotes at a time: each holds long polls on its quotes, so the table leaves the worker's
// other files a share
// of the per-target request limiter (helpers/client/http/limiter.ts, 16 by default); at 100 ms of latency 4 cells at a
// time
// made the table the run's last file by far (18 s, against 9 s for the longest dependent chain)
const cells = new RequestLimiter(24)

// one quote per state for the operations the state does not offer (a refusal changes nothing), tried one at a time:
// the model does not judge a read that overlaps a write of the same quote (helpers/oracle/sales-model.ts), and a
// refused operation that changed the quote must be blamed on its own cell
const shared = new Map<QuoteStateName, Promise<TableQuote>>()
const sharedTurns = new Map<QuoteStateName, RequestLimiter>()
// the cell that was not refused, or changed the shared quote: the cells after it on that quote are blocked by it, not
// failed (one defect, one failure: issue 13's root cause)
const spoiledBy = new Map<QuoteStateName, string>()
function sharedTurn(state: QuoteStateName): RequestLimiter {
  let turn = sharedTurns.get(state)
  if (!turn) sharedTurns.set(state, (turn = new RequestLimiter(1)))
  return turn
}
function sharedQuote(state: QuoteStateName): Promise<TableQuote> {
  let p = shared.get(state)
  if (!p)
    shared.set(
      state,
      (p = given(`a quote in state ${state}`, () => reachState(flow, product, state, `table-${state}`), { product })),
    )
  return p
}

/**
 * The actions list is the cell's oracle. A list that offers what the quote's own past forbids (SL-INV-005: a declined
 * quote offers no change, a bound one no bind) is shown wrong, and is no oracle for any operation of that state: the
 * cells of the state are blocked by that invariant instead of each failing on a list already known to be wrong.
 */
function oracleOf(state: QuoteStateName, q: TableQuote, op: TableOperation): boolean {
  const forbidden = t.model.sales
    .forbiddenActions(
      q.quoteId,
      TABLE_OPERATIONS.map((o) => s.actions[o]),
    )
    .filter((f) => q.actions.includes(f.name))
  if (forbidden.length > 0) {
    throw new SetupFailure({
      reason:
        `the actions list of the ${state} quote offers ${forbidden[0]!.name}, which a ${forbidden[0]!.because} ` +
        `quote never offers: a list shown wrong is no oracle for ${op}`,
      operation: 'sales.quote.actions',
      owner: 'SL-INV-005',
    })
  }
  return q.actions.includes(s.actions[op])
}

async function offeredSucceeds(state: QuoteStateName, op: TableOperation): Promise<void> {
  // reaching the state is setup: a quote that cannot be created or moved there blocks the cell, naming the check that
  // owns the operation that failed on the way (the lifecycle's), instead of failing the cell's own requirement
  const q = await given(
    `a fresh quote in state ${state}`,
    () => reachState(flow, product, state, `table-${state}-${op}`),
    { product },
  )
  const res = await perform(flow, q.quoteId, op, product)
  expectStatus(res, '2xx')
  if (op === 'documents') {
    const id = documentIdOf(res, s.documentIdFrom)
    expectThat(id !== undefined, { expected: `a document id (${s.documentIdFrom})`, actual: 'none', res })
    expectStatus(
      await t.sales.call({ op: 'sales.documents.download', params: { id: id! }, headers: { accept: '*/*' } }),
      200,
    )
  }
  if (op === 'issue') {
    const requestId = flow.requestIdOf(res)
    expectThat(requestId !== undefined, { expected: `a request id at ${s.requestIdPointer}`, actual: res.body, res })
    // that the issue request ends in success is the lifecycle's requirement (SL-LIFE-010): the same finding when both
    // fail
    await expectPollSuccess(await flow.waitRequest(requestId!), `issue request ${requestId}`, {
      owner: `SL-LIFE-010-${product}`,
    })
    // read once more: a terminal status never changes (SL-INV-001)
    expectStatus(await t.sales.call({ op: 'sales.requests.get', params: { requestId: requestId! } }), 200)
  }
  await flow.unlocked(q.quoteId, `the actions after ${op}`)
  expectStatus(await flow.getQuote(q.quoteId), 200)
}

async function notOfferedRefused(state: QuoteStateName, q: TableQuote, op: TableOperation, id: string): Promise<void> {
  const spoiler = spoiledBy.get(state)
  if (spoiler)
    throw new SetupFailure({
      reason: `the shared ${state} quote was changed by an operation it should have refused (${spoiler} failed)`,
      owner: spoiler,
    })
  const before = await given(
    'the quote read before the operation',
    async () => {
      const res = await flow.getQuote(q.quoteId)
      expectStatus(res, 200)
      return res
    },
    { product },
  )
  try {
    const res = await perform(flow, q.quoteId, op, product)
    expectStatus(res, '4xx')
    await flow.unlocked(q.quoteId, `the actions after the refused ${op}`)
    const after = await flow.getQuote(q.quoteId)
    expectStatus(after, 200)
    expectEqual(quoteData(after), quoteData(before), `the quote data after the refused ${op}`, after)
  } catch (e) {
    spoiledBy.set(state, id)
    throw e
  }
}

describe.concurrent(`sales: every quote operation in every state, the actions list as oracle (sales-service.md §3, §4; ${product})`, () => {
  // cells side by side: offered operations run on their own quotes, refused ones change nothing on the shared quote
  for (const state of QUOTE_STATES) {
    for (const op of TABLE_OPERATIONS) {
      const id = `SL-OPS-${state.toUpperCase()}-${op.toUpperCase()}`
      check(
        {
          id,
          spec: 'sales',
          section: '§3',
          product,
          requirement:
            `In state ${state}, ${op} succeeds when the quote's actions list offers it, and is otherwise ` +
            `refused with a 4xx that leaves the quote data unchanged.`,
        },
        async (c) => {
          if (state === 'referred' && t.config.features['referral'] === false)
            c.notApplicable('the profile says the tenant has no referral (features.referral=false)')
          // the shared quotes are reached first, all at once, and the refused cells take their turns on them outside
          // the
          // cells' limit: each state's turns are one chain the other cells of the state wait for (at 100 ms of
          // latency
          // the issued quote's turns were the run's last 3 s), so their requests go in line with the dependent
          // chains'
          const q = await awaitedByOthers(() => sharedQuote(state))
          if (oracleOf(state, q, op)) await cells.run(() => offeredSucceeds(state, op))
          else await sharedTurn(state).run(() => awaitedByOthers(() => notOfferedRefused(state, q, op, id)))
        },
      )
    }
  }
})
