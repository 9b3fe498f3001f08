import type { TrafficLine } from '../../helpers/client/http/traffic-file'
import type { TimelineEntry } from '../../reference/chaos/stats'
import type { OperationId } from '../../common/operations'

/** Operations the suite polls: a quote's actions (locks) and asynchronous requests. */
export const POLLED_OPERATIONS = ['sales.quote.actions', 'sales.requests.get'] as const satisfies readonly OperationId[]

export interface LagSample {
  path: string
  op: string
  /** ms from completion (estimated at the service) to the moment the suite had the answer. */
  lagMs: number
  /** 'held': a long poll released at completion; 'between': completed between two polls (upper bound). */
  kind: 'held' | 'between'
}

export interface PollingFigures {
  samples: LagSample[]
  /** Resources whose first poll already found them complete (no waiting, no lag). */
  completeAtFirstPoll: number
  /** Highest number of polls of one resource that started within any 1 s window. */
  maxPollsPerSecond: number
  resources: number
}

const isDone = (e: TimelineEntry) => e.status === 200
/** A handler that answered more than this after receiving the poll held it (long polling). */
const HELD_MS = 5

/** The client's receipt of an answer: the first traffic line of that operation and status at or after it was sent. */
function noticedAt(e: TimelineEntry, traffic: TrafficLine[]): number {
  let best: number | undefined
  for (const t of traffic) {
    if (t.operationId !== e.op || t.status !== e.status) continue
    const at = Date.parse(t.at)
    // the same exchange: the client started it before the service received it, and had it after the service answered
    if (
      at - t.durationMs <= e.receivedAt + 2 &&
      at >= e.sentAt - 2 &&
      at - e.sentAt < 1000 &&
      (best === undefined || at < best)
    )
      best = at
  }
  return best ?? e.sentAt
}

/**
 * Polling lag and rate, from the service's timeline (when it received and answered each poll) and the suite's
 * traffic (when it had each answer). Completion is estimated at the service: a held long poll is released at
 * completion; otherwise completion lies between the previous pending answer and this poll (upper bound taken).
 */
export function pollingFigures(timeline: TimelineEntry[], traffic: TrafficLine[]): PollingFigures {
  const byPath = new Map<string, TimelineEntry[]>()
  for (const e of timeline) {
    if (!(POLLED_OPERATIONS as readonly string[]).includes(e.op)) continue
    byPath.set(e.path, [...(byPath.get(e.path) ?? []), e])
  }
  const samples: LagSample[] = []
  let completeAtFirstPoll = 0
  let maxPollsPerSecond = 0
  for (const [path, entries] of byPath) {
    entries.sort((a, b) => a.receivedAt - b.receivedAt)
    for (let i = 0, j = 0; i < entries.length; i += 1) {
      while (entries[i]!.receivedAt - entries[j]!.receivedAt >= 1000) j += 1
      maxPollsPerSecond = Math.max(maxPollsPerSecond, i - j + 1)
    }
    // Each run of pending answers followed by a completed one is one wait (a quote locks again after each change).
    for (let i = 0; i < entries.length; i += 1) {
      const e = entries[i]!
      if (!isDone(e)) continue
      const prev = entries[i - 1]
      const held = e.sentAt - e.receivedAt > HELD_MS
      if (!held && (!prev || isDone(prev))) {
        if (!prev) completeAtFirstPoll += 1
        continue
      }
      const completion = held ? e.sentAt : prev!.sentAt
      samples.push({
        path,
        op: e.op,
        lagMs: Math.max(0, noticedAt(e, traffic) - completion),
        kind: held ? 'held' : 'between',
      })
    }
  }
  return { samples, completeAtFirstPoll, maxPollsPerSecond, resources: byPath.size }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!
}
