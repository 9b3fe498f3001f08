import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { escapeUnicode, withExtraFields, withReversedKeys } from './json-rewrite'

const EXTRA_HEADERS: Record<string, string> = {
  'x-request-id': 'req-variation-0001',
  'cache-control': 'no-store',
  vary: 'Accept-Encoding, Accept-Language',
  'server-timing': 'app;dur=1.2',
  'strict-transport-security': 'max-age=63072000',
}

const CHUNK_BYTES = 7

/**
 * Documents whose shape is the product's published JSON schema (which admits no unknown field): the
 * renewal data is the input of the renewal quote, so an unknown field in it would not be benign.
 */
// and the published OpenAPI document (/openapi.json): its objects allow only `x-` members, a service that adds
// fields to its answers still publishes a valid document
const SCHEMA_BOUND = [/^\/api\/v1\/ledger\/policies\/[^/]+\/renewal\/?$/, /^\/openapi\.json$/]

function isJson(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^application\/([\w.+-]+\+)?json\b/i.test(contentType)
}

function* chunks(buf: Buffer): Generator<Buffer> {
  for (let i = 0; i < buf.length; i += CHUNK_BYTES) yield buf.subarray(i, i + CHUNK_BYTES)
}

/**
 * One onSend hook that rewrites every response as the switched-on rewrites say. Reference-only
 * control routes (/__reference/) are left alone: they do not exist on a real target.
 */
export function registerWireRewrites(app: FastifyInstance, rewrites: ReadonlySet<string>): void {
  if (rewrites.size === 0) return
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/__reference/')) return payload
    if (rewrites.has('extra-headers'))
      for (const [k, v] of Object.entries(EXTRA_HEADERS)) if (!reply.hasHeader(k)) reply.header(k, v)
    if (rewrites.has('connection-close')) reply.header('connection', 'close')
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload
    let body: string | Buffer = payload
    const contentType = reply.getHeader('content-type')
    if (isJson(contentType) && body.length > 0) {
      const text = body.toString()
      let parsed: unknown
      let ok = true
      try {
        parsed = JSON.parse(text)
      } catch {
        ok = false
      }
      if (ok) {
        // not inside a JSON Schema document: a member added to its `properties` map changes its meaning (sales area)
        const schemaBound =
          /schema\+json/i.test(String(contentType)) || SCHEMA_BOUND.some((re) => re.test(req.url.split('?')[0] ?? ''))
        if (rewrites.has('extra-fields') && !schemaBound) parsed = withExtraFields(parsed)
        if (rewrites.has('key-order')) parsed = withReversedKeys(parsed)
        let out = rewrites.has('pretty-json') ? `${JSON.stringify(parsed, null, 2)}\n` : JSON.stringify(parsed)
        if (rewrites.has('unicode-escapes')) out = escapeUnicode(out)
        body =
          rewrites.has('extra-fields') ||
          rewrites.has('key-order') ||
          rewrites.has('pretty-json') ||
          rewrites.has('unicode-escapes')
            ? out
            : body
      }
      if (rewrites.has('charset') && /^application\/json\b/i.test(String(contentType)))
        reply.header('content-type', 'application/json;charset=UTF-8')
    }
    if (
      rewrites.has('chunked') &&
      body.length > 0 &&
      reply.statusCode !== 204 &&
      reply.statusCode !== 304 &&
      req.method !== 'HEAD'
    ) {
      reply.removeHeader('content-length')
      return Readable.from(chunks(Buffer.from(body)))
    }
    return body
  })
}
