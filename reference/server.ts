import Fastify, { type FastifyInstance } from 'fastify'
import { OPERATIONS } from '../common/operations'
import { AREAS } from './areas'
import { registerAuthGuard } from './auth-guard'
import { ChaosMonkey } from './chaos/monkey'
import { TrafficStats } from './chaos/stats'
import { errorBody, type ReferenceContext } from './context'
import { IdFactory } from './ids'
import { registerOpenApi } from './openapi'
import { registerIdentity } from './identity/routes'
import { TokenService } from './tokens'
import { referenceOptions, type ReferenceOptions } from './options'
import { registerVariations } from './variations/register'
import { registerOracleDefects } from './oracle-answers'

export interface RunningReference {
  /** Origin, e.g. http://127.0.0.1:4010. */
  url: string
  port: number
  app: FastifyInstance
  context: ReferenceContext
  close(): Promise<void>
}

/** Fastify route syntax for a catalogue template: {id} -> :id. */
export function routePath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1')
}

/** Builds the reference service (identity, sales and webhooks on one origin). Not listening yet. */
export async function createReferenceApp(
  options: ReferenceOptions,
): Promise<{ app: FastifyInstance; context: ReferenceContext }> {
  const app = Fastify({ logger: options.logRequests ? { level: 'info' } : false, bodyLimit: 1_048_576 })
  const context: ReferenceContext = {
    options,
    defects: options.defects,
    tokens: await TokenService.create(options.defects),
    ids: new IdFactory(options.idStyle),
    onClose: [],
  }
  app.addHook('onClose', async () => {
    for (const fn of context.onClose) await fn()
  })
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500
    if (status === 500) app.log.error(err)
    return reply
      .code(status)
      .send(errorBody(status === 500 ? 'internal server error' : err.message, err.code ? { code: err.code } : {}))
  })
  const monkey = options.chaos ? new ChaosMonkey(options.chaos) : undefined
  new TrafficStats(monkey).register(app)
  monkey?.registerFront(app)
  registerVariations(app, context)
  registerOracleDefects(app, context)
  await registerOpenApi(app, context)
  app.get('/health', async () => ({ status: 'ok', defects: options.defects.list() }))
  registerIdentity(app, context)
  registerAuthGuard(app, context)
  for (const area of AREAS) await area(app, context)
  for (const op of OPERATIONS) {
    const url = routePath(op.path)
    if (!app.hasRoute({ method: op.method as 'GET', url })) {
      app.route({
        method: op.method as 'GET',
        url,
        handler: async (_req, reply) =>
          reply.code(501).send(errorBody(`${op.id} is not implemented by the reference service`)),
      })
    }
  }
  monkey?.registerBack(app)
  return { app, context }
}

/** Starts the reference service on host:port (port 0 = a free port). */
export async function startReference(partial: Parameters<typeof referenceOptions>[0] = {}): Promise<RunningReference> {
  const options = referenceOptions(partial)
  const { app, context } = await createReferenceApp(options)
  await app.listen({ host: options.host, port: options.port })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : options.port
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  return { url: `http://${host}:${port}`, port, app, context, close: () => app.close() }
}
