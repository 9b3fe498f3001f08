import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { SeededRandom } from './prng'
import type { ChaosOptions } from './spec'

type Fault = 'none' | '503' | 'reset' | 'garbage'

interface Decision {
  fault: Fault
  slow: boolean
  garbageKind: 'html' | 'truncated'
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'])

/** Routes that get chaos: the services' routes, never /health or the reference's own /__reference control routes. */
function isServiceRoute(url: string): boolean {
  return url.startsWith('/api/')
}

/** The identity service (a separate service on real deployments) gets latency but no faults. */
function isIdentityRoute(url: string): boolean {
  return url.startsWith('/api/v1/identifier')
}

const HTML_ERROR_PAGE =
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>The upstream ' +
  'server sent an invalid response.</p><hr><address>chaos-proxy</address></body></html>\n'

/**
 * Injects faults into one reference instance, reproducibly: one seeded PRNG per instance, one decision per
 * request in arrival order (identity routes get latency only). 503 and reset strike before the request is handled
 * (nothing happened on the
 * server); garbage replaces the body after handling; latency delays handling; slow bodies trickle out.
 */
export class ChaosMonkey {
  private readonly random: SeededRandom
  private readonly decisions = new WeakMap<FastifyRequest, Decision>()
  readonly injected = { latencyMs: 0, '503': 0, reset: 0, slow: 0, garbage: 0 }

  constructor(readonly options: ChaosOptions) {
    this.random = new SeededRandom(options.seed)
  }

  private decide(method: string): Decision {
    const o = this.options
    const r = this.random.next()
    const eligible = o.methods === 'all' || IDEMPOTENT.has(method)
    let fault: Fault = 'none'
    if (eligible) {
      if (r < o.unavailable) fault = '503'
      else if (r < o.unavailable + o.reset) fault = 'reset'
      else if (r < o.unavailable + o.reset + o.garbage) fault = 'garbage'
    }
    const slow = this.random.next() < o.slow
    const kind = this.random.next()
    return { fault, slow, garbageKind: o.garbageKind === 'mixed' ? (kind < 0.5 ? 'html' : 'truncated') : o.garbageKind }
  }

  /** Hooks that must run first: before identity, the auth guard and the areas. */
  registerFront(app: FastifyInstance): void {
    app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
      if (!isServiceRoute(req.url)) return
      const d = this.decide(req.method)
      if (isIdentityRoute(req.url)) d.fault = 'none'
      this.decisions.set(req, d)
      const lat = this.options.latency
      if (lat && lat.maxMs > 0) {
        const ms = this.random.between(lat.minMs, lat.maxMs)
        this.injected.latencyMs += ms
        await new Promise((r) => setTimeout(r, ms))
      }
      if (d.fault === '503') {
        this.injected['503'] += 1
        return reply
          .code(503)
          .header('retry-after', String(this.options.retryAfterSeconds))
          .header('content-type', 'application/json; charset=utf-8')
          .send(JSON.stringify({ message: 'service temporarily unavailable (injected fault)' }))
      }
      if (d.fault === 'reset') {
        this.injected.reset += 1
        reply.hijack()
        req.raw.socket.resetAndDestroy()
        return reply
      }
    })
  }

  /** Hooks that must run last: after every other rewrite of the response. */
  registerBack(app: FastifyInstance): void {
    app.addHook('onSend', async (req, reply, payload) => {
      const d = this.decisions.get(req)
      if (!d || (d.fault !== 'garbage' && !d.slow)) return payload
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload
      // a response without a body (204, 304, empty) has nothing to garble or slow down
      if (payload.length === 0 || reply.statusCode === 204 || reply.statusCode === 304 || req.method === 'HEAD')
        return payload
      let out: string | Buffer = payload
      if (d.fault === 'garbage') {
        this.injected.garbage += 1
        if (d.garbageKind === 'html') {
          reply.header('content-type', 'text/html; charset=utf-8')
          out = HTML_ERROR_PAGE
        } else {
          reply.header('content-type', 'application/json; charset=utf-8')
          const text = out.toString()
          out = text.length > 2 ? text.slice(0, Math.max(1, Math.floor(text.length / 2))) : '{"data": ['
        }
        reply.removeHeader('content-length')
      }
      if (d.slow) {
        this.injected.slow += 1
        const buf = Buffer.from(out)
        reply.header('content-length', String(buf.length))
        const chunks = 4
        const size = Math.ceil(buf.length / chunks) || 1
        const pause = Math.round(this.options.slowMs / chunks)
        return Readable.from(
          (async function* () {
            for (let i = 0; i < buf.length; i += size) {
              await new Promise((r) => setTimeout(r, pause))
              yield buf.subarray(i, i + size)
            }
          })(),
        )
      }
      return out
    })
  }
}
