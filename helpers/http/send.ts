import type { Dispatchers } from './dispatchers'
import { TransportError, type HttpRequest, type HttpResult, type SentRequest } from './types'

const JSON_TYPE = /\bjson\b/i
const TEXT_TYPE = /^(text\/|application\/(xml|x-www-form-urlencoded|problem\+json|javascript))/i

/**
 * Sends one request and returns what came back. Never throws on an HTTP status;
 * throws TransportError only when no HTTP response arrived. Never retries.
 */
export async function send(dispatchers: Dispatchers, req: HttpRequest): Promise<HttpResult> {
  const headers: Record<string, string> = { ...(req.headers ?? {}) }
  let body: string | Buffer | undefined = req.body
  if (body === undefined && req.json !== undefined) {
    body = JSON.stringify(req.json)
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json'
  }
  const sent: SentRequest = {
    method: req.method,
    url: req.url,
    headers,
    ...(body !== undefined ? { body: Buffer.isBuffer(body) ? `<${body.length} bytes>` : body } : {}),
  }
  const u = new URL(req.url)
  const started = performance.now()
  try {
    const res = await dispatchers.for(req.url).request({
      method: req.method,
      path: `${u.pathname}${u.search}`,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(req.headersTimeoutMs !== undefined ? { headersTimeout: req.headersTimeoutMs } : {}),
      ...(req.bodyTimeoutMs !== undefined ? { bodyTimeout: req.bodyTimeoutMs } : {}),
    })
    const raw = Buffer.from(await res.body.arrayBuffer())
    const durationMs = performance.now() - started
    const outHeaders: Record<string, string> = {}
    for (const [k, v] of Object.entries(res.headers)) {
      if (v !== undefined) outHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
    }
    return { ...parseBody(raw, outHeaders['content-type'] ?? ''), status: res.statusCode, headers: outHeaders, raw, durationMs, request: sent }
  } catch (e) {
    const err = e as Error & { code?: string; cause?: { code?: string; message?: string } }
    const code = err.code ?? err.cause?.code ?? err.name
    throw new TransportError(sent, code, describeTransport(code, err), performance.now() - started)
  }
}

function describeTransport(code: string, err: Error & { cause?: { message?: string } }): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused: nothing listens at that address'
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connect timeout'
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'no response headers within the headers timeout'
    case 'UND_ERR_BODY_TIMEOUT':
      return 'the response body stalled past the body timeout'
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was reset'
    case 'ENOTFOUND':
      return 'host name not found'
    default:
      return err.cause?.message ?? err.message
  }
}

function parseBody(raw: Buffer, contentType: string): Pick<HttpResult, 'body' | 'text' | 'contentType' | 'parseError'> {
  const text = raw.toString('utf8')
  if (raw.length === 0) return { body: undefined, text, contentType }
  const claimsJson = JSON_TYPE.test(contentType)
  const looksJson = !contentType && /^\s*[[{]/.test(text)
  if (claimsJson || looksJson) {
    try {
      return { body: JSON.parse(text), text, contentType }
    } catch (e) {
      if (!claimsJson) return { body: text, text, contentType }
      return {
        body: undefined,
        text,
        contentType,
        parseError: `target returned non-JSON / truncated body (content-type ${contentType}, ${raw.length} bytes): ${(e as Error).message}`,
      }
    }
  }
  if (TEXT_TYPE.test(contentType) || !contentType) return { body: text, text, contentType }
  return { body: undefined, text, contentType }
}
