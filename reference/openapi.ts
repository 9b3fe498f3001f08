import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import { matchOperation } from '../common/operations'
import type { ReferenceContext } from './context'
import { DEMO_TENANTS } from './demo-data'
import type { IdStyle } from './ids'

/** Where the reference publishes its own OpenAPI document (docs/contracts.md "The reference's own document"). */
export const OPENAPI_PATH = '/openapi.json'

type Schema = Record<string, unknown>

/** The schema of one id path parameter in this instance's id style (path parameters are strings, sales §4). */
function idSchema(family: 'sales' | 'requests' | 'webhooks', style: IdStyle): Schema {
  if (family === 'requests') return { type: 'string', format: 'uuid' }
  if (family === 'webhooks')
    return style === 'numeric' ? { type: 'string', pattern: '^[0-9]+$' } : { type: 'string', format: 'uuid' }
  return style === 'uuid' ? { type: 'string', format: 'uuid' } : { type: 'string', pattern: '^[1-9][0-9]*$' }
}

/** The path parameters of a route URL (:name), typed by family, unless the route declares its own. */
function paramsOf(url: string, service: 'sales' | 'webhooks', style: IdStyle): Schema | undefined {
  const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!)
  if (names.length === 0) return undefined
  const properties: Schema = {}
  for (const n of names) {
    if (n === 'type' || n === 'name') properties[n] = { type: 'string', minLength: 1 }
    else properties[n] = idSchema(service === 'webhooks' ? 'webhooks' : n === 'requestId' ? 'requests' : 'sales', style)
  }
  return { type: 'object', required: names, properties }
}

const FLAG = { type: 'string', enum: ['true', 'false', '1', '0'] }

/** The query parameters each operation reads (none is required: the reference answers without them). */
function queryOf(opId: string): Schema | undefined {
  if (opId === 'sales.quote.get' || opId === 'sales.quote.calculate')
    return { type: 'object', properties: { withNotifications: FLAG } }
  if (opId === 'sales.quote.actions' || opId === 'sales.requests.get')
    return { type: 'object', properties: { longPolling: FLAG } }
  if (opId === 'sales.policy.links') return { type: 'object', properties: { forceCoverageDateFormat: FLAG } }
  // pages of the subscription list (issue 40): ?page=N&pageSize=M, N from 1; without them every entry in one answer
  if (opId === 'webhooks.subscriptions.list')
    return {
      type: 'object',
      properties: { page: { type: 'string', pattern: '^[0-9]+$' }, pageSize: { type: 'string', pattern: '^[0-9]+$' } },
    }
  if (opId === 'sales.customers.custom-view') {
    // the union of the demo tenants' customer_identity features (reference/demo-data.ts)
    const names = [...new Set(DEMO_TENANTS.flatMap((t) => t.features.customer_identity))]
    return { type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])) }
  }
  return undefined
}

const ANY_ANSWER = 'Any answer: statuses and bodies as the specs say (sales-service.md, webhook-subscriptions.md).'

/**
 * @fastify/swagger gives a response without a schema the media type application/json; the reference's "any answer"
 * declares no media type (a document answers application/pdf, a refusal may be text), so a validator reading the
 * document (docs/contracts.md: the response Content-Type is judged) is not told a media type the routes never promised.
 */
function withoutDefaultMediaTypes(doc: Schema): Schema {
  const copy = structuredClone(doc) as {
    paths?: Record<string, Record<string, { responses?: Record<string, { description?: string; content?: unknown }> }>>
  }
  for (const item of Object.values(copy.paths ?? {})) {
    for (const op of Object.values(item)) {
      const any = op?.responses?.default
      if (any && any.description === ANY_ANSWER) delete any.content
    }
  }
  return copy as Schema
}

/**
 * Registers @fastify/swagger (dynamic mode, OpenAPI 3.1) before any route, and GET /openapi.json. The document
 * is generated from the routes the reference serves: each spec operation (common/operations) with its
 * operation id, its path parameters (the route's params schema, or one derived from its URL in this instance's
 * id style), its tenant header and the bearer scheme; everything else (identity, health, test hooks) is hidden.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  ctx: ReferenceContext,
  tenantHeader = 'X-TENANT-ID',
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ledger-conformance reference service',
        version: '1.0',
        description: `The embedded reference of the sales and webhook specs; ids in the ${ctx.options.idStyle} style.`,
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: ({ schema, url, route }) => {
      const method = (Array.isArray(route.method) ? route.method[0] : route.method) as string
      const op = matchOperation(method, url.replace(/:([A-Za-z0-9_]+)/g, '{$1}'))
      const own = (schema ?? {}) as Schema
      if (!op) return { schema: { ...own, hide: true }, url }
      const params = own['params'] ?? paramsOf(url, op.service, ctx.options.idStyle)
      const querystring = own['querystring'] ?? queryOf(op.id)
      const headers =
        own['headers'] ??
        (op.tenantHeader
          ? {
              type: 'object',
              required: [tenantHeader],
              properties: { [tenantHeader]: { type: 'string', minLength: 1 } },
            }
          : undefined)
      return {
        schema: {
          ...own,
          operationId: op.id,
          summary: op.summary,
          tags: [op.service],
          security: [{ bearer: [] }],
          ...(params ? { params } : {}),
          ...(headers ? { headers } : {}),
          ...(querystring ? { querystring } : {}),
          // statuses and bodies are the spec's (and the suite's contracts'); the routes declare none
          response: own['response'] ?? { default: { description: ANY_ANSWER } },
        },
        url,
      }
    },
  })
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () =>
    withoutDefaultMediaTypes(app.swagger() as unknown as Schema),
  )
}
