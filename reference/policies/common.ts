import type { FastifyReply, FastifyRequest } from 'fastify'
import { operation, type OperationId } from '../../common/operations'
import { errorBody, principalOf } from '../context'
import type { Principal } from '../tokens'
import type { PolicyRecord } from '../sales/ledger'
import type { PoliciesStore } from './store'

/** Fastify route syntax of a catalogue template ({id} -> :id). */
function routePath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1')
}

/** The fastify route of a catalogue operation. */
export function routeOf(opId: OperationId): { method: 'GET' | 'POST' | 'PUT'; url: string } {
  const op = operation(opId)
  return { method: op.method as 'GET' | 'POST' | 'PUT', url: routePath(op.path) }
}

export type Params = Record<string, string>

/** 422 with the anchors' validation shape: {message, errors: {field: [messages]}}. */
export function invalid(
  reply: FastifyReply,
  errors: Record<string, string[]>,
  message = 'The given data was invalid.',
) {
  return reply.code(422).send(errorBody(message, { errors }))
}

export function notFound(reply: FastifyReply, what: string) {
  return reply.code(404).send(errorBody(`${what} not found`))
}

/** The policy of the path in the caller's tenant (another tenant's policy is not found). */
export function findPolicy(store: PoliciesStore, req: FastifyRequest): { principal: Principal; policy?: PolicyRecord } {
  const principal = principalOf(req)
  const params = req.params as Params
  const id = params['policyId'] ?? params['id'] ?? ''
  let policy = store.ledger.policy(principal.tenant, id)
  if (!policy && store.ctx.defects.has('policies-not-tenant-scoped')) policy = store.ledger.policies.get(id)
  return { principal, ...(policy ? { policy } : {}) }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

export function isMoney(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && Math.round(v * 100) === Math.round(v * 100 * 1e6) / 1e6
}
