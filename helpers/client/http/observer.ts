import type { OperationId } from '../../../common/operations'
import type { TimelineRecord } from './timeline-record'
import type { HttpResult, Instant } from './types'

// the moment type lives with the client's vocabulary (types.ts), so that the recorded exchange can name it there
export { instant, type Instant } from './types'
import type { SourceLocation } from '../../../common/source-location'

/**
 * The observer hook: what the HTTP client tells whoever watches its exchanges (the oracle's ServiceModel,
 * helpers/oracle/service-model.ts), and what comes back. It lives in the client so the client knows no observer.
 */

/**
 * The id of an invariant. The catalogue (helpers/oracle/invariants.ts, `InvariantId`) is the oracle's; below it an
 * id is a string, so the client does not import the layer above it; the oracle types its own
 * (`Violation<InvariantId>`).
 */
export type InvariantRef = string

/** Who sent a request, as the client knows it (never the token itself). */
export type Actor =
  | { kind: 'user'; tenant: string; username: string }
  /**
   * A bearer given as is (forged, expired, another tenant's): its exp when it decodes, and a fingerprint (a hash, never
   * the token).
   */
  | { kind: 'bearer'; exp?: number; tenant?: string; username?: string; fingerprint?: string }
  | { kind: 'anonymous' }

/** One call as the client sends it. Ids are opaque: whatever the path carried, as a string. */
export interface CallInfo {
  service: 'sales' | 'webhooks' | 'identity'
  operationId?: OperationId
  method: string
  params: Record<string, string>
  json?: unknown
  actor: Actor
  /** The tenant header sent (sales), when any. */
  tenantHeader?: string
  /** The query parameters sent, when any. */
  query?: Record<string, string>
  /** The path sent, relative to the service's base URL (the identity service's calls have no operation id). */
  path?: string
  /** Who invoked it: the running check (and its dependent chain when it has one of its own), for the history. */
  caller?: string
  /** When it was invoked (before any wait at the limiter): the start of its interval in the history. */
  invokedAt?: Instant
}

/** A broken invariant, with its evidence: the answer, and the earlier exchange that set the expectation. */
export interface Violation<Id extends InvariantRef = InvariantRef> {
  invariant: Id
  expected: string
  actual: string
  res: HttpResult
  /** The earlier answer the expectation comes from. */
  setBy?: HttpResult
  note?: string
  /** A linearizability finding's timelines as data (helpers/client/http/timeline-record.ts). */
  timeline?: TimelineRecord[]
  /** The rule of the model that judged it (file and line; stamped by helpers/oracle/judged-at.ts). */
  at?: SourceLocation
}

/** What one answer was checked against: the invariants evaluated and those broken. */
export interface Verdict<Id extends InvariantRef = InvariantRef> {
  evaluated: Id[]
  violations: Violation<Id>[]
  /** Real-world data classes the request wrote (helpers/oracle/real-world.ts), one entry per leaf and class. */
  sent?: string[]
  /**
   * The cells of the exercise model the call exercised (helpers/oracle/exercise-model.ts), measured from the exchange.
   */
  exercised?: string[]
  /**
   * Invariants that could not be decided on this answer (the linearizability checker's budget spent), with the
   * resource.
   */
  undecided?: { invariant: Id; resource: string }[]
}

/** The handle of one call in flight: ended with its answer (or undefined when no answer came). */
export interface CallHandle {
  /** completedAt: when the answer (or the loss of it) was known: the end of the call's interval in the history. */
  end(res: HttpResult | undefined, completedAt?: Instant): Verdict
}

/** What the HTTP client feeds: every call, begun and ended. */
export interface ExchangeObserver {
  begin(call: CallInfo): CallHandle
}

export function actorKey(a: Actor): string | undefined {
  if (a.kind === 'user') return `${a.tenant}/${a.username}`
  if (a.kind === 'bearer' && a.tenant && a.username) return `${a.tenant}/${a.username}`
  return undefined
}

export function actorTenant(a: Actor): string | undefined {
  return a.kind === 'anonymous' ? undefined : a.tenant
}
