const SECRET_KEY = /(pass(word)?|secret|token|authorization|api[-_]?key|credential|cookie|signature)/i
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'])
export const REDACTED = '[REDACTED]'

/**
 * Masks secrets in anything that may reach a log, a report or a failure message:
 * values registered at run time (passwords, issued tokens, webhook secrets), any JWT,
 * secret-looking JSON keys and credential headers. One instance per run context.
 */
export class Redactor {
  private readonly secrets = new Set<string>()

  /** Registers a value that must never be printed (ignored when shorter than 4 characters). */
  addSecret(value: unknown): void {
    if (typeof value === 'string' && value.length >= 4) this.secrets.add(value)
  }

  text(input: string): string {
    let out = input.replace(JWT, '[REDACTED-JWT]')
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join(REDACTED)
    return out
  }

  headers(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(headers)) {
      if (v === undefined) continue
      const value = Array.isArray(v) ? v.join(', ') : v
      out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? maskHeader(value) : this.text(value)
    }
    return out
  }

  /** Deep copy with secret keys masked and secret values removed from strings. */
  json(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value)
    if (Array.isArray(value)) return value.map((v) => this.json(v))
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(value)) {
        out[k] = SECRET_KEY.test(k) && v !== null && typeof v !== 'boolean' && typeof v !== 'number' ? REDACTED : this.json(v)
      }
      return out
    }
    return value
  }
}

function maskHeader(value: string): string {
  const scheme = /^(\w+)\s+/.exec(value)
  return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED
}
