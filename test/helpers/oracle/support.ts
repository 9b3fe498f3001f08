import type { HttpResult } from '../../../helpers/client/http/types'

/** A canned answer for the model's tests (no network). */
export function answer(
  status: number,
  body: unknown,
  url = 'http://target.test/x',
  headers: Record<string, string> = {},
): HttpResult {
  const text = body === undefined ? '' : JSON.stringify(body)
  return {
    status,
    headers,
    body,
    raw: Buffer.from(text),
    text,
    contentType: 'application/json',
    durationMs: 1,
    request: { method: 'GET', url, headers: {} },
  }
}
