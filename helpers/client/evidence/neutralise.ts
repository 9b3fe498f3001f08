import { jsonDepthBeyond } from '../data/json-depth'
import { HAS_JWT, MAY_HOLD_CONTROL, runRedactor, safeText, setOwn, type Redactor } from './redact'

export { safeText }

/**
 * One rule for every text that leaves the run (docs/reliability.md, "One rule for every text that leaves the run"):
 * whatever a writer puts in a file, on the console or in a job summary passes the run's redactor (every secret in
 * every encoding) and has its control characters (C0, C1, bidi) made visible; a Markdown or HTML writer escapes its
 * own syntax on top. Every writer of the run calls these and nothing else: the console and the text reports
 * (safeText), JSON files and attachments (safeValue, safeJson), conformance.md and the job summary (safeMarkdown),
 * conformance.html (safeHtml), junit.xml (safeXml). safeText and safeValue are idempotent, so a text neutralised at
 * its source (a stop cause) and again by its writer reads the same; the Markdown, HTML and XML escapes are applied
 * once, by the writer of that format.
 */

const DEPTH = 256

/** A deep copy with every string and every key neutralised as text (numbers, booleans and null kept). */
export function safeValue(value: unknown, r: Redactor = runRedactor(), depth = 0): unknown {
  if (typeof value === 'string') return safeText(value, r)
  if (value === null || typeof value !== 'object') return value
  if (depth >= DEPTH) return `[deeper than ${DEPTH} levels]`
  if (Array.isArray(value)) return value.map((v) => safeValue(v, r, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue
    setOwn(out, safeText(k, r), safeValue(v, r, depth + 1))
  }
  return out
}

/** A value as JSON text (pretty when asked), neutralised. */
export function safeJson(value: unknown, o: { pretty?: boolean; redactor?: Redactor } = {}): string {
  return (
    JSON.stringify(safeValue(value ?? null, o.redactor ?? runRedactor()), null, o.pretty === false ? undefined : 2) ??
    'null'
  )
}

/**
 * safeJson of plain JSON data (what JSON.parse returns, objects of strings and numbers: no Date, Buffer or class) with
 * a redactor that knows no secret (it masks JWTs only), written at once when neutralising would change nothing: no
 * JWT and no control character in the text JSON.stringify writes, and nesting within safeValue's depth. Otherwise,
 * and for any other redactor, exactly safeJson. The same text either way, without a copy of the value (an exchange's
 * Allure attachment: helpers/client/http/allure-sink.ts).
 */
export function safeJsonOfData(value: unknown, r: Redactor): string {
  if (r.size === 0) {
    let text: string | undefined
    try {
      text = JSON.stringify(value ?? null, null, 2)
    } catch {
      text = undefined
    }
    if (
      text !== undefined &&
      !MAY_HOLD_CONTROL.test(text) &&
      !HAS_JWT.test(text) &&
      jsonDepthBeyond(text, DEPTH - 6) === undefined
    )
      return text
  }
  return safeJson(value, { redactor: r })
}

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** For HTML text or an attribute value. */
export function safeHtml(text: string, r: Redactor = runRedactor()): string {
  return safeText(text, r).replace(/[&<>"']/g, (c) => HTML[c] ?? c)
}

/** For XML 1.0 text or an attribute value (newlines kept, the rest of C0 already escaped). */
export function safeXml(text: string, r: Redactor = runRedactor()): string {
  return safeHtml(text, r)
}

/**
 * For Markdown (a paragraph, a list item or a table cell): HTML's characters as entities, Markdown's punctuation
 * backslash-escaped, newlines as spaces (a cell is one line). The text reads the same in a job summary; nothing of
 * it becomes a link, an image, a heading, a table or an HTML element.
 */
export function safeMarkdown(text: string, r: Redactor = runRedactor()): string {
  return safeText(text, r)
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*_{}[\]()#!|~]/g, (c) => `\\${c}`)
    .replace(/[&<>"']/g, (c) => HTML[c] ?? c)
}
