import { ScopedValue } from './scoped'

/**
 * How long after its unit's deadline a request's own timer stops it, if the unit's timer has not
 * (InFlight.requestBudgetMs).
 */
export const REQUEST_BACKSTOP_MS = 100

/** A request on its way: what it is and when it was sent. */
export interface InFlightRequest {
  label: string
  startedAt: number
}

/**
 * The requests in flight for one unit of work with a deadline (a check, the preflight): what a timeout names, and
 * what it aborts. Carried through the awaits of that work (a scoped value: scoped.ts), so the HTTP layer finds it
 * without being handed it.
 */
export class InFlight {
  private readonly requests = new Set<InFlightRequest>()
  private readonly controller = new AbortController()

  /** endsAt: the unit's deadline (epoch ms), which every request and retry of it must fit inside. */
  constructor(readonly endsAt: number = Number.POSITIVE_INFINITY) {}

  get signal(): AbortSignal {
    return this.controller.signal
  }

  /** Milliseconds left before the unit's deadline. */
  remainingMs(now = Date.now()): number {
    return this.endsAt - now
  }

  /**
   * How long a request of the unit may still take: until the unit's deadline and a little past it. The unit's own
   * timer stops the request at the deadline and names it (helpers/checks/check.ts withDeadline); the request's timer
   * is only the backstop, and must not fire first, or the request would end on its own at the same moment and the
   * unit would finish without saying that it ran out of time.
   */
  requestBudgetMs(now = Date.now()): number {
    return this.remainingMs(now) + REQUEST_BACKSTOP_MS
  }

  start(label: string): InFlightRequest {
    const r = { label, startedAt: Date.now() }
    this.requests.add(r)
    return r
  }

  end(r: InFlightRequest): void {
    this.requests.delete(r)
  }

  /** "GET /x (sales.quote.get), in flight for 12034 ms", or undefined when nothing is in flight. */
  describe(now = Date.now()): string | undefined {
    const all = [...this.requests]
    if (all.length === 0) return undefined
    return all.map((r) => `${r.label}, in flight for ${now - r.startedAt} ms`).join('; ')
  }

  /**
   * Stops every request in flight (and any later one) with the reason. The signal carries a plain { message }, not
   * the Error (see ExchangeDeadline in send.ts: a stack read inside an abort listener can crash the process).
   */
  abort(reason: Error): void {
    this.controller.abort({ message: reason.message })
  }
}

const current = new ScopedValue<InFlight>('in flight')

export function withInFlight<T>(tracker: InFlight, body: () => T): T {
  return current.run(tracker, body)
}

/** The in-flight tracker of the work running here, if any. */
export function currentInFlight(): InFlight | undefined {
  return current.get()
}
