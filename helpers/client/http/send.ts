import { matchOperation } from '../../../common/operations'
import { jsonDepthBeyond } from '../data/json-depth'
import { BreakerOpen, DEFAULT_BREAKER, runBreakers } from './breaker'
import type { Dispatchers } from './dispatchers'
import { currentInFlight } from './in-flight'
import { limitsOf, MAX_HEADER_BYTES } from './limits'
import { ResponseTooLarge, TransportError, type HttpRequest, type HttpResult, type SentRequest } from './types'

const JSON_TYPE = /\bjson\b/i
const TEXT_TYPE = /^(text\/|application\/(xml|x-www-form-urlencoded|problem\+json|javascript))/i

/**
 * Sends one request and returns what came back. Never throws on an HTTP status; throws TransportError only when no
 * usable HTTP response arrived. Never retries. Bounded: the whole exchange (connection, 1xx, headers, body) ends
 * within its deadline, and the body is read as it streams and refused past the size cap
 * (helpers/client/http/limits.ts).
 * A request of a unit of work with a deadline (a check, the preflight) is named by its timeout and aborted by it.
 */
export async function send(dispatchers: Dispatchers, req: HttpRequest): Promise<HttpResult> {
  const headers: Record<string, string> = { ...(req.headers ?? {}) }
  let body: string | Buffer | undefined = req.body
  if (body === undefined && req.json !== undefined) {
    body = JSON.stringify(req.json)
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json'
  }
  const sent: SentRequest = {
    method: req.method,
    url: req.url,
    headers,
    ...(body !== undefined ? { body: Buffer.isBuffer(body) ? `<${body.length} bytes>` : body } : {}),
  }
  const limits = limitsOf(dispatchers.timeouts)
  const u = new URL(req.url)
  const label = requestLabel(req.method, req.url)
  const tracker = currentInFlight()
  const deadlineMs = Math.max(
    1,
    Math.min(
      req.deadlineMs ?? limits.exchangeDeadlineMs,
      limits.exchangeDeadlineMs,
      tracker ? tracker.requestBudgetMs() : Number.POSITIVE_INFINITY,
    ),
  )
  const breaker = breakerOf(dispatchers, u.origin)
  const open = breaker?.openCause()
  if (open) throw new BreakerOpen(u.origin, open)
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new ExchangeDeadline(deadlineMs)), deadlineMs)
  const stop = () => controller.abort(tracker?.signal.reason ?? { message: 'aborted' })
  tracker?.signal.addEventListener('abort', stop, { once: true })
  const entry = tracker?.start(label)
  const started = performance.now()
  try {
    if (tracker?.signal.aborted) throw tracker.signal.reason
    const res = await dispatchers.for(req.url).request({
      method: req.method,
      path: `${u.pathname}${u.search}`,
      headers,
      signal: controller.signal,
      ...(body !== undefined ? { body } : {}),
      ...(req.headersTimeoutMs !== undefined ? { headersTimeout: req.headersTimeoutMs } : {}),
      ...(req.bodyTimeoutMs !== undefined ? { bodyTimeout: req.bodyTimeoutMs } : {}),
    })
    const raw = await readCapped(res.body, res.headers['content-length'], limits.maxResponseBytes, () => {
      throw new ResponseTooLarge(sent, label, limits.maxResponseBytes, performance.now() - started)
    })
    const durationMs = performance.now() - started
    breaker?.answered()
    const outHeaders: Record<string, string> = {}
    for (const [k, v] of Object.entries(res.headers)) {
      if (v !== undefined) outHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
    }
    const contentType = outHeaders['content-type'] ?? ''
    // an answer over its budget is judged by its size alone: parsing 15 MB would hold the worker (and the webhook
    // receiver on its thread) for as long as it takes
    const parsed =
      req.answerBudgetBytes !== undefined && raw.length > req.answerBudgetBytes
        ? { body: undefined, text: '', contentType, overBudget: raw.length }
        : parseBody(raw, contentType, limits.maxJsonDepth)
    return { ...parsed, status: res.statusCode, headers: outHeaders, raw, durationMs, request: sent }
  } catch (e) {
    if (e instanceof ResponseTooLarge) breaker?.answered()
    if (e instanceof TransportError) throw e
    if (tracker?.signal.aborted) {
      throw new TransportError(
        sent,
        'LC_ABORTED',
        (tracker.signal.reason as { message?: string } | undefined)?.message ?? 'aborted',
        performance.now() - started,
      )
    }
    const reason = controller.signal.aborted ? (controller.signal.reason as unknown) : undefined
    if (reason instanceof ExchangeDeadline) {
      breaker?.expired(label)
      throw new TransportError(
        sent,
        'LC_EXCHANGE_DEADLINE',
        `no complete response within the exchange deadline of ${reason.ms} ms (headers and body, 1xx included; ` +
          `profile http.exchangeDeadlineMs)`,
        performance.now() - started,
      )
    }
    const err = e as Error & { code?: string; cause?: { code?: string; message?: string } }
    const code = err.code ?? err.cause?.code ?? err.name
    if (NO_ANSWER.has(code)) breaker?.expired(label)
    // an answer no client can read is one finding naming the request: the checks after it are blocked by it
    if (code === 'UND_ERR_HEADERS_OVERFLOW') breaker?.unreadable(label, describeTransport(code, err))
    throw new TransportError(sent, code, describeTransport(code, err), performance.now() - started)
  } finally {
    clearTimeout(timer)
    tracker?.signal.removeEventListener('abort', stop)
    if (entry) tracker?.end(entry)
  }
}

/** Transport faults that mean the target did not answer in time (a refused connection is an answer of a kind). */
const NO_ANSWER = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

/**
 * The run-wide breaker of an origin when the dispatchers were configured from a profile
 * (helpers/client/http/breaker.ts).
 */
function breakerOf(
  dispatchers: Dispatchers,
  origin: string,
):
  | {
      openCause(): string | undefined
      answered(): void
      expired(label: string): void
      unreadable(label: string, why: string): void
    }
  | undefined {
  const t = dispatchers.timeouts
  if (t.breakerExpiries === undefined) return undefined
  const settings = { expiries: t.breakerExpiries, silenceMs: t.breakerSilenceMs ?? DEFAULT_BREAKER.silenceMs }
  const b = runBreakers()
  return {
    openCause: () => b.openCause(origin),
    answered: () => b.answered(origin),
    expired: (label) => b.expired(origin, label, settings),
    unreadable: (label, why) => b.unreadable(origin, label, why),
  }
}

/** "GET http://host/path (sales.quote.get)": how a limit or a timeout names a request. */
export function requestLabel(method: string, url: string): string {
  let op: string | undefined
  try {
    op = matchOperation(method, new URL(url).pathname)?.id
  } catch {
    op = undefined
  }
  return `${method} ${url}${op ? ` (${op})` : ''}`
}

/**
 * The reason an exchange is aborted at its deadline. Not an Error on purpose: undici destroys the body stream with
 * the reason, and Node then reads its stack, which under vite's module runner (global setup) can throw from inside
 * an abort listener and crash the process.
 */
class ExchangeDeadline {
  constructor(readonly ms: number) {}
}

/** The body as it streams in, refused (the connection dropped) as soon as it passes the cap. */
async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(e?: Error): unknown },
  contentLength: string | string[] | undefined,
  cap: number,
  tooLarge: () => never,
): Promise<Buffer> {
  const declared = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength)
  if (Number.isFinite(declared) && declared > cap) {
    body.destroy()
    tooLarge()
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > cap) {
      body.destroy()
      tooLarge()
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, size)
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
    case 'UND_ERR_ABORTED':
    case 'AbortError':
      return 'the request was aborted'
    case 'ENOTFOUND':
      return 'host name not found'
    case 'UND_ERR_HEADERS_OVERFLOW':
      return `its header section is over ${MAX_HEADER_BYTES} bytes, more than curl or a browser reads`
    default:
      return err.cause?.message ?? err.message
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true })

function parseBody(
  raw: Buffer,
  contentType: string,
  maxDepth: number,
): Pick<HttpResult, 'body' | 'text' | 'contentType' | 'parseError'> {
  const text = raw.toString('utf8')
  if (raw.length === 0) return { body: undefined, text, contentType }
  const claimsJson = JSON_TYPE.test(contentType)
  const looksJson = !contentType && /^\s*[[{]/.test(text)
  if (claimsJson || looksJson) {
    const garbage = (why: string) => ({
      body: undefined,
      text,
      contentType,
      parseError:
        `target returned non-JSON / truncated body (content-type ${contentType}, ${raw.length} ` + `bytes): ${why}`,
    })
    // RFC 8259 §8.1: JSON text is UTF-8; a body that is not is garbage, not text with replacement characters
    try {
      UTF8.decode(raw)
    } catch {
      if (!claimsJson) return { body: text, text, contentType }
      return garbage('invalid UTF-8 (RFC 8259 §8.1)')
    }
    const depth = jsonDepthBeyond(text, maxDepth)
    if (depth !== undefined) {
      if (!claimsJson) return { body: text, text, contentType }
      return garbage(`nested deeper than ${maxDepth} levels (profile http.maxJsonDepth)`)
    }
    try {
      return { body: JSON.parse(text), text, contentType }
    } catch (e) {
      if (!claimsJson) return { body: text, text, contentType }
      return garbage((e as Error).message)
    }
  }
  if (TEXT_TYPE.test(contentType) || !contentType) return { body: text, text, contentType }
  return { body: undefined, text, contentType }
}
