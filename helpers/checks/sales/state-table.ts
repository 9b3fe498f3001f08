import { getPointer } from '../../client/data/json-pointer'
import type { HttpResult } from '../../client/http/types'
import { resolveDateToken } from './date-tokens'
import { setPointer } from './json-set'
import { SalesFlowError, type SalesFlow } from './lifecycle'
import type { SalesActionNames } from '../../../common/config/sales-settings'

/** Quote states the suite can reach through the API (the spec shows none: docs/sales.md, docs/model.md). */
export const QUOTE_STATES = ['draft', 'calculated', 'referred', 'declined', 'bound', 'issued'] as const
export type QuoteStateName = (typeof QUOTE_STATES)[number]

/** Quote operations of the operation x state table, by their action name in the profile. */
export const TABLE_OPERATIONS = ['update', 'calculate', 'referral', 'decline', 'bind', 'issue', 'documents'] as const
export type TableOperation = (typeof TABLE_OPERATIONS)[number] & keyof SalesActionNames

/** How each state is reached from a new quote: the operations in order (each followed by waiting for the actions). */
const PATH: Record<QuoteStateName, readonly ('calculate' | 'referral' | 'decline' | 'bind' | 'issue')[]> = {
  draft: [],
  calculated: ['calculate'],
  referred: ['calculate', 'referral'],
  declined: ['decline'],
  bound: ['calculate', 'bind'],
  issued: ['calculate', 'bind', 'issue'],
}

/** The partial update the table sends: the first field of the product fixture's update (or payment frequency). */
export function tableUpdate(
  flow: SalesFlow,
  product: string,
): { pointer: string; value: unknown; rest: Record<string, unknown> } {
  const update = flow.payloadOverrides(product).update ?? { '/policy/paymentFrequency': 'annual' }
  const [first, ...rest] = Object.entries(update)
  return {
    pointer: first![0],
    value: resolveDateToken(first![1], new Date()),
    rest: Object.fromEntries(rest.map(([p, v]) => [p, resolveDateToken(v, new Date())])),
  }
}

export interface TableQuote {
  quoteId: string
  /** The actions list once the quote rests in the state. */
  actions: string[]
  requestId?: string
  /** The create payload (what an MTA of the issued policy starts from). */
  payload: Record<string, unknown>
}

/**
 * A new quote brought to `state` through the API (create, then the path's operations, waiting for the actions after
 * each). Throws SalesFlowError (the check is then blocked, not failed) when a step of the way is refused. The quote
 * holds the later fields of the fixture's update, so that an update naming only the first can be seen to keep them.
 */
export async function reachState(
  flow: SalesFlow,
  product: string,
  state: QuoteStateName,
  label: string,
): Promise<TableQuote> {
  const u = tableUpdate(flow, product)
  const q = await flow.createQuote(product, { label, set: u.rest, unlike: { [u.pointer]: u.value } })
  await flow.unlocked(q.quoteId, 'wait after create')
  let requestId: string | undefined
  for (const op of PATH[state]) {
    const res = await perform(flow, q.quoteId, op, product)
    if (res.status < 200 || res.status >= 300)
      throw new SalesFlowError(`${op} on the way to ${state}`, `expected 2xx`, res)
    if (op === 'issue') {
      requestId = flow.requestIdOf(res)
      if (!requestId) throw new SalesFlowError('issue on the way to issued', 'expected a request id', res)
      const r = await flow.waitRequest(requestId)
      if (r.outcome !== 'success')
        throw new SalesFlowError(
          'issue on the way to issued',
          `the request ended ${r.outcome} (${r.last?.seen ?? ''})`,
          r.value?.res,
        )
    }
    await flow.unlocked(q.quoteId, `wait after ${op}`)
  }
  const actions = await flow.unlocked(q.quoteId, `the actions in ${state}`)
  return { quoteId: q.quoteId, actions, payload: q.payload, ...(requestId ? { requestId } : {}) }
}

/** Sends one quote operation (the table's update, a referral comment, a decline reason). Never asserts. */
export function perform(flow: SalesFlow, quoteId: string, op: TableOperation, product: string): Promise<HttpResult> {
  switch (op) {
    case 'update': {
      const u = tableUpdate(flow, product)
      const json: Record<string, unknown> = {}
      setPointer(json, u.pointer, u.value)
      return flow.update(quoteId, json)
    }
    case 'calculate':
      return flow.calculate(quoteId)
    case 'referral':
      return flow.referral(quoteId, flow.t.tag('table-referral'))
    case 'decline':
      return flow.decline(quoteId, flow.t.tag('table-decline'))
    case 'bind':
      return flow.bind(quoteId)
    case 'issue':
      return flow.issue(quoteId)
    case 'documents':
      return flow.t.sales.call({ op: 'sales.documents.generate', params: { id: quoteId }, headers: { accept: '*/*' } })
  }
}

/** The quote data of a get-quote answer (what a refused operation must leave unchanged). */
export function quoteData(res: HttpResult): unknown {
  return getPointer(res.body, '/data')
}
