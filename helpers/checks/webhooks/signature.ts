import { createHmac, timingSafeEqual } from 'node:crypto'
import type { SignatureSettings } from './settings'

export type SignatureVerdict =
  | { ok: true }
  | { ok: false; reason: 'no-signature' | 'bad-format' | 'mismatch'; detail: string }
export type TimestampVerdict =
  | { ok: true; skewSeconds: number }
  | { ok: false; reason: 'no-timestamp' | 'bad-timestamp' | 'stale-timestamp'; detail: string }

type Headers = Record<string, string | string[] | undefined>

/** The bytes that are signed, from the profile's template ({timestamp}, {body}). */
export function signedContent(s: SignatureSettings, rawBody: Buffer, timestamp: string | undefined): Buffer {
  const parts = s.signedContent.split('{body}')
  const fill = (text: string) => Buffer.from(text.split('{timestamp}').join(timestamp ?? ''), 'utf8')
  const chunks: Buffer[] = []
  parts.forEach((p, i) => {
    chunks.push(fill(p))
    if (i < parts.length - 1) chunks.push(rawBody)
  })
  return Buffer.concat(chunks)
}

/** The signature header value for a body, as a conforming sender makes it. */
export function sign(s: SignatureSettings, key: string, rawBody: Buffer, timestamp: string | undefined): string {
  const digest = createHmac(s.algorithm, key)
    .update(signedContent(s, rawBody, timestamp))
    .digest(s.encoding)
  return `${s.prefix}${digest}`
}

export function headerValue(headers: Headers, name: string): string | undefined {
  const v = headers[name.toLowerCase()]
  return Array.isArray(v) ? v[0] : v
}

/**
 * The signature header is the HMAC of the signed content (raw body, and the timestamp when the
 * template names it) keyed by the subscription's key. Constant-time compare. Never throws; the
 * detail never carries the key or the expected digest.
 */
export function verifySignature(
  s: SignatureSettings,
  key: string,
  rawBody: Buffer,
  headers: Headers,
): SignatureVerdict {
  const timestamp = s.timestampHeader ? headerValue(headers, s.timestampHeader) : undefined
  const given = headerValue(headers, s.header)
  if (given === undefined) return { ok: false, reason: 'no-signature', detail: `no ${s.header} header` }
  if (!given.startsWith(s.prefix))
    return { ok: false, reason: 'bad-format', detail: `${s.header} does not start with '${s.prefix}'` }
  const expected = Buffer.from(sign(s, key, rawBody, timestamp).slice(s.prefix.length), 'utf8')
  const actual = Buffer.from(given.slice(s.prefix.length).trim(), 'utf8')
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    return {
      ok: false,
      reason: 'mismatch',
      detail: `${s.header} is not the ${s.algorithm} HMAC of '${s.signedContent}' keyed by the subscription's secret`,
    }
  }
  return { ok: true }
}

/**
 * The timestamp header (when the profile names one) is unix seconds within the tolerance of now (replay protection).
 */
export function verifyTimestamp(
  s: SignatureSettings,
  headers: Headers,
  nowSeconds: number = Date.now() / 1000,
): TimestampVerdict {
  if (!s.timestampHeader) return { ok: true, skewSeconds: 0 }
  const timestamp = headerValue(headers, s.timestampHeader)
  if (timestamp === undefined) return { ok: false, reason: 'no-timestamp', detail: `no ${s.timestampHeader} header` }
  if (!/^\d{1,12}$/.test(timestamp.trim()))
    return { ok: false, reason: 'bad-timestamp', detail: `${s.timestampHeader} '${timestamp}' is not unix seconds` }
  const skew = Math.abs(nowSeconds - Number(timestamp))
  if (skew > s.toleranceSeconds) {
    return {
      ok: false,
      reason: 'stale-timestamp',
      detail:
        `${s.timestampHeader} is ${Math.round(skew)} s away from the time of receipt ` +
        `(tolerance ${s.toleranceSeconds} s)`,
    }
  }
  return { ok: true, skewSeconds: skew }
}
