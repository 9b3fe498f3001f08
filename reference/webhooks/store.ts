import { randomBytes } from 'node:crypto'
import type { Principal } from '../tokens'
import type { IdFactory } from '../ids'
import type { EventType } from './events'

/** One stored subscription; owner is "<tenant>/<username>" (subscriptions are scoped to the caller). */
export interface StoredSubscription {
  id: string
  owner: string
  event: string
  url: string
  /** The HMAC key of its notifications. */
  key: string
  createdAt: Date
  updatedAt: Date
  /** Event type and url at creation: kept only for the notifications-follow-old-* defects. */
  createdWith: { event: string; url: string }
  /** When it was deleted (ms), for the delivered-after-delete-late defect. */
  deletedAt?: number
}

export function ownerOf(p: Principal): string {
  return `${p.tenant}/${p.username}`
}

/** In-memory subscriptions of one reference instance. */
export class SubscriptionStore {
  private readonly items = new Map<string, StoredSubscription>()
  /** Deleted subscriptions, kept only for the webhooks-delivered-after-delete defect. */
  readonly deleted: StoredSubscription[] = []
  private readonly seeded = new Set<string>()

  private readonly firstIdOf = new Map<string, string>()

  /** reuseIds: the webhooks-id-reused defect (a caller's later subscriptions get the id of its first). */
  constructor(
    private readonly ids: IdFactory,
    private readonly preexisting: number,
    private readonly reuseIds = false,
  ) {}

  /** Seeds the configured number of other clients' subscriptions the first time a caller shows up. */
  private seed(owner: string): void {
    if (this.seeded.has(owner)) return
    this.seeded.add(owner)
    for (let i = 1; i <= this.preexisting; i += 1) {
      this.create(owner, { event: i % 2 === 0 ? 'export' : 'extracted', url: `http://127.0.0.1:9/other-client/${i}` })
    }
  }

  create(owner: string, input: { event: string; url: string }): StoredSubscription {
    this.seed(owner)
    const now = new Date()
    const id = (this.reuseIds ? this.firstIdOf.get(owner) : undefined) ?? this.ids.subscriptionId()
    if (!this.firstIdOf.has(owner)) this.firstIdOf.set(owner, id)
    const s: StoredSubscription = {
      id,
      owner,
      event: input.event,
      url: input.url,
      key: randomBytes(32).toString('hex'),
      createdAt: now,
      updatedAt: now,
      createdWith: { ...input },
    }
    this.items.set(s.id, s)
    return s
  }

  list(owner: string | undefined): StoredSubscription[] {
    if (owner) this.seed(owner)
    return [...this.items.values()].filter((s) => owner === undefined || s.owner === owner)
  }

  get(id: string, owner: string | undefined): StoredSubscription | undefined {
    const s = this.items.get(id)
    return s && (owner === undefined || s.owner === owner) ? s : undefined
  }

  delete(id: string): void {
    const s = this.items.get(id)
    if (!s) return
    this.items.delete(id)
    s.deletedAt = Date.now()
    this.deleted.push(s)
  }

  /** A deleted subscription (kept for defects), by id. */
  deletedById(id: string): StoredSubscription | undefined {
    return this.deleted.find((s) => s.id === id && !this.items.has(id))
  }

  /** Brings a deleted subscription back (the webhooks-deleted-revived-by-put defect). */
  revive(s: StoredSubscription): void {
    this.items.set(s.id, s)
  }

  /**
   * Subscriptions of a caller for an event type (all of the caller's with `anyEvent`; matched on the event type they
   * were created with under `createdEvent`, the webhooks-notifications-follow-old-event defect).
   */
  subscribers(owner: string, event: EventType, anyEvent: boolean, createdEvent = false): StoredSubscription[] {
    return this.list(owner).filter((s) => anyEvent || (createdEvent ? s.createdWith.event : s.event) === event)
  }
}
