import type { QuoteState } from './records'

/** Operations on a quote that depend on its state. */
export type QuoteOperation = 'update' | 'calculate' | 'referral' | 'decline' | 'bind' | 'issue' | 'documents'

/** Action names as listed by the actions endpoint. */
export const ACTION_NAME: Record<QuoteOperation, string> = {
  update: 'quote:update',
  calculate: 'quote:calculate',
  referral: 'quote:referral',
  decline: 'quote:decline',
  bind: 'quote:bind',
  issue: 'quote:issue',
  documents: 'quote:documents',
}

/**
 * The lifecycle (the spec does not show it; docs/sales.md):
 * draft --calculate--> calculated --referral--> referred --bind--> bound --issue--> issued;
 * calculated --bind--> bound; update of draft/calculated -> draft; decline from any state before issued -> declined
 * (final).
 */
export const ALLOWED: Record<QuoteState, readonly QuoteOperation[]> = {
  draft: ['update', 'calculate', 'decline'],
  calculated: ['update', 'calculate', 'referral', 'decline', 'bind', 'documents'],
  referred: ['decline', 'bind', 'documents'],
  bound: ['issue', 'decline', 'documents'],
  declined: [],
  issued: ['documents'],
}

export function allowed(state: QuoteState, op: QuoteOperation): boolean {
  return ALLOWED[state].includes(op)
}

export function actionsOf(state: QuoteState): string[] {
  return ALLOWED[state].map((op) => ACTION_NAME[op])
}
