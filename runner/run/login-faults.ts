import { escapePointerToken } from '../../helpers/client/data/json-pointer'
import type { HttpResult } from '../../helpers/client/http/types'
import { safeText } from '../../helpers/client/evidence/redact'

/**
 * Whose fault a login answer without a usable token is (docs/targets.md "Whose fault a stop is"):
 * - `violation`: the target's. A 2xx whose JSON has no access_token field anywhere (sales-service.md §5.2: "returns an
 *   access_token field"), or a JSON body labelled with a type that is not JSON (its fields are not fields of a JSON
 *   document to any client). DOES NOT CONFORM, naming AUTH-LOGIN-001.
 * - `configuration`: the user's. The token is there, at another place than the profile's auth.tokenPointer.
 * - undefined: not a login answer at all (an HTML page, a redirect, an empty body): left to the caller's hints.
 * Only key names and pointers are ever printed, never a value (a value may be the token).
 */
export function missingTokenFault(
  res: HttpResult,
): { kind: 'violation' | 'configuration'; reason: string } | undefined {
  if (res.status < 200 || res.status >= 300) return undefined
  const type = res.contentType || String(res.headers?.['content-type'] ?? '')
  let body = res.body
  let mislabelled = false
  if ((body === undefined || typeof body === 'string') && !/\bjson\b/i.test(type) && /^\s*\{/.test(res.text)) {
    try {
      body = JSON.parse(res.text)
      mislabelled = true
    } catch {
      return undefined
    }
  }
  if (body === null || typeof body !== 'object') return undefined
  const found = pointersOf(body, 'access_token')
  if (mislabelled) {
    return {
      kind: 'violation',
      reason:
        `answered ${res.status} with a JSON body labelled Content-Type '${safeText(type || '(none)')}', not a ` +
        `JSON type: its access_token is not a field of a JSON document to any client`,
    }
  }
  if (found.length > 0)
    return {
      kind: 'configuration',
      reason: `the token is at ${found
        .slice(0, 3)
        .map((p) => safeText(p))
        .join(', ')}: set auth.tokenPointer (profile) to it`,
    }
  const keys = keysOf(body).slice(0, 12)
  return {
    kind: 'violation',
    reason:
      `answered ${res.status} with no access_token field anywhere in its JSON ` +
      `(keys: ${keys.map((k) => safeText(k)).join(', ') || 'none'})`,
  }
}

/** JSON pointers of every member named `name`, at any depth (objects and arrays, at most 6 levels). */
export function pointersOf(doc: unknown, name: string, at = '', depth = 0): string[] {
  if (doc === null || typeof doc !== 'object' || depth > 6) return []
  const out: string[] = []
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    const p = `${at}/${escapePointerToken(k)}`
    if (k === name) out.push(p)
    out.push(...pointersOf(v, name, p, depth + 1))
  }
  return out
}

/** Member names of a JSON document as pointers (no values), for a message that says what the answer held. */
function keysOf(doc: unknown, at = '', depth = 0): string[] {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || depth > 3) return []
  return Object.entries(doc as Record<string, unknown>).flatMap(([k, v]) => [
    `${at}/${k}`,
    ...keysOf(v, `${at}/${k}`, depth + 1),
  ])
}

/** 503 or 429: the service says it is unavailable (or throttling); with its Retry-After when it gave one. */
export function saysUnavailable(res: Pick<HttpResult, 'status' | 'headers'>): string | undefined {
  if (res.status !== 503 && res.status !== 429) return undefined
  const after = res.headers?.['retry-after']
  return `${res.status}${after ? ` with Retry-After: ${safeText(String(after)).slice(0, 40)}` : ''}`
}
