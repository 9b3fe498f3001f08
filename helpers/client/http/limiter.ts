/**
 * At most `limit` requests in flight to one target (profile `http.maxInFlight`, default 32): the checks of a run are
 * scheduled by dependency, so independent ones (the security table, isolation probes, contract reads) run at once,
 * and this is what keeps them from flooding the target (docs/reliability.md#speed).
 *
 * The target says when that is too many: an answer 429 (Too Many Requests) halves the requests let in flight (at most
 * once per `coolDownMs`, so that the 429s of one burst count once), and each run of answers without one as long as
 * the current limit gives one slot back, up to `limit` (additive increase, multiplicative decrease: TCP's answer to
 * the same question). The 429 itself is answered as the retry policy says (helpers/client/http/retry.ts).
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
  /** The requests let in flight now: `limit`, less after the target answered 429. */
  private allowed: number
  /** Answers without a 429 since the last change of `allowed`. */
  private calm = 0
  private lastCut = Number.NEGATIVE_INFINITY
  /** How many times a 429 halved the requests in flight (a figure for the tests and the traffic's reader). */
  private cuts = 0

  constructor(
    readonly limit: number,
    private readonly coolDownMs = 1000,
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`RequestLimiter: limit must be a positive integer, got ${limit}`)
    this.allowed = limit
  }

  /**
   * Runs `send` when a slot is free; the slot is given back when it settles. `tooMany` says whether its answer is the
   * target's 429 (the client passes one; without it no answer changes the limit).
   */
  async run<T>(send: () => Promise<T>, background = false, tooMany?: (answer: T) => boolean): Promise<T> {
    if (this.active >= this.allowed)
      await new Promise<void>((resolve) => (background ? this.waitingBackground : this.waiting).push(resolve))
    else this.active += 1
    this.peak = Math.max(this.peak, this.active)
    try {
      const answer = await send()
      if (tooMany) this.answered(tooMany(answer))
      return answer
    } finally {
      // the slot passes straight to the next request in line (`active` stays the same) unless the limit was cut
      const next = this.active <= this.allowed ? this.nextInLine() : undefined
      if (next) next()
      else this.active -= 1
      this.fill()
    }
  }

  /** A 429 halves the requests let in flight (once per cool-down); a calm run as long as the limit adds one back. */
  private answered(throttled: boolean): void {
    if (throttled) {
      const now = performance.now()
      if (now - this.lastCut >= this.coolDownMs) {
        this.allowed = Math.max(1, Math.floor(this.allowed / 2))
        this.lastCut = now
        this.calm = 0
        this.cuts += 1
      }
      return
    }
    if (this.allowed >= this.limit) return
    this.calm += 1
    if (this.calm >= this.allowed) {
      this.allowed += 1
      this.calm = 0
    }
  }

  private nextInLine(): (() => void) | undefined {
    return this.waiting.shift() ?? this.waitingBackground.shift()
  }

  /** Starts waiting requests while slots are free (after the limit grew back). */
  private fill(): void {
    while (this.active < this.allowed) {
      const next = this.nextInLine()
      if (!next) return
      this.active += 1
      next()
    }
  }

  get inFlight(): number {
    return this.active
  }

  /** The requests let in flight now (`limit` unless the target answered 429). */
  get currentLimit(): number {
    return this.allowed
  }

  /** How many times a 429 halved the requests in flight. */
  get throttledTimes(): number {
    return this.cuts
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
