import type { HttpResult } from '../http/types'
import { Redactor } from '../reporting/redact'
import { citation, type CheckMeta } from '../../common/spec'

export interface FailureDetail {
  expected: string
  actual: string
  /** The exchange that produced the evidence. */
  res?: HttpResult
  note?: string
}

/** A broken requirement, with the evidence. Formatted by the check that catches it. */
export class ConformanceFailure extends Error {
  constructor(readonly detail: FailureDetail) {
    super(`expected ${detail.expected}, got ${detail.actual}`)
    this.name = 'ConformanceFailure'
  }
}

const MAX_EVIDENCE = 1500

function clip(s: string): string {
  return s.length > MAX_EVIDENCE ? `${s.slice(0, MAX_EVIDENCE)}… (${s.length - MAX_EVIDENCE} more)` : s
}

/** A value as it may appear in a failure: secret keys masked, JWTs masked, clipped. */
export function show(value: unknown): string {
  const r = new Redactor()
  if (typeof value === 'string') return clip(JSON.stringify(r.text(value)))
  if (value === undefined) return 'undefined'
  try {
    return clip(JSON.stringify(r.json(value)))
  } catch {
    return clip(String(value))
  }
}

export function evidence(res: HttpResult): string[] {
  const x = res.exchange
  const r = new Redactor()
  if (!x) return [`request:  ${res.request.method} ${r.text(res.request.url)}`, `response: ${res.status}`]
  const lines = [`request:  ${x.method} ${x.url}${x.request.body ? ` ${clip(x.request.body)}` : ''}`]
  lines.push(`response: ${x.status ?? 'none'} ${x.response?.contentType ?? ''} ${clip(x.response?.body ?? '')}`.trimEnd())
  // A body that claims JSON and does not parse is named as such, whatever the check was about.
  if (res.parseError) lines.push(`body:     ${r.text(res.parseError)}`)
  return lines
}

/** The message of a failed check: requirement, expected, actual, request and response. */
export function formatFailure(meta: CheckMeta, error: unknown): string {
  const head = [`[${meta.id}] ${citation(meta)}`, `requirement: ${meta.requirement}`]
  const r = new Redactor()
  if (error instanceof ConformanceFailure) {
    const d = error.detail
    return [
      ...head,
      `expected: ${r.text(d.expected)}`,
      `actual:   ${r.text(d.actual)}`,
      ...(d.note ? [`note:     ${r.text(d.note)}`] : []),
      ...(d.res ? evidence(d.res) : []),
    ].join('\n')
  }
  const e = error as Error
  return [...head, `error: ${r.text(e?.message ?? String(error))}`].join('\n')
}
