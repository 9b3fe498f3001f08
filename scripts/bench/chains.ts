import type { TrafficLine } from '../../helpers/client/http/traffic-file'

/**
 * The longest dependent chain of a run, measured from its traffic (docs/reliability.md#speed).
 *
 * A chain is what must happen one after another: the exchanges of a block whose checks run in order (a lifecycle, or
 * a block sharing its setup), or of one check that runs concurrently with its siblings. Each traffic line names its
 * chain (`chain`, helpers/client/http/running-check.ts). A chain's length is its span, from its first request sent to
 * its last
 * answer, less the time in it when the chain only waited for a free slot at the request limiter (`queuedMs`: a request
 * queued, none of the chain's in flight). So it counts what the chain needs whatever the scheduling: its requests at
 * the target's latency, the waits the services impose (a poll's interval, a lock's release, an asynchronous request)
 * and the suite's own work between them; not the time other chains' requests held the slots. Exchanges sent outside
 * a check (set-up hooks) belong to no chain. `requestMs` is the sum of the chain's exchange durations alone.
 */
export interface ChainFigure {
  chain: string
  /** The chain's critical path: its span less the time it only waited for a slot. */
  ms: number
  /** The sum of its exchanges' durations (requests alone, without the waits between them). */
  requestMs: number
  exchanges: number
}

export interface ChainFigures {
  /** Number of chains. */
  chains: number
  longest?: ChainFigure
  /** The next longest, for the report. */
  next: ChainFigure[]
  /** From the first request sent to the last answer received, in ms. */
  trafficSpanMs: number
  /** Exchanges outside any check (set-up hooks): part of no chain. */
  outside: number
}

interface Interval {
  from: number
  to: number
  kind: 'flight' | 'queue'
}

/** The span of a chain's intervals less the time in it when a request was queued and none was in flight. */
export function criticalPathMs(intervals: readonly Interval[]): number {
  const flights = intervals.filter((i) => i.kind === 'flight')
  if (flights.length === 0) return 0
  const from = Math.min(...flights.map((i) => i.from))
  const to = Math.max(...flights.map((i) => i.to))
  // sweep: +1/-1 per interval start/end, by kind
  const events = intervals.flatMap((i) => [
    { at: Math.max(from, Math.min(to, i.from)), kind: i.kind, d: 1 },
    { at: Math.max(from, Math.min(to, i.to)), kind: i.kind, d: -1 },
  ])
  events.sort((a, b) => a.at - b.at || a.d - b.d)
  let flying = 0
  let queued = 0
  let waited = 0
  let prev = from
  for (const e of events) {
    if (e.at > prev && queued > 0 && flying === 0) waited += e.at - prev
    prev = Math.max(prev, e.at)
    if (e.kind === 'flight') flying += e.d
    else queued += e.d
  }
  return to - from - waited
}

export function chainFigures(traffic: TrafficLine[]): ChainFigures {
  const chains = new Map<string, { intervals: Interval[]; requestMs: number; exchanges: number }>()
  let outside = 0
  for (const t of traffic) {
    const end = Date.parse(t.at)
    const start = end - t.durationMs
    if (!t.chain) {
      outside += 1
      continue
    }
    const c = chains.get(t.chain) ?? { intervals: [], requestMs: 0, exchanges: 0 }
    c.intervals.push({ from: start, to: end, kind: 'flight' })
    if (t.queuedMs) c.intervals.push({ from: start - t.queuedMs, to: start, kind: 'queue' })
    c.requestMs += t.durationMs
    c.exchanges += 1
    chains.set(t.chain, c)
  }
  const span = trafficSpan(traffic)
  const round = (ms: number) => Math.round(ms * 10) / 10
  const sorted = [...chains.entries()]
    .map(([chain, c]) => ({
      chain,
      ms: round(criticalPathMs(c.intervals)),
      requestMs: round(c.requestMs),
      exchanges: c.exchanges,
    }))
    .sort((a, b) => b.ms - a.ms)
  return {
    chains: sorted.length,
    ...(sorted[0] ? { longest: sorted[0] } : {}),
    next: sorted.slice(1, 4),
    trafficSpanMs: span ? span.last - span.first : 0,
    outside,
  }
}

/**
 * A run's phases: from its start to its first request sent, the requests (first sent to last answer), last answer to
 * exit.
 */
export interface RunPhases {
  startMs: number
  requestsMs: number
  endMs: number
}

/**
 * The phases of a run started at `startedAt` and ended at `endedAt` (epoch ms) that sent `traffic`; none without
 * traffic.
 */
export function runPhases(traffic: readonly TrafficLine[], startedAt: number, endedAt: number): RunPhases | undefined {
  const span = trafficSpan(traffic)
  return span && { startMs: span.first - startedAt, requestsMs: span.last - span.first, endMs: endedAt - span.last }
}

/** The first request sent and the last answer received (epoch ms); none without traffic. */
export function trafficSpan(traffic: readonly TrafficLine[]): { first: number; last: number } | undefined {
  if (traffic.length === 0) return undefined
  let first = Infinity
  let last = -Infinity
  for (const t of traffic) {
    const end = Date.parse(t.at)
    first = Math.min(first, end - t.durationMs)
    last = Math.max(last, end)
  }
  return { first, last }
}

/**
 * What the request limit alone makes the requests take at least: all of them, at their mean duration, `limit` at a
 * time (http.maxInFlight), packed without a gap.
 */
export function limitBoundMs(traffic: readonly TrafficLine[], limit: number): { meanMs: number; boundMs: number } {
  const meanMs = traffic.length === 0 ? 0 : traffic.reduce((a, t) => a + t.durationMs, 0) / traffic.length
  return { meanMs, boundMs: (traffic.length * meanMs) / limit }
}
