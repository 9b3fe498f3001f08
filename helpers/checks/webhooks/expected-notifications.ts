import { getPointer } from '../../client/data/json-pointer'
import type { ReceivedNotification } from './receiver'

/**
 * What the target's subscriptions were over time, as this run changed them (answers with 2xx only), and the events
 * it emitted: from these, which notifications each receiver endpoint must get and which it must not
 * (webhook-subscriptions.md §6.2: a subscription is bound to exactly ONE event type and ONE url, its current ones).
 *
 * A small model of the subscriptions' state, kept by the delivery suite from its own traffic. It never asserts: it
 * answers what was expected and what came (findings); the checks decide. `endpoint` is the receiver's key for a url
 * (the receiver label the url was built from).
 */

/**
 * One state of a subscription: the event type and endpoint it had from `from` (ms) until `to` (replaced or deleted).
 */
interface Version {
  event: string
  endpoint: string
  from: number
  to?: number
}

interface Tracked {
  id: string
  versions: Version[]
  deletedAt?: number
}

export interface Emitted {
  event: string
  /** When the target accepted the trigger (ms since the epoch). */
  at: number
}

/** What is wrong with the notifications of one endpoint and event type. */
export type FindingKind =
  /** fewer notifications than events that reached a live subscription with this url and event */
  | 'missing'
  /** more than one notification for one event: a duplicate, maybe late */
  | 'duplicate'
  /** the endpoint is a url the subscription had before a PUT changed it */
  | 'old-url'
  /** the endpoint is the subscription's current url, the event type is one it had before a PUT changed it */
  | 'old-event'
  /** the subscription was deleted before the event */
  | 'after-delete'
  /** an event type this endpoint never subscribed to (or a body whose event type cannot be read) */
  | 'wrong-event'

export interface Finding {
  kind: FindingKind
  subscriptionId: string
  endpoint: string
  event: string
  expected: number
  got: number
  /** Arrival times of the notifications (ms since the epoch), first first. */
  arrivals: number[]
}

export interface Assessment {
  findings: Finding[]
  /** Endpoint/event pairs that must be notified and have been at least once, with their first arrival. */
  firstArrivals: Map<string, number>
  /** Endpoint/event pairs that must be notified and have not been yet. */
  waiting: string[]
}

const pairKey = (endpoint: string, event: string) => `${endpoint} ${event}`

/** The event type a notification names at the profile's pointer; undefined when the body is not JSON or names none. */
export function notifiedEvent(n: ReceivedNotification, eventPointer: string): string | undefined {
  try {
    const v = getPointer(JSON.parse(n.rawBody.toString('utf8')), eventPointer)
    return typeof v === 'string' ? v : undefined
  } catch {
    return undefined
  }
}

export class ExpectedNotifications {
  private readonly subs = new Map<string, Tracked>()
  private readonly emits: Emitted[] = []

  constructor(
    private readonly eventPointer: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A subscription the target created (201) with this event type, notified at this endpoint. */
  created(id: string, event: string, endpoint: string, at = this.now()): void {
    this.subs.set(id, { id, versions: [{ event, endpoint, from: at }] })
  }

  /** A PUT the target accepted (2xx): the fields it named change, the others stay. */
  updated(id: string, change: { event?: string; endpoint?: string }, at = this.now()): void {
    const s = this.subs.get(id)
    const cur = s?.versions.at(-1)
    if (!s || !cur || s.deletedAt !== undefined) return
    cur.to = at
    s.versions.push({ event: change.event ?? cur.event, endpoint: change.endpoint ?? cur.endpoint, from: at })
  }

  /** A DELETE the target accepted (2xx). */
  deleted(id: string, at = this.now()): void {
    const s = this.subs.get(id)
    const cur = s?.versions.at(-1)
    if (!s || !cur || s.deletedAt !== undefined) return
    cur.to = at
    s.deletedAt = at
  }

  /** An event the target accepted to emit. */
  emitted(event: string, at = this.now()): void {
    this.emits.push({ event, at })
  }

  /** Endpoints the run must watch: every url any tracked subscription ever had. */
  endpoints(): string[] {
    return [...new Set([...this.subs.values()].flatMap((s) => s.versions.map((v) => v.endpoint)))]
  }

  /** How many notifications an endpoint must get for an event type: one per emitted event that found it live. */
  expectedCount(endpoint: string, event: string): number {
    return this.emits.filter(
      (e) => e.event === event && this.liveAt(e.at).some((v) => v.endpoint === endpoint && v.event === event),
    ).length
  }

  /** The time of the last event emitted (ms), or undefined before any. */
  lastEmitAt(): number | undefined {
    return this.emits.length === 0 ? undefined : Math.max(...this.emits.map((e) => e.at))
  }

  /**
   * When the settle window ends: settleMs after the later of the last event and the last first arrival of an
   * expected notification. Undefined while an expected notification is still missing and the deadline after the
   * last event has not passed (the window starts when it arrives).
   */
  settleEnd(
    received: (endpoint: string) => ReceivedNotification[],
    settleMs: number,
    deadlineMs: number,
  ): number | undefined {
    const last = this.lastEmitAt()
    if (last === undefined) return undefined
    const a = this.assess(received)
    if (a.waiting.length > 0 && this.now() < last + deadlineMs) return undefined
    return Math.max(last, ...a.firstArrivals.values()) + settleMs
  }

  /** Compares what each endpoint received with what the subscriptions' history says it must. */
  assess(received: (endpoint: string) => ReceivedNotification[]): Assessment {
    const findings: Finding[] = []
    const firstArrivals = new Map<string, number>()
    const waiting: string[] = []
    for (const endpoint of this.endpoints()) {
      const byEvent = new Map<string, number[]>()
      for (const n of received(endpoint)) {
        const event = notifiedEvent(n, this.eventPointer) ?? '(no event type)'
        byEvent.set(event, [...(byEvent.get(event) ?? []), n.receivedAt * 1000])
      }
      const events = new Set([...byEvent.keys(), ...this.emits.map((e) => e.event)])
      for (const event of events) {
        const arrivals = (byEvent.get(event) ?? []).sort((x, y) => x - y)
        const expected = this.expectedCount(endpoint, event)
        const owner = this.ownerOf(endpoint)
        if (expected > 0 && arrivals.length > 0) firstArrivals.set(pairKey(endpoint, event), arrivals[0]!)
        if (expected > 0 && arrivals.length === 0) waiting.push(pairKey(endpoint, event))
        if (arrivals.length === expected) continue
        const base = {
          subscriptionId: owner?.id ?? '(unknown)',
          endpoint,
          event,
          expected,
          got: arrivals.length,
          arrivals,
        }
        if (arrivals.length < expected) findings.push({ kind: 'missing', ...base })
        else if (expected > 0) findings.push({ kind: 'duplicate', ...base })
        else findings.push({ kind: this.unwantedKind(owner, endpoint, event), ...base })
      }
    }
    return { findings, firstArrivals, waiting }
  }

  /** Why a notification no emitted event called for came to this endpoint. */
  private unwantedKind(owner: Tracked | undefined, endpoint: string, event: string): FindingKind {
    if (!owner) return 'wrong-event'
    const cur = owner.versions.at(-1)!
    if (owner.deletedAt !== undefined && owner.versions.some((v) => v.endpoint === endpoint && v.event === event))
      return 'after-delete'
    if (cur.endpoint !== endpoint && owner.versions.some((v) => v.endpoint === endpoint && v.event === event))
      return 'old-url'
    if (cur.endpoint === endpoint && owner.versions.some((v) => v.endpoint === endpoint && v.event === event))
      return 'old-event'
    return 'wrong-event'
  }

  /** The id of the subscription that had this endpoint (for naming it in a finding). */
  subscriptionAt(endpoint: string): string | undefined {
    return this.ownerOf(endpoint)?.id
  }

  private ownerOf(endpoint: string): Tracked | undefined {
    return [...this.subs.values()].find((s) => s.versions.some((v) => v.endpoint === endpoint))
  }

  /** The subscription states live at a time. */
  private liveAt(at: number): Version[] {
    return [...this.subs.values()].flatMap((s) =>
      s.versions.filter((v) => v.from <= at && (v.to === undefined || at < v.to)),
    )
  }
}

/** "2 notifications, the second 2.0 s after the first" style description of a finding. */
export function describeFinding(f: Finding, name: (subscriptionId: string) => string = (id) => id): string {
  const gaps = f.arrivals.slice(1).map((t) => `${((t - f.arrivals[0]!) / 1000).toFixed(1)} s`)
  const late = gaps.length > 0 ? ` (after the first: ${gaps.join(', ')})` : ''
  return `${name(f.subscriptionId)}: ${f.got} notification(s) of ${f.event}, expected ${f.expected}${late}`
}
