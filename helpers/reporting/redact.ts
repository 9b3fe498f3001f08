import { BroadcastChannel } from 'node:worker_threads'

const SECRET_KEY = /(pass(word)?|secret|token|authorization|api[-_]?key|credential|cookie|signature)/i
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'])
export const REDACTED = '[REDACTED]'
/** Deeper than this, a value is not walked (a hostile body must not exhaust the stack). */
export const MAX_REDACT_DEPTH = 256
/** The channel on which worker threads announce the secrets they learn to the main thread's reporters. */
export const SECRETS_CHANNEL = 'ledger-conformance:secrets'
/** Shortest value taken as a secret (shorter ones would mask ordinary text). */
const MIN_SECRET = 4
/** Shortest encoded fragment taken (base64 of a secret at an offset; a JWT part). */
const MIN_FRAGMENT = 8

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * The base64 fragments of a secret wherever it sits in a longer encoded text: for each of the 3 alignments, the
 * characters that depend on the secret's bytes only (the first and last partial groups depend on its neighbours).
 */
function base64Fragments(secret: Buffer): string[] {
  const whole = secret.toString('base64')
  const out = [whole, whole.replace(/=+$/, '')]
  for (let k = 0; k < 3; k += 1) {
    const b64 = Buffer.concat([Buffer.alloc(k), secret]).toString('base64')
    const fragment = b64.slice(k === 0 ? 0 : 4, Math.floor((k + secret.length) / 3) * 4)
    if (fragment.length >= MIN_FRAGMENT) out.push(fragment)
  }
  return out.flatMap((f) => [f, f.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')])
}

/** The spellings of a secret as it may come back from a target or reach a report. */
export function secretVariants(secret: string): string[] {
  const variants = new Set<string>([secret])
  variants.add(JSON.stringify(secret).slice(1, -1))
  variants.add(JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1))
  variants.add(encodeURIComponent(secret))
  variants.add(encodeURIComponent(secret).replace(/%20/g, '+'))
  variants.add(encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()))
  variants.add(secret.replace(/[&<>"']/g, (c) => HTML[c] ?? c))
  variants.add(secret.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`))
  variants.add(secret.replace(/[&<>"']/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`))
  for (const f of base64Fragments(Buffer.from(secret, 'utf8'))) variants.add(f)
  // a JWT: each of its parts on its own too (a target may echo the payload or the signature alone)
  const parts = secret.split('.')
  if (parts.length === 3) for (const p of parts) if (p.length >= MIN_FRAGMENT) variants.add(p)
  return [...variants].filter((v) => v.length >= MIN_SECRET)
}

/** Sets a key on a plain object without touching its prototype (a key may be `__proto__`). */
function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true })
}

/**
 * Masks secrets in anything that may reach a log, a report or a failure message: values registered at run time
 * (passwords, issued tokens, webhook secrets) in their common encodings (JSON-escaped, URL-encoded, HTML-escaped,
 * base64/base64url, each part of a JWT), any JWT, secret-looking JSON keys and credential headers.
 * The run has one (runRedactor()).
 */
export class Redactor {
  private readonly secrets = new Set<string>()
  private pattern: RegExp | undefined
  /** The spellings the pattern matches, longest first: a text holding none of them is left as it is. */
  private spellings: string[] = []

  /** Registers a value that must never be printed (ignored when shorter than 4 characters). */
  addSecret(value: unknown): void {
    this.learn(value)
  }

  /** Registers a secret without announcing it; true when it was new. */
  learn(value: unknown): value is string {
    if (typeof value !== 'string' || value.length < MIN_SECRET || this.secrets.has(value)) return false
    this.secrets.add(value)
    this.pattern = undefined
    return true
  }

  /** How many secrets are known (tests). */
  get size(): number {
    return this.secrets.size
  }

  private matcher(): RegExp | undefined {
    if (this.secrets.size === 0) return undefined
    if (!this.pattern) {
      const all = new Set<string>()
      for (const s of this.secrets) for (const v of secretVariants(s)) all.add(v)
      this.spellings = [...all].sort((a, b) => b.length - a.length)
      this.pattern = new RegExp(this.spellings.map(escapeRegExp).join('|'), 'g')
    }
    return this.pattern
  }

  text(input: string): string {
    let out = input.replace(JWT, '[REDACTED-JWT]')
    const m = this.matcher()
    // one alternation of every spelling of every secret is slow to run over each exchange (hundreds of long
    // alternatives, one per issued token and encoding); a plain substring search finds first whether any is there
    if (m && this.spellings.some((v) => out.includes(v))) out = out.replace(m, REDACTED)
    return out
  }

  headers(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(headers)) {
      if (v === undefined) continue
      const value = Array.isArray(v) ? v.join(', ') : v
      setOwn(out, k, SECRET_HEADERS.has(k.toLowerCase()) ? maskHeader(value) : this.text(value))
    }
    return out
  }

  /**
   * Deep copy with secret keys masked and secret values removed from strings. Keys such as `__proto__` are kept
   * as plain own keys; below MAX_REDACT_DEPTH levels a value is replaced by a marker.
   */
  json(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.text(value)
    if (value === null || typeof value !== 'object') return value
    if (depth >= MAX_REDACT_DEPTH) return `[deeper than ${MAX_REDACT_DEPTH} levels]`
    if (Array.isArray(value)) return value.map((v) => this.json(v, depth + 1))
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      const key = this.text(k)
      setOwn(out, key, SECRET_KEY.test(k) && v !== null && typeof v !== 'boolean' && typeof v !== 'number' ? REDACTED : this.json(v, depth + 1))
    }
    return out
  }
}

/**
 * The run's redactor of this thread: every secret it learns is also posted on SECRETS_CHANNEL, where the main
 * thread's reporters (and any other copy of this module) hear it.
 */
class RunRedactor extends Redactor {
  private channel: BroadcastChannel | undefined

  override addSecret(value: unknown): void {
    if (!this.learn(value)) return
    try {
      if (!this.channel) {
        this.channel = new BroadcastChannel(SECRETS_CHANNEL)
        ;(this.channel as unknown as { unref?: () => void }).unref?.()
      }
      this.channel.postMessage(value)
    } catch {
      // nobody to tell: what this thread sends is redacted here anyway
    }
  }
}

/**
 * The one redactor of the run in this thread (the run-wide secret registry, append-only: the exception to "no
 * module-level state", since a secret learned by one suite file must be masked in every report of the run).
 * Worker threads announce what they learn to the main thread (SECRETS_CHANNEL), where the reporters redact with it.
 */
const RUN = new RunRedactor()

export function runRedactor(): Redactor {
  return RUN
}

/** In the main thread: every secret a worker thread announces is added to the run's redactor. Returns a stop. */
export function listenForWorkerSecrets(into: Redactor = RUN): () => void {
  const channel = new BroadcastChannel(SECRETS_CHANNEL)
  ;(channel as unknown as { unref?: () => void }).unref?.()
  channel.onmessage = (e: unknown) => {
    into.learn((e as { data?: unknown }).data)
  }
  return () => channel.close()
}

/**
 * Control characters of target data (ANSI escapes, carriage returns, backspaces...) written as visible escapes, so
 * that nothing a target sends can move the cursor, recolour or rewrite the console. Newlines and tabs are kept.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** Redacted and with its control characters escaped: fit for a console or a text report. */
export function safeText(text: string, r: Redactor = RUN): string {
  return escapeControls(r.text(text))
}

function maskHeader(value: string): string {
  const scheme = /^(\w+)\s+/.exec(value)
  return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED
}
