/**
 * At most `limit` requests in flight to one target (profile `http.maxInFlight`, default 16): the checks of a run are
 * scheduled by dependency, so independent ones (the security table, isolation probes, contract reads) run at once,
 * and this is what keeps them from flooding the target (docs/reliability.md#speed).
 *
 * A slot is held for one attempt of one exchange: from sending the request to having the whole answer, never during
 * a retry's backoff or a poll's wait. Requests wait in arrival order, with one exception: a request nothing else waits
 * for (`background`: sent by a check that runs concurrently with its siblings, such as a probe of the security table)
 * lets every waiting request of a dependent chain (a lifecycle step, a setup) go first, so that a burst of probes
 * does not stretch the longest chain of the run.
 */
export class RequestLimiter {
  private active = 0
  private readonly waiting: (() => void)[] = []
  private readonly waitingBackground: (() => void)[] = []
  /** Most requests that were in flight at once (a figure for the bench and the tests). */
  private peak = 0

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`RequestLimiter: limit must be a positive integer, got ${limit}`)
  }

  /** Runs `send` when a slot is free; the slot is given back when it settles. */
  async run<T>(send: () => Promise<T>, background = false): Promise<T> {
    if (this.active >= this.limit)
      await new Promise<void>((resolve) => (background ? this.waitingBackground : this.waiting).push(resolve))
    else this.active += 1
    this.peak = Math.max(this.peak, this.active)
    try {
      return await send()
    } finally {
      const next = this.waiting.shift() ?? this.waitingBackground.shift()
      // the slot passes straight to the next request in line: `active` stays the same
      if (next) next()
      else this.active -= 1
    }
  }

  get inFlight(): number {
    return this.active
  }

  get queued(): number {
    return this.waiting.length + this.waitingBackground.length
  }

  get peakInFlight(): number {
    return this.peak
  }
}

/**
 * One limiter per target and worker: the suite files of a worker that talk to the same target share it, so the
 * limit holds for the worker, not for each file. Keyed by the target's identity (run id and service origins); like
 * the contract registry, kept for the worker's life: it holds no result, only who is waiting for a slot.
 */
const limiters = new Map<string, RequestLimiter>()

export function sharedLimiter(target: string, limit: number): RequestLimiter {
  const key = `${target}#${limit}`
  let l = limiters.get(key)
  if (!l) {
    l = new RequestLimiter(limit)
    limiters.set(key, l)
  }
  return l
}
