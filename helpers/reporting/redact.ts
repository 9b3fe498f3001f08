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

const HASH_BASE = 31

/**
 * Finds and masks any of a set of strings in one pass over a text: a rolling hash of each window of K characters
 * (K the shortest string's length, at most 8) is looked up among the hashes of the strings' first K characters, and
 * only a hit is compared. A search per string costs the number of strings times the text, and one regular expression
 * alternating all of them (a run learns hundreds of spellings: every issued token in every encoding) was compiled
 * again after each new secret, thousands of alternatives each time (most of a run's redaction CPU).
 */
export class SpellingIndex {
  private readonly k: number
  private readonly byHash = new Map<number, string[]>()
  /** One byte per low 16 bits of a hash: most windows are ruled out here, without a map lookup. */
  private readonly seen = new Uint8Array(1 << 16)
  private readonly pow: number

  constructor(spellings: readonly string[]) {
    this.k = spellings.length === 0 ? 0 : Math.min(8, ...spellings.map((s) => s.length))
    let pow = 1
    for (let i = 1; i < this.k; i += 1) pow = Math.imul(pow, HASH_BASE)
    this.pow = pow
    for (const s of spellings) {
      const h = SpellingIndex.hash(s, 0, this.k)
      this.seen[h & 0xffff] = 1
      const list = this.byHash.get(h)
      if (list) list.push(s)
      else this.byHash.set(h, [s])
    }
  }

  private static hash(text: string, from: number, k: number): number {
    let h = 0
    for (let i = from; i < from + k; i += 1) h = (Math.imul(h, HASH_BASE) + text.charCodeAt(i)) | 0
    return h
  }

  /**
   * The text with every occurrence masked, leftmost first and the longest string at a position (as an alternation
   * of the strings sorted longest first would); the same string when none occurs.
   */
  replaceIn(text: string, mask: string): string {
    const k = this.k
    if (k === 0 || text.length < k) return text
    let out = ''
    let last = 0
    let i = 0
    let h = SpellingIndex.hash(text, 0, k)
    while (i + k <= text.length) {
      let hit: string | undefined
      const candidates = this.seen[h & 0xffff] === 1 ? this.byHash.get(h) : undefined
      if (candidates !== undefined) for (const v of candidates) if ((hit === undefined || v.length > hit.length) && text.startsWith(v, i)) hit = v
      if (hit !== undefined) {
        out += text.slice(last, i) + mask
        i += hit.length
        last = i
        if (i + k <= text.length) h = SpellingIndex.hash(text, i, k)
        continue
      }
      if (i + k >= text.length) break
      h = (Math.imul((h - Math.imul(text.charCodeAt(i), this.pow)) | 0, HASH_BASE) + text.charCodeAt(i + k)) | 0
      i += 1
    }
    return last === 0 ? text : out + text.slice(last)
  }
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
  /** Each secret with its spellings (computed once, when it is learned). */
  private readonly secrets = new Map<string, string[]>()
  /** Every spelling of every secret, built again when a secret is learned. */
  private index: SpellingIndex | undefined

  /** Registers a value that must never be printed (ignored when shorter than 4 characters). */
  addSecret(value: unknown): void {
    this.learn(value)
  }

  /** Registers a secret without announcing it; true when it was new. */
  learn(value: unknown): value is string {
    if (typeof value !== 'string' || value.length < MIN_SECRET || this.secrets.has(value)) return false
    this.secrets.set(value, secretVariants(value))
    this.index = undefined
    return true
  }

  /** How many secrets are known (tests). */
  get size(): number {
    return this.secrets.size
  }

  private spellings(): SpellingIndex | undefined {
    if (this.secrets.size === 0) return undefined
    if (!this.index) {
      const all = new Set<string>()
      for (const variants of this.secrets.values()) for (const v of variants) all.add(v)
      this.index = new SpellingIndex([...all])
    }
    return this.index
  }

  text(input: string): string {
    const out = input.replace(JWT, '[REDACTED-JWT]')
    return this.spellings()?.replaceIn(out, REDACTED) ?? out
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
