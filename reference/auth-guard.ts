import type { FastifyInstance, FastifyRequest } from 'fastify'
import { errorBody, type ReferenceContext } from './context'

export const SALES_PREFIX = '/api/v1/ledger'
export const WEBHOOK_PREFIX = '/api/webhook'
export const TENANT_HEADER = 'x-tenant-id'

/**
 * Bearer authentication on every sales and webhook route (401 for a missing, malformed,
 * expired or foreign token), then the tenant header on sales routes (400 missing, 403 other tenant).
 */
export function registerAuthGuard(app: FastifyInstance, ctx: ReferenceContext): void {
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0] ?? ''
    const sales = path === SALES_PREFIX || path.startsWith(`${SALES_PREFIX}/`)
    const webhooks = path === WEBHOOK_PREFIX || path.startsWith(`${WEBHOOK_PREFIX}/`)
    if (!sales && !webhooks) return
    const header = req.headers.authorization
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null
    const skip =
      (sales && ctx.defects.has('auth-token-not-required')) ||
      (webhooks && ctx.defects.has('auth-webhook-token-not-required'))
    if (!match) {
      if (skip) {
        req.principal = anonymous(req)
        return
      }
      return reply.code(401).header('www-authenticate', 'Bearer').send(errorBody('a bearer token is required'))
    }
    // defect exercise-expired-accepted-on-payments: the broker payment routes check the signature, not exp
    const payments =
      sales &&
      path.startsWith(`${SALES_PREFIX}/brokerpayments`) &&
      ctx.defects.has('exercise-expired-accepted-on-payments')
    const verified = await ctx.tokens.verify(match[1]!, payments ? 10 * 365 * 24 * 3600 : expiryLeeway(ctx, sales))
    if (!verified.ok && match[1]!.split('.').length !== 3 && ctx.defects.has('auth-malformed-token-accepted')) {
      req.principal = anonymous(req)
      return
    }
    if (webhooks && verified.ok && ctx.defects.has('auth-webhooks-login-token-refused')) {
      return reply
        .code(401)
        .header('www-authenticate', `Bearer error="invalid_token"`)
        .send(errorBody('invalid token (audience)'))
    }
    if (!verified.ok) {
      return reply
        .code(401)
        .header('www-authenticate', `Bearer error="invalid_token"`)
        .send(errorBody(`invalid token (${verified.reason})`))
    }
    req.principal = verified.principal
    if (sales) {
      const tenant = req.headers[TENANT_HEADER]
      if ((typeof tenant !== 'string' || tenant === '') && ctx.defects.has('auth-tenant-header-optional')) return
      if (typeof tenant !== 'string' || tenant === '')
        return reply.code(400).send(errorBody('the X-TENANT-ID header is required'))
      if (tenant !== verified.principal.tenant) {
        if (ctx.defects.has('auth-tenant-header-trusted')) req.principal = { ...verified.principal, tenant }
        else return reply.code(403).send(errorBody('the token does not belong to this tenant'))
      }
    }
  })
}

/** Who a request is served as when a defect lets it in without a usable token: anyone, in the tenant it names. */
function anonymous(req: FastifyRequest): NonNullable<FastifyRequest['principal']> {
  return {
    tenant: String(req.headers[TENANT_HEADER] ?? 'acme'),
    username: 'anonymous',
    rights: ['schemes:full', 'sales:write', 'webhooks:write'],
  }
}

/** A service's clock tolerance for exp: the option (expiry-leeway variation), or a one-service expiry defect. */
function expiryLeeway(ctx: ReferenceContext, sales: boolean): number {
  if (sales && ctx.defects.has('auth-sales-expired-token-accepted')) return 10 * 365 * 24 * 3600
  if (!sales && ctx.defects.has('auth-webhooks-expiry-leeway-hour')) return 3600
  return ctx.options.expiryLeewaySeconds ?? 0
}
