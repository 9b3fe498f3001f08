import { mediaTypeOf } from '../client/content/document'
import { getPointer } from '../client/data/json-pointer'
import type { HttpResult } from '../client/http/types'

/**
 * The id of a generated document, found as the profile says: "header:<name>" (last path segment) or "json:<pointer>".
 */
export function documentIdOf(res: HttpResult, from: string): string | undefined {
  if (from.startsWith('header:')) {
    const value = res.headers[from.slice('header:'.length).toLowerCase()]
    if (typeof value !== 'string' || value === '') return undefined
    const last = value.split('?')[0]!.replace(/\/+$/, '').split('/').pop()
    return last ? decodeURIComponent(last) : undefined
  }
  if (from.startsWith('json:')) {
    const id = getPointer(res.body, from.slice('json:'.length))
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined
  }
  return undefined
}

/** The media type of a response without parameters, lower case. */
export function mediaType(res: HttpResult): string {
  return mediaTypeOf(res.contentType)
}

/** Installments that sum to the premium within a cent and have ordered due dates; the problems found. */
export function scheduleProblems(instalments: unknown, premium: number): string[] {
  if (!Array.isArray(instalments) || instalments.length === 0) return ['no instalments']
  const problems: string[] = []
  const sum = instalments.reduce(
    (s: number, i) =>
      s + (typeof (i as { premium?: unknown }).premium === 'number' ? (i as { premium: number }).premium : NaN),
    0,
  )
  if (!Number.isFinite(sum)) problems.push('an instalment premium is not a number')
  else if (Math.abs(sum - premium) > 0.01 + 1e-9)
    problems.push(`instalments sum to ${Math.round(sum * 100) / 100}, premium is ${premium}`)
  const dates = instalments.map((i) => String((i as { dueDate?: unknown }).dueDate))
  for (let k = 1; k < dates.length; k += 1)
    if (!(dates[k - 1]! <= dates[k]!)) problems.push(`due date ${dates[k]} comes before ${dates[k - 1]}`)
  return problems
}
