export type PollState = 'pending' | 'success' | 'failure'

export interface PollObservation<T> {
  state: PollState
  value: T
  /** Short description of what was seen, e.g. "204 locked" or "status=pending". */
  seen: string
  /** Server asked to wait this long (Retry-After). */
  retryAfterMs?: number
}

export interface PollAttempt {
  n: number
  /** Start of the attempt, ms since polling began. */
  atMs: number
  durationMs: number
  state: PollState
  seen: string
}

export interface PollOptions {
  name: string
  deadlineMs: number
  initialDelayMs: number
  maxDelayMs: number
  /** Minimum time between the starts of two attempts (1000 / max rate per second). */
  minIntervalMs: number
  factor?: number
  /** Fraction of the delay randomised, 0..1. */
  jitter?: number
  random?: () => number
  sleep?: (ms: number) => Promise<void>
  now?: () => number
}

export interface PollResult<T> {
  name: string
  outcome: 'success' | 'failure' | 'timeout'
  value?: T
  last?: PollObservation<T>
  attempts: PollAttempt[]
  elapsedMs: number
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Parses Retry-After (seconds or HTTP date) into milliseconds. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Number(header) * 1000
  const t = Date.parse(header)
  return Number.isNaN(t) ? undefined : Math.max(0, t - now)
}

/**
 * Polls while the state is pending; stops at once on success or failure. Backs off with
 * jitter from a fast start, never starts two attempts closer than minIntervalMs, honours
 * Retry-After, and gives up at the deadline with what it last saw. Never throws on timeout.
 */
export async function pollUntil<T>(
  probe: (n: number) => Promise<PollObservation<T>>,
  o: PollOptions,
): Promise<PollResult<T>> {
  const now = o.now ?? (() => performance.now())
  const sleep = o.sleep ?? defaultSleep
  const random = o.random ?? Math.random
  const factor = o.factor ?? 2
  const jitter = o.jitter ?? 0.2
  const start = now()
  const attempts: PollAttempt[] = []
  let delay = o.initialDelayMs
  let last: PollObservation<T> | undefined
  for (let n = 1; ; n += 1) {
    const atMs = now() - start
    const obs = await probe(n)
    const durationMs = now() - start - atMs
    attempts.push({ n, atMs: Math.round(atMs), durationMs: Math.round(durationMs), state: obs.state, seen: obs.seen })
    last = obs
    if (obs.state !== 'pending') {
      return {
        name: o.name,
        outcome: obs.state,
        value: obs.value,
        last,
        attempts,
        elapsedMs: Math.round(now() - start),
      }
    }
    const elapsed = now() - start
    const remaining = o.deadlineMs - elapsed
    if (remaining <= 0) return { name: o.name, outcome: 'timeout', last, attempts, elapsedMs: Math.round(elapsed) }
    const jittered = delay * (1 - jitter / 2 + random() * jitter)
    const sinceStart = elapsed - atMs
    // the last wait is cut at the deadline, but never below the rate limit
    const wait = Math.max(Math.min(Math.max(jittered, obs.retryAfterMs ?? 0), remaining), o.minIntervalMs - sinceStart)
    await sleep(Math.max(0, wait))
    delay = Math.min(o.maxDelayMs, delay * factor)
  }
}

/** One line per attempt, for reports. */
export function describePoll(r: PollResult<unknown>): string {
  const head = `${r.name}: ${r.outcome} after ${r.attempts.length} attempt(s) in ${r.elapsedMs} ms`
  return [head, ...r.attempts.map((a) => `  #${a.n} +${a.atMs}ms (${a.durationMs}ms) ${a.state}: ${a.seen}`)].join('\n')
}
