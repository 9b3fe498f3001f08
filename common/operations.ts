import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { OPERATION_FACTS, type OperationFacts } from './operation-facts'
import { OPERATION_IDS, type BodyOperationId, type OperationId } from './operation-ids'
import { PROJECT_ROOT } from './project-root'

export type { BodyOperationId, OperationId } from './operation-ids'

export interface Operation {
  id: OperationId
  service: 'sales' | 'webhooks'
  method: string
  /** Path template relative to the service's base URL, e.g. /api/webhook/subscription/{id}. */
  path: string
  summary: string
  spec: { document: string; section: string }
  tenantHeader: boolean
  /**
   * Id of the check that owns this operation's requirement (`{product}`: the product of the setup). A check that
   * needs the operation only as setup is blocked, naming this owner, when the call fails (helpers/checks/setup.ts).
   */
  owner?: string
}

interface CompiledOperation extends Operation {
  pattern: RegExp
  literalSegments: number
}

function compile(op: Operation): CompiledOperation {
  const segments = op.path.split('/')
  const source = segments
    .map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/')
  return {
    ...op,
    pattern: new RegExp(`^${source}$`),
    literalSegments: segments.filter((s) => s && !s.startsWith('{')).length,
  }
}

/** The 33 operations of both specs (common/operations.json), read once and frozen. */
export const OPERATIONS: readonly Operation[] = Object.freeze(
  (JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'common/operations.json'), 'utf8')) as { operations: Operation[] })
    .operations,
)
const COMPILED: readonly CompiledOperation[] = Object.freeze(OPERATIONS.map(compile))

const KNOWN: ReadonlySet<string> = new Set(OPERATION_IDS)

/** Whether a string (from a file, an argument, a recorded exchange) is the id of an operation of the catalogue. */
export function isOperationId(id: string): id is OperationId {
  return KNOWN.has(id)
}

/** Whether the operation's method carries a body (POST, PUT, PATCH). */
export function isBodyOperation(id: OperationId): id is BodyOperationId {
  const m = operation(id).method
  return m !== 'GET' && m !== 'DELETE'
}

/** The facts of an operation (common/operation-facts.ts): what it addresses, reads, changes. */
export function factsOf(id: OperationId): OperationFacts {
  return OPERATION_FACTS[id]
}

const BY_ID: ReadonlyMap<string, Operation> = new Map(OPERATIONS.map((o) => [o.id, o]))

export function operation(id: OperationId): Operation {
  const op = BY_ID.get(id)
  if (!op) throw new Error(`unknown operation id '${id}' (see common/operations.json)`)
  return op
}

/** Fills {param} placeholders; every value is URI-encoded. Throws on a missing parameter. */
export function fillPath(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params[name]
    if (v === undefined) throw new Error(`path ${template}: missing parameter '${name}'`)
    return encodeURIComponent(String(v))
  })
}

/**
 * Which spec operation a concrete request is, measured from its method and path
 * (the most specific template wins: /sales/policies/actions/{id} over /sales/policies/{policyId}).
 */
export function matchOperation(method: string, pathname: string): Operation | undefined {
  const m = method.toUpperCase()
  let best: CompiledOperation | undefined
  for (const op of COMPILED) {
    if (op.method !== m || !op.pattern.test(pathname)) continue
    if (!best || op.literalSegments > best.literalSegments) best = op
  }
  return best
}
