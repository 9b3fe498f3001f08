import { escapePointerToken } from '../client/data/json-pointer'
import type { HttpResult } from '../client/http/types'
import type { InvariantId, Violation } from './invariants'

/**
 * Every number the model reads is finite (issue #37, item 7). JSON's grammar has no Infinity or NaN, but a literal
 * beyond the range of an IEEE 754 double (`1e999`, or 309 digits) is read by every standard parser as Infinity (RFC
 * 8259 §6: such a number is not interoperable), and the model's arithmetic (sums, balances, comparisons) then holds
 * for no amount at all: `Infinity - Infinity` is NaN, `Infinity === Infinity`. The rule is judged on every answer
 * with a JSON body, before any other rule reads it (helpers/oracle/service-model.ts), so an answer a check reads is
 * a finding whichever check reads it.
 */

/** A literal that can overflow a double: an exponent of 3 digits or more, or 309 digits in a row. */
const MAY_OVERFLOW = /\d[eE][+-]?\d{3}|\d{309}/

/** How many places are named in one violation. */
const MAX_NAMED = 5

/** The JSON pointers of the numbers of `value` that are not finite (at most `max`). */
export function nonFiniteNumbers(value: unknown, max = MAX_NAMED): string[] {
  const out: string[] = []
  const walk = (v: unknown, at: string, depth: number): void => {
    if (out.length >= max) return
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) out.push(at || '/')
      return
    }
    if (v === null || typeof v !== 'object' || depth > 256) return
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}/${i}`, depth + 1))
    else for (const [k, x] of Object.entries(v)) walk(x, `${at}/${escapePointerToken(k)}`, depth + 1)
  }
  walk(value, '', 0)
  return out
}

/** SL-INV-080 (the sales and identity services) or WH-INV-080 (webhooks), judged on one answer. */
export function judgeFiniteNumbers(
  service: 'sales' | 'webhooks' | 'identity',
  res: HttpResult,
  evaluated: Set<InvariantId>,
  out: Violation[],
): void {
  if (res.body === null || typeof res.body !== 'object') return
  const id = service === 'webhooks' ? 'WH-INV-080' : 'SL-INV-080'
  evaluated.add(id)
  // a number that cannot overflow is finite: most answers are judged by this one scan of their text
  if (!MAY_OVERFLOW.test(res.text)) return
  const places = nonFiniteNumbers(res.body)
  if (places.length === 0) return
  const literals = places.map(
    (p) => `${p} (${literalAt(res.text, p) ?? 'a number'} read as ${String(lookup(res.body, p))})`,
  )
  if (id === 'WH-INV-080')
    out.push({
      invariant: 'WH-INV-080',
      expected: 'every number of the answer finite (a JSON number within the range of a double, RFC 8259 §6)',
      actual: `not finite: ${literals.join(', ')}`,
      res,
    })
  else
    out.push({
      invariant: 'SL-INV-080',
      expected: 'every number of the answer finite (a JSON number within the range of a double, RFC 8259 §6)',
      actual: `not finite: ${literals.join(', ')}`,
      res,
    })
}

/** The value at a JSON pointer of this walk's making. */
function lookup(value: unknown, pointer: string): unknown {
  let v = value
  for (const part of pointer.split('/').slice(1))
    v = (v as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')]
  return v
}

/** The number as the target wrote it, when the member's name finds it in the text (for the message only). */
function literalAt(text: string, pointer: string): string | undefined {
  const key = pointer.split('/').pop()?.replace(/~1/g, '/').replace(/~0/g, '~')
  if (key === undefined || /^\d+$/.test(key)) return undefined
  const m = new RegExp(
    `${JSON.stringify(key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:\\s*(-?[0-9][0-9.eE+-]*)`,
  ).exec(text)
  return m?.[1] && m[1].length <= 40 ? m[1] : undefined
}
