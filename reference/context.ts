import type { FastifyInstance } from 'fastify'
import type { DefectSet } from './defects/catalogue'
import type { IdFactory } from './ids'
import type { Principal, TokenService } from './tokens'
import type { ReferenceOptions } from './options'

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller (set by the auth guard on service routes). */
    principal?: Principal
  }
}

/** What every area of the reference service gets: options, defects and the token service. */
export interface ReferenceContext {
  options: ReferenceOptions
  defects: DefectSet
  tokens: TokenService
  /** Every id the service hands out (quotes, policies, requests, subscriptions, ...). */
  ids: IdFactory
  /** Functions run when the service closes (timers, outgoing deliveries). */
  onClose: Array<() => void | Promise<void>>
}

/** An area (webhooks, sales, policies, ...) registers its routes and its own in-memory store. */
export type AreaPlugin = (app: FastifyInstance, ctx: ReferenceContext) => void | Promise<void>

/** The principal of an authenticated request; throws when the guard did not run. */
export function principalOf(req: { principal?: Principal }): Principal {
  if (!req.principal) throw new Error('no principal: route is not behind the auth guard')
  return req.principal
}

/** A JSON error body as the reference service answers it. */
export function errorBody(message: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { message, ...extra }
}
