import type { TrafficLine } from '../../helpers/reporting/traffic-file'

/**
 * The longest dependent chain of a run, measured from its traffic (docs/reliability.md#speed).
 *
 * A chain is what must happen one after another: the exchanges of a block whose checks run in order (a lifecycle, or
 * a block sharing its setup), or of one check that runs concurrently with its siblings. Each traffic line names its
 * chain (`chain`, helpers/checks/running.ts). A chain's length is the sum of the durations of its exchanges: the time
 * its requests need at the target's latency, not counting the suite's own work between them nor the time a request
 * waited for a free slot; exchanges sent outside a check (set-up hooks) belong to no chain. Both make chains shorter,
 * so the run's ratio to its longest chain is, if anything, overstated.
 */
export interface ChainFigures {
  /** Number of chains. */
  chains: number
  longest?: { chain: string; ms: number; exchanges: number }
  /** The next longest, for the report. */
  next: { chain: string; ms: number; exchanges: number }[]
  /** From the first request sent to the last answer received, in ms. */
  trafficSpanMs: number
  /** Exchanges outside any check (set-up hooks): part of no chain. */
  outside: number
}

export function chainFigures(traffic: TrafficLine[]): ChainFigures {
  const chains = new Map<string, { ms: number; exchanges: number }>()
  let outside = 0
  let first = Infinity
  let last = -Infinity
  for (const t of traffic) {
    const end = Date.parse(t.at)
    first = Math.min(first, end - t.durationMs)
    last = Math.max(last, end)
    if (!t.chain) {
      outside += 1
      continue
    }
    const c = chains.get(t.chain) ?? { ms: 0, exchanges: 0 }
    c.ms += t.durationMs
    c.exchanges += 1
    chains.set(t.chain, c)
  }
  const sorted = [...chains.entries()].map(([chain, c]) => ({ chain, ...c })).sort((a, b) => b.ms - a.ms)
  return {
    chains: sorted.length,
    ...(sorted[0] ? { longest: sorted[0] } : {}),
    next: sorted.slice(1, 4),
    trafficSpanMs: traffic.length > 0 ? last - first : 0,
    outside,
  }
}
