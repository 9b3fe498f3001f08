import type { PollingSettings, StatusSpellings } from '../../../common/config/types'
import type { ServiceClient } from '../../client/http/client'
import type { HttpResult } from '../../client/http/types'
import { pollUntil, retryAfterMs, type PollObservation, type PollResult } from '../../client/polling/poll-until'

export interface ActionsValue {
  actions: string[]
  res: HttpResult
}

function baseOptions(name: string, p: PollingSettings, deadlineMs: number) {
  return {
    name,
    deadlineMs,
    initialDelayMs: p.initialDelayMs,
    maxDelayMs: p.maxDelayMs,
    minIntervalMs: 1000 / p.maxRatePerSecond,
  }
}

/** Classifies one answer of the actions endpoint: 204/423 locked, 200 with a list unlocked. */
export function classifyActions(res: HttpResult): PollObservation<ActionsValue> {
  const ra = retryAfterMs(res.headers['retry-after'])
  const extra = ra !== undefined ? { retryAfterMs: ra } : {}
  if (res.status === 204) return { state: 'pending', value: { actions: [], res }, seen: '204 locked', ...extra }
  if (res.status === 423)
    return { state: 'pending', value: { actions: [], res }, seen: '423 locked (long polling)', ...extra }
  const data = (res.body as { data?: unknown } | undefined)?.data
  if (res.status === 200 && Array.isArray(data) && data.every((a) => typeof a === 'string')) {
    return { state: 'success', value: { actions: data as string[], res }, seen: `200 [${data.join(', ')}]` }
  }
  const why = res.parseError ?? (res.status === 200 ? 'a 200 without a data array of strings' : `status ${res.status}`)
  return { state: 'failure', value: { actions: [], res }, seen: `unexpected: ${why}` }
}

/** Waits until the quote is unlocked: 204 (or 423 with longPolling) means locked. */
export function waitForActions(
  sales: ServiceClient,
  quoteId: string,
  p: PollingSettings,
): Promise<PollResult<ActionsValue>> {
  return pollUntil(
    async () =>
      classifyActions(
        await sales.call({
          op: 'sales.quote.actions',
          params: { id: quoteId },
          query: p.longPolling ? { longPolling: true } : {},
        }),
      ),
    baseOptions(`actions of quote ${quoteId}`, p, p.actionsDeadlineMs),
  )
}

export interface RequestValue {
  status?: string
  body: unknown
  res: HttpResult
}

/** Classifies one answer of the request status endpoint with the profile's spellings. */
export function classifyRequest(res: HttpResult, s: StatusSpellings): PollObservation<RequestValue> {
  const ra = retryAfterMs(res.headers['retry-after'])
  const extra = ra !== undefined ? { retryAfterMs: ra } : {}
  if (res.status === 423)
    return { state: 'pending', value: { body: res.body, res }, seen: '423 pending (long polling)', ...extra }
  if (res.status !== 200)
    return { state: 'failure', value: { body: res.body, res }, seen: `unexpected status ${res.status}` }
  const status = (res.body as { status?: unknown } | undefined)?.status
  if (typeof status !== 'string')
    return { state: 'failure', value: { body: res.body, res }, seen: res.parseError ?? 'no string status in the body' }
  const v = status.toLowerCase()
  const value = { status, body: res.body, res }
  if (s.pending.includes(v)) return { state: 'pending', value, seen: `status=${status}`, ...extra }
  if (s.success.includes(v)) return { state: 'success', value, seen: `status=${status}` }
  if (s.failure.includes(v)) return { state: 'failure', value, seen: `status=${status}` }
  return { state: 'failure', value, seen: `status=${status} is none of the profile's spellings` }
}

/** Polls GET /requests/{id} until the profile's success or failure spelling. */
export function waitForRequest(
  sales: ServiceClient,
  requestId: string,
  p: PollingSettings,
  s: StatusSpellings,
): Promise<PollResult<RequestValue>> {
  return pollUntil(
    async () =>
      classifyRequest(
        await sales.call({
          op: 'sales.requests.get',
          params: { requestId },
          query: p.longPolling ? { longPolling: true } : {},
        }),
        s,
      ),
    baseOptions(`request ${requestId}`, p, p.requestDeadlineMs),
  )
}
