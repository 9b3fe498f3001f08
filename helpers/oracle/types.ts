import type { HttpResult } from '../client/http/types'
import type { InvariantId } from './invariants'
import type { SourceLocation } from '../../common/source-location'

/** Who sent a request, as the client knows it (never the token itself). */
export type Actor =
  | { kind: 'user'; tenant: string; username: string }
  /** A bearer given as is (forged, expired, another tenant's): its exp when it decodes. */
  | { kind: 'bearer'; exp?: number; tenant?: string; username?: string }
  | { kind: 'anonymous' }

/** One call as the client sends it. Ids are opaque: whatever the path carried, as a string. */
export interface CallInfo {
  service: 'sales' | 'webhooks' | 'identity'
  operationId?: string
  method: string
  params: Record<string, string>
  json?: unknown
  actor: Actor
  /** The tenant header sent (sales), when any. */
  tenantHeader?: string
}

/** A broken invariant, with its evidence: the answer, and the earlier exchange that set the expectation. */
export interface Violation {
  invariant: InvariantId
  expected: string
  actual: string
  res: HttpResult
  /** The earlier answer the expectation comes from. */
  setBy?: HttpResult
  note?: string
  /** The rule of the model that judged it (file and line; stamped by helpers/oracle/judged-at.ts). */
  at?: SourceLocation
}

/** What one answer was checked against: the invariants evaluated and those broken. */
export interface Verdict {
  evaluated: InvariantId[]
  violations: Violation[]
  /** Real-world data classes the request wrote (helpers/oracle/real-world.ts), one entry per leaf and class. */
  sent?: string[]
}

/** The handle of one call in flight: ended with its answer (or undefined when no answer came). */
export interface CallHandle {
  end(res: HttpResult | undefined): Verdict
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
