import { createHmac, timingSafeEqual } from 'node:crypto'
import type { SignatureSettings } from './settings'

export type SignatureVerdict =
  | { ok: true }
  | { ok: false; reason: 'no-signature' | 'bad-format' | 'mismatch' | 'no-timestamp' | 'bad-timestamp' | 'stale-timestamp'; detail: string }

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

/** The signature header value for a body, as a conforming sender makes it (used by tests and fakes). */
export function sign(s: SignatureSettings, key: string, rawBody: Buffer, timestamp: string | undefined): string {
  const digest = createHmac(s.algorithm, key).update(signedContent(s, rawBody, timestamp)).digest(s.encoding)
  return `${s.prefix}${digest}`
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name.toLowerCase()]
  return Array.isArray(v) ? v[0] : v
}

/**
 * Verifies one notification: the signature header is an HMAC of the signed content with the
 * subscription's key, and the timestamp (when the profile names a header) is within the tolerance.
 * Never throws; never puts the key or the expected digest in its detail.
 */
export function verifyNotification(
  s: SignatureSettings,
  key: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): SignatureVerdict {
  const timestamp = s.timestampHeader ? header(headers, s.timestampHeader) : undefined
  const given = header(headers, s.header)
  if (given === undefined) return { ok: false, reason: 'no-signature', detail: `no ${s.header} header` }
  if (!given.startsWith(s.prefix)) return { ok: false, reason: 'bad-format', detail: `${s.header} does not start with '${s.prefix}'` }
  const expected = Buffer.from(sign(s, key, rawBody, timestamp).slice(s.prefix.length), 'utf8')
  const actual = Buffer.from(given.slice(s.prefix.length).trim(), 'utf8')
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    return { ok: false, reason: 'mismatch', detail: `${s.header} is not the ${s.algorithm} HMAC of '${s.signedContent}' with the subscription's secret` }
  }
  if (!s.timestampHeader) return { ok: true }
  if (timestamp === undefined) return { ok: false, reason: 'no-timestamp', detail: `no ${s.timestampHeader} header` }
  if (!/^\d{1,12}$/.test(timestamp.trim())) return { ok: false, reason: 'bad-timestamp', detail: `${s.timestampHeader} '${timestamp}' is not unix seconds` }
  const skew = Math.abs(nowSeconds - Number(timestamp))
  if (skew > s.toleranceSeconds) {
    return { ok: false, reason: 'stale-timestamp', detail: `${s.timestampHeader} is ${skew} s away from now (tolerance ${s.toleranceSeconds} s)` }
  }
  return { ok: true }
}
