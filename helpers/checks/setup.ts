import { operation as findOperation, isOperationId, type OperationId } from '../../common/operations'
import type { HttpResult } from '../client/http/types'
import { ConformanceFailure } from './failure'

/** Why a check could not reach its assertion (TaskMeta.blocked; checks.json status 'blocked'). */
export interface BlockedInfo {
  reason: string
  /** Operation id (common/operations.ts) whose call did not go as a conforming target's would. */
  operation?: OperationId
  /** The status seen: an HTTP status, or what polling last saw ("timeout: 204 locked"). */
  status?: number | string
  /** Id of the check that owns the requirement of that operation (common/operations.json `owner`). */
  owner?: string
}

/**
 * A preparatory call of a check did not go as a conforming target's would. Thrown by given() (and by helpers
 * that are only ever setup); check() reports the check as BLOCKED with this information, not as failed.
 */
export class SetupFailure extends Error {
  constructor(
    readonly blocked: BlockedInfo,
    readonly res?: HttpResult,
  ) {
    super(blockedMessage(blocked))
    this.name = 'SetupFailure'
  }
}

/** One line: "blocked: <reason> (<operation> -> <status>; owner <id>)". */
export function blockedMessage(b: BlockedInfo): string {
  const where = [
    b.operation && `${b.operation}${b.status !== undefined ? ` -> ${b.status}` : ''}`,
    b.owner && `owner ${b.owner}`,
  ]
    .filter(Boolean)
    .join('; ')
  return `blocked: ${b.reason}${where ? ` (${where})` : ''}`
}

/**
 * The check that owns the requirement of an operation, from common/operations.json; `{product}` in the owner is
 * the product the setup worked on. Undefined for an unknown operation, or a per-product owner without a product.
 */
export function ownerOf(operationId: string | undefined, product?: string): string | undefined {
  if (!operationId || !isOperationId(operationId)) return undefined
  let owner: string | undefined
  try {
    owner = findOperation(operationId).owner
  } catch {
    return undefined
  }
  if (!owner) return undefined
  if (!owner.includes('{product}')) return owner
  return product ? owner.replaceAll('{product}', product) : undefined
}

/** What a domain helper's error may say about where a setup went wrong (SalesFlowError and others carry these). */
interface SetupEvidence {
  operation?: OperationId
  status?: number | string
  product?: string
  /** Only for a failure that is no operation's (e.g. no payload the schema allows): the owning check. */
  owner?: string
  res?: HttpResult
}

function evidenceOf(e: unknown): SetupEvidence | undefined {
  if (e instanceof ConformanceFailure) return e.detail.res ? { res: e.detail.res } : {}
  if (e instanceof Error && (e as { setupEvidence?: () => SetupEvidence }).setupEvidence)
    return (e as unknown as { setupEvidence(): SetupEvidence }).setupEvidence()
  return undefined
}

export interface GivenOptions {
  /** Product the setup works on, for per-product owners (SL-LIFE-002-{product}). */
  product?: string
  /** Operation to blame when the error does not say (e.g. a value read from an earlier answer). */
  operation?: OperationId
  /**
   * The check that owns what the setup needs, when it is not the operation's owner (an update of the event only:
   * WH-LIFE-005).
   */
  owner?: string
}

/**
 * Turns what a setup step threw into a SetupFailure: a ConformanceFailure (an expect* used in setup), or a domain
 * helper's error that carries setup evidence (SalesFlowError, WebhookSetupError). Anything else (a bug of the
 * suite, a transport error) is not the target's doing and stays an error: undefined.
 */
export function asSetupFailure(e: unknown, what: string, o: GivenOptions = {}): SetupFailure | undefined {
  if (e instanceof SetupFailure) return e
  const ev = evidenceOf(e)
  if (!ev) return undefined
  const recorded = ev.res?.exchange?.operationId
  const operation =
    ev.operation ?? (recorded !== undefined && isOperationId(recorded) ? recorded : undefined) ?? o.operation
  const status = ev.status ?? ev.res?.status
  const owner = ev.owner ?? o.owner ?? ownerOf(operation, ev.product ?? o.product)
  const detail = (e as Error).message.split('\n')[0]
  return new SetupFailure(
    {
      reason: `setup '${what}' failed: ${detail}`,
      ...(operation ? { operation } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(owner ? { owner } : {}),
    },
    ev.res,
  )
}

/**
 * The setup phase of a check: what the check needs before its assertion (a quote, an issued policy, a
 * subscription). When it fails, the check is BLOCKED, naming the operation, the status seen and the check that
 * owns that operation's requirement; it is not a failure of the check's own requirement.
 */
export async function given<T>(what: string, fn: () => Promise<T>, o: GivenOptions = {}): Promise<T> {
  try {
    return await fn()
  } catch (e) {
    throw asSetupFailure(e, what, o) ?? e
  }
}

/**
 * Like given(), for a setup shared by several checks (once()): the promise is made once, and every check that
 * awaits it is blocked by the same SetupFailure.
 */
export function givenOnce<T>(what: string, fn: () => Promise<T>, o: GivenOptions = {}): () => Promise<T> {
  let p: Promise<T> | undefined
  return () => (p ??= given(what, fn, o))
}
