import { BroadcastChannel } from 'node:worker_threads'

const SECRET_KEY = /(pass(word)?|secret|token|authorization|api[-_]?key|credential|cookie|signature)/i
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g
/** A text where JWT finds a token (the same pattern, without the global flag's state). */
export const HAS_JWT = new RegExp(JWT.source)
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

/** A spelling and how many neighbouring characters its mask also takes (the partial base64 groups at its edges). */
export interface Spelling {
  text: string
  /** Characters of the base64 alphabet just before the spelling that partly encode the secret. */
  before?: number
  /** Characters of the base64 alphabet just after it that partly encode the secret (then any '=' padding). */
  after?: number
}

/**
 * The base64 (and base64url) spellings of a secret wherever it sits in a longer encoded text (Basic credentials:
 * `user:password`): for each of the 3 alignments, the characters that depend on the secret's bytes only, with the
 * partial characters at either edge (they mix a secret bit with a neighbour's) masked too.
 */
function base64Spellings(secret: Buffer): Spelling[] {
  const whole = secret.toString('base64')
  const out: Spelling[] = [{ text: whole }, { text: whole.replace(/=+$/, '') }]
  for (let k = 0; k < 3; k += 1) {
    const b64 = Buffer.concat([Buffer.alloc(k), secret]).toString('base64')
    const first = Math.ceil((8 * k) / 6)
    const end = Math.floor((8 * (k + secret.length)) / 6)
    const text = b64.slice(first, end)
    if (text.length >= MIN_FRAGMENT)
      out.push({ text, before: (8 * k) % 6 === 0 ? 0 : 1, after: (8 * (k + secret.length)) % 6 === 0 ? 0 : 1 })
  }
  return out.flatMap((f) => [f, { ...f, text: f.text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') }])
}

const hex2 = (n: number) => n.toString(16).padStart(2, '0')
const hex4 = (n: number) => n.toString(16).padStart(4, '0')

/**
 * The spellings of a secret as it may come back from a target or reach a report (docs/reliability.md, "One rule for
 * every text that leaves the run"): as is, case-folded (the index compares without case, so upper-cased, hex in
 * either case and %-escapes in either case are one spelling each), reversed, one space between its characters;
 * JSON-escaped once and twice; `\uXXXX` for every character (JSON and JavaScript) and `\xXX`/`\u{X}` (JavaScript);
 * URL component, form (`+` for a space), every byte %-encoded, and each of these %-encoded again; hex; HTML with
 * named, decimal and hexadecimal entities for the special characters or for every character; base64 and base64url
 * at every alignment (Basic credentials); each part of a JWT.
 */
export function secretSpellings(secret: string): Spelling[] {
  const chars = [...secret]
  const bytes = Buffer.from(secret, 'utf8')
  const texts = new Set<string>([secret])
  const json = JSON.stringify(secret).slice(1, -1)
  texts.add(json)
  texts.add(JSON.stringify(json).slice(1, -1))
  const uEscapes = Array.from({ length: secret.length }, (_, i) => `\\u${hex4(secret.charCodeAt(i))}`).join('')
  texts.add(uEscapes)
  texts.add(uEscapes.replace(/\\/g, '\\\\'))
  texts.add(chars.map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join(''))
  texts.add(
    chars
      .map((c) => (c.codePointAt(0)! < 256 ? `\\x${hex2(c.codePointAt(0)!)}` : `\\u${hex4(c.charCodeAt(0))}`))
      .join(''),
  )
  const component = encodeURIComponent(secret)
  const form = new URLSearchParams({ p: secret }).toString().slice(2)
  const full = [...bytes].map((b) => `%${hex2(b)}`).join('')
  for (const u of [component, component.replace(/%20/g, '+'), form, full]) {
    texts.add(u)
    texts.add(encodeURIComponent(u))
  }
  texts.add(bytes.toString('hex'))
  texts.add(secret.replace(/[&<>"']/g, (c) => HTML[c] ?? c))
  texts.add(secret.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`))
  texts.add(secret.replace(/[&<>"']/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`))
  texts.add(chars.map((c) => `&#${c.codePointAt(0)};`).join(''))
  texts.add(chars.map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join(''))
  texts.add(chars.slice().reverse().join(''))
  texts.add(chars.join(' '))
  // a JWT: each of its parts on its own too (a target may echo the payload or the signature alone)
  const parts = secret.split('.')
  if (parts.length === 3) for (const p of parts) if (p.length >= MIN_FRAGMENT) texts.add(p)
  const out: Spelling[] = [...texts].map((text) => ({ text }))
  out.push(...base64Spellings(bytes))
  return out.filter((v) => v.text.length >= MIN_SECRET)
}

/** A list of spellings as secretSpellings makes them (what a thread's announcement carries). */
function isSpellingList(v: unknown): v is Spelling[] {
  return (
    Array.isArray(v) &&
    v.every(
      (s) =>
        s !== null &&
        typeof s === 'object' &&
        typeof (s as Spelling).text === 'string' &&
        (s as Spelling).text.length >= MIN_SECRET &&
        ['undefined', 'number'].includes(typeof (s as Spelling).before) &&
        ['undefined', 'number'].includes(typeof (s as Spelling).after),
    )
  )
}

/** The spellings of a secret, as texts (tests, the hostile bed's canaries). */
export function secretVariants(secret: string): string[] {
  return [...new Set(secretSpellings(secret).map((s) => s.text))]
}

const HASH_BASE = 31

/** A character code without its case (length-preserving: a character whose lower case is longer keeps its own). */
function fold(c: number): number {
  if (c < 128) return c >= 65 && c <= 90 ? c + 32 : c
  const lower = String.fromCharCode(c).toLowerCase()
  return lower.length === 1 ? lower.charCodeAt(0) : c
}

/** Only ASCII characters: folded, such a text is its toLowerCase() (fold() maps A-Z to a-z and nothing else there). */
const ASCII = /^[\x00-\x7f]*$/

function folded(s: string): string {
  // a run's spellings are mostly long ASCII texts (a token's \u escapes, entities, %-encodings): folded at once
  if (ASCII.test(s)) return s.toLowerCase()
  let out = ''
  for (let i = 0; i < s.length; i += 1) out += String.fromCharCode(fold(s.charCodeAt(i)))
  return out
}

const BASE64_CHAR = /[A-Za-z0-9+/_-]/

interface Entry {
  text: string
  before: number
  after: number
}

/**
 * Finds and masks any of a set of strings in one pass over a text, without regard to case: a rolling hash of each
 * window of K case-folded characters (K the shortest string's length, at most 8) is looked up among the hashes of
 * the strings' first K characters, and only a hit is compared. A search per string costs the number of strings times
 * the text, and one regular expression alternating all of them (a run learns hundreds of spellings: every issued
 * token in every encoding) was compiled again after each new secret, thousands of alternatives each time (most of a
 * run's redaction CPU). A spelling may take neighbouring base64 characters with it (Spelling.before/after).
 */
export class SpellingIndex {
  private readonly k: number
  /** Each folded string once, with the most base64 neighbours any of its spellings takes. */
  private readonly entries = new Map<string, Entry>()
  private readonly byHash = new Map<number, Entry[]>()
  /** One byte per low 16 bits of a hash: most windows are ruled out here, without a map lookup. */
  private readonly seen = new Uint8Array(1 << 16)
  private readonly pow: number

  constructor(spellings: readonly (string | Spelling)[]) {
    const folds = spellings.map((s) => folded(typeof s === 'string' ? s : s.text))
    this.k = folds.length === 0 ? 0 : Math.min(8, ...folds.map((t) => t.length))
    let pow = 1
    for (let i = 1; i < this.k; i += 1) pow = Math.imul(pow, HASH_BASE)
    this.pow = pow
    this.add(spellings)
  }

  /**
   * Adds strings to the index in place (a run learns a secret at each login: rebuilding the index each time cost
   * more than the searches). False, and nothing added, when one is shorter than the index's window: build a new one.
   */
  add(spellings: readonly (string | Spelling)[]): boolean {
    const list = spellings
      .map((s) => (typeof s === 'string' ? { text: s } : s))
      .map((sp) => ({ ...sp, text: folded(sp.text) }))
    if (this.k === 0 ? list.length > 0 : list.some((sp) => sp.text.length < this.k)) return false
    for (const sp of list) {
      const had = this.entries.get(sp.text)
      if (had) {
        had.before = Math.max(had.before, sp.before ?? 0)
        had.after = Math.max(had.after, sp.after ?? 0)
        continue
      }
      const e: Entry = { text: sp.text, before: sp.before ?? 0, after: sp.after ?? 0 }
      this.entries.set(e.text, e)
      const h = SpellingIndex.hash(e.text, 0, this.k)
      this.seen[h & 0xffff] = 1
      const bucket = this.byHash.get(h)
      if (bucket) bucket.push(e)
      else this.byHash.set(h, [e])
    }
    return true
  }

  private static hash(text: string, from: number, k: number): number {
    let h = 0
    for (let i = from; i < from + k; i += 1) h = (Math.imul(h, HASH_BASE) + fold(text.charCodeAt(i))) | 0
    return h
  }

  private static at(text: string, i: number, e: Entry): boolean {
    if (i + e.text.length > text.length) return false
    for (let j = 0; j < e.text.length; j += 1) if (fold(text.charCodeAt(i + j)) !== e.text.charCodeAt(j)) return false
    return true
  }

  /**
   * The text with every occurrence masked (in any case), leftmost first and the longest string at a position (as an
   * alternation of the strings sorted longest first would); the same string when none occurs.
   */
  replaceIn(text: string, mask: string): string {
    const ranges = this.ranges(text)
    if (ranges.length === 0) return text
    let out = ''
    let last = 0
    for (let r = 0; r < ranges.length; r += 2) {
      out += text.slice(last, ranges[r]) + mask
      last = ranges[r + 1]!
    }
    return out + text.slice(last)
  }

  /** Where the strings occur: [from, to) pairs, leftmost first, in order, not overlapping. */
  ranges(text: string): number[] {
    const k = this.k
    const found: number[] = []
    if (k === 0 || text.length < k) return found
    let last = 0
    let i = 0
    let h = SpellingIndex.hash(text, 0, k)
    while (i + k <= text.length) {
      let hit: Entry | undefined
      const candidates = this.seen[h & 0xffff] === 1 ? this.byHash.get(h) : undefined
      if (candidates !== undefined)
        for (const e of candidates)
          if ((hit === undefined || e.text.length > hit.text.length) && SpellingIndex.at(text, i, e)) hit = e
      if (hit !== undefined) {
        let from = i
        for (let b = 0; b < hit.before && from > last && BASE64_CHAR.test(text.charAt(from - 1)); b += 1) from -= 1
        i += hit.text.length
        for (let a = 0; a < hit.after && i < text.length && BASE64_CHAR.test(text.charAt(i)); a += 1) i += 1
        if (hit.after > 0) while (i < text.length && text.charAt(i) === '=') i += 1
        found.push(from, i)
        last = i
        if (i + k <= text.length) h = SpellingIndex.hash(text, i, k)
        continue
      }
      if (i + k >= text.length) break
      h =
        (Math.imul((h - Math.imul(fold(text.charCodeAt(i)), this.pow)) | 0, HASH_BASE) + fold(text.charCodeAt(i + k))) |
        0
      i += 1
    }
    return found
  }

  /**
   * The text with every string masked that occurs once the line breaks inside runs of base64 characters are taken
   * out (MIME wraps base64 at 76 characters, PEM at 64; CRLF, LF or CR, raw or JSON-escaped as `\r\n`, `\\n`): a
   * secret's base64 cut by a break is masked whole, the break with it. Only the runs of base64 characters that hold a
   * break are searched again (a break with a base64 character on either side), so a text without one costs a scan
   * for a break character; the same string when nothing is found.
   */
  replaceWrapped(text: string, mask: string): string {
    if (this.k === 0 || !BREAK_CHAR.test(text)) return text
    const cuts = wrapCuts(text)
    if (cuts.length === 0) return text
    let out = ''
    let last = 0
    let segmentEnd = 0
    let c = 0
    // the pieces of one segment: where each starts in the segment without its cuts, and in the text
    const pieceAt: number[] = []
    const pieceFrom: number[] = []
    const toText = (j: number): number => {
      let p = 0
      while (p + 1 < pieceAt.length && pieceAt[p + 1]! <= j) p += 1
      return pieceFrom[p]! + j - pieceAt[p]!
    }
    while (c < cuts.length) {
      // one segment: a run of base64 characters with the cuts inside it, searched without its cuts
      let p = cuts[c]!
      while (p > segmentEnd && isBase64(text.charCodeAt(p - 1))) p -= 1
      let joined = ''
      pieceAt.length = 0
      pieceFrom.length = 0
      for (;;) {
        let q = p
        while (q < text.length && isBase64(text.charCodeAt(q))) q += 1
        pieceAt.push(joined.length)
        pieceFrom.push(p)
        joined += text.slice(p, q)
        if (c < cuts.length && cuts[c] === q) {
          p = cuts[c + 1]!
          c += 2
          continue
        }
        segmentEnd = q
        break
      }
      if (joined.length < this.k) continue
      const ranges = this.ranges(joined)
      for (let r = 0; r < ranges.length; r += 2) {
        const start = toText(ranges[r]!)
        if (start < last) continue
        out += text.slice(last, start) + mask
        last = toText(ranges[r + 1]! - 1) + 1
      }
    }
    return last === 0 && out === '' ? text : out + text.slice(last)
  }
}

/** A character a line break (raw or escaped) starts with: most texts have none, and are not searched again. */
const BREAK_CHAR = /[\r\n\\]/

/** The base64 and base64url alphabet, by character code. */
const BASE64_CODES = (() => {
  const t = new Uint8Array(128)
  for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') t[ch.charCodeAt(0)] = 1
  return t
})()

function isBase64(code: number): boolean {
  return code < 128 && BASE64_CODES[code] === 1
}

/**
 * The line breaks of a text that sit between two base64 characters, as [from, to) pairs in order: CR, LF, and their
 * JSON or JavaScript escapes (`\r`, `\n`, with any number of backslashes), several in a row as one.
 */
function wrapCuts(text: string): number[] {
  const cuts: number[] = []
  BREAK.lastIndex = 0
  let m: RegExpExecArray | null
  let openFrom = -1
  let openTo = -1
  const close = () => {
    if (
      openFrom > 0 &&
      isBase64(text.charCodeAt(openFrom - 1)) &&
      openTo < text.length &&
      isBase64(text.charCodeAt(openTo))
    )
      cuts.push(openFrom, openTo)
  }
  while ((m = BREAK.exec(text)) !== null) {
    let from = m.index
    // more backslashes of the same escape (`\\n` of JSON in JSON)
    while (from > 0 && m[0].charAt(0) === '\\' && text.charAt(from - 1) === '\\' && from > openTo) from -= 1
    const to = m.index + m[0].length
    if (from === openTo) openTo = to
    else {
      close()
      openFrom = from
      openTo = to
    }
  }
  close()
  return cuts
}

/** One line break: CR or LF, raw or escaped. */
const BREAK = /[\r\n]|\\[rn]/g

/** Sets a key on a plain object (made by `{}`) without touching its prototype (a key may be `__proto__`). */
export function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  // only `__proto__` is an accessor of Object.prototype: any other key assigned is the same own property, and an
  // assignment costs a fraction of a defineProperty (a body's every key passes here, several times per exchange)
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true })
  else o[k] = v
}

/**
 * Masks secrets in anything that may reach a log, a report or a failure message: values registered at run time
 * (passwords, issued tokens, webhook secrets) in their common encodings (JSON-escaped, URL-encoded, HTML-escaped,
 * base64/base64url, each part of a JWT), any JWT, secret-looking JSON keys and credential headers.
 * The run has one (runRedactor()).
 */
export class Redactor {
  /** Each secret with its spellings (computed once, when it is learned). */
  private readonly secrets = new Map<string, Spelling[]>()
  /** Every spelling of every secret: a new secret's are added in place (SpellingIndex.add). */
  private index: SpellingIndex | undefined

  /** Registers a value that must never be printed (ignored when shorter than 4 characters). */
  addSecret(value: unknown): void {
    this.learn(value)
  }

  /**
   * Registers a secret without announcing it; true when it was new. `spelled`: its spellings as another thread's
   * redactor computed them (secretSpellings of the same value, announced with it): taken instead of computed again.
   */
  learn(value: unknown, spelled?: unknown): value is string {
    if (typeof value !== 'string' || value.length < MIN_SECRET || this.secrets.has(value)) return false
    const spellings =
      isSpellingList(spelled) && spelled.some((sp) => sp.text === value) ? spelled : secretSpellings(value)
    this.secrets.set(value, spellings)
    // into the index in place; built again only when a spelling is shorter than its window
    if (this.index && !this.index.add(spellings)) this.index = undefined
    return true
  }

  /** The spellings of a known secret (secretSpellings), or undefined. */
  spellingsOf(secret: string): readonly Spelling[] | undefined {
    return this.secrets.get(secret)
  }

  /**
   * How many secrets are known. The set only grows, so an unchanged size means a text masked earlier by this redactor
   * is masked with every secret it knows now (recorder.ts `redactedWith`).
   */
  get size(): number {
    return this.secrets.size
  }

  private spellings(): SpellingIndex | undefined {
    if (this.secrets.size === 0) return undefined
    if (!this.index) {
      this.index = new SpellingIndex([...this.secrets.values()].flat())
    }
    return this.index
  }

  text(input: string): string {
    const out = input.replace(JWT, '[REDACTED-JWT]')
    const index = this.spellings()
    return index === undefined ? out : index.replaceWrapped(index.replaceIn(out, REDACTED), REDACTED)
  }

  headers(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(headers)) {
      if (v === undefined) continue
      const value = Array.isArray(v) ? v.join(', ') : v
      // a header's name is the target's text too (a target may name a header after a secret)
      setOwn(out, this.text(k), SECRET_HEADERS.has(k.toLowerCase()) ? maskHeader(value) : this.text(value))
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
      const secret = SECRET_KEY.test(k) && v !== null && typeof v !== 'boolean' && typeof v !== 'number'
      // a secret received under its name (a webhook subscription's secret, a token) is learned where it is first
      // masked, so that the same value is masked in every other text of the command (issue #37: replay, explore)
      if (secret && LEARNED_KEY.test(k) && !NOT_LEARNED_KEY.test(k)) this.learnUnder(v, 0)
      setOwn(out, key, secret ? REDACTED : this.json(v, depth + 1))
    }
    return out
  }

  /**
   * Learns the values held under a key that names a secret: the string, or an object's string members but its
   * descriptors.
   */
  private learnUnder(value: unknown, depth: number): void {
    if (typeof value === 'string') {
      if (value.length >= MIN_LEARNED && !/\s|:\/\//.test(value)) this.addSecret(value)
      return
    }
    if (value === null || typeof value !== 'object' || depth >= 4) return
    for (const [k, v] of Object.entries(value).slice(0, 32)) if (!DESCRIPTOR_KEY.test(k)) this.learnUnder(v, depth + 1)
  }
}

/** Keys whose value is learned as a secret when met (a narrower list than SECRET_KEY, which only masks the value). */
const LEARNED_KEY = /(secret|password|passwd|token|api[-_]?key|private[-_]?key|signing[-_]?key)$/i
/** Pagination cursors are named like tokens but are no secret. */
const NOT_LEARNED_KEY = /(page|next|continuation|cursor)[-_]?token$/i
/** Members of a secret object that describe it (`{"algorithm": "sha256", "key": "…"}`): not learned. */
const DESCRIPTOR_KEY =
  /^(alg|algorithm|type|kind|scheme|encoding|format|hash|digest|name|id|version|user(name)?|login|e?mail|created.*|updated.*|expires.*|.*_at|.*At)$/i
/** Shortest value learned from an answer (a configured password may be shorter: MIN_SECRET). */
const MIN_LEARNED = 8

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
      // with its spellings: the main thread takes them instead of computing them again (a run learns a token at each
      // login; docs/performance.md)
      this.channel.postMessage({ secret: value, spellings: this.spellingsOf(value) })
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
    const data = (e as { data?: unknown }).data
    if (data !== null && typeof data === 'object') {
      const { secret, spellings } = data as { secret?: unknown; spellings?: unknown }
      into.learn(secret, spellings)
    } else into.learn(data)
  }
  return () => channel.close()
}

/**
 * Control characters of target data (ANSI escapes, carriage returns, backspaces...) written as visible escapes, so
 * that nothing a target sends can move the cursor, recolour or rewrite the console. Newlines and tabs are kept.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/**
 * A JSON text (as JSON.stringify writes it) whose strings may hold one of CONTROL's characters: JSON.stringify escapes
 * C0 (`\u00XX`, `\b`, `\f`, `\r`) and leaves the others raw. Also true of some texts that hold none (a backslash
 * written before such letters): the test errs on the side of escaping.
 */
export const MAY_HOLD_CONTROL =
  /\\u00[01][0-9a-fA-F]|\\[bfr]|[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

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
