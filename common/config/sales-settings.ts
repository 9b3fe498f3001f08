import type { TargetConfig } from './types'

/** Action names of the actions list, per operation (spec: not shown; profile extensions.sales.actions). */
export interface SalesActionNames {
  update: string
  calculate: string
  referral: string
  decline: string
  bind: string
  issue: string
  /** Generating quote documents. */
  documents: string
}

/** How the target provokes an issue failure (null: it cannot; the check is not applicable). */
export interface IssueFailureTrigger {
  /** JSON pointer -> value set on the create payload of the quote that must fail at issue. */
  set: Record<string, unknown>
}

/** The sales block of the target profile, with defaults (see docs/sales.md). */
export interface SalesSettings {
  schemaType: string
  quoteIdPointer: string
  requestIdPointer: string
  /** Where the new policy id is in the successful request body. */
  policyIdPointer: string
  /** Where the period premium is in the policy links response (compared with the quote's). */
  policyPremiumPointer: string
  /** Where the run tag is written in created quotes (null: nowhere). */
  tagPointer: string | null
  actions: SalesActionNames
  issueFailure: IssueFailureTrigger | null
  /** How the id of a generated document is found: "header:<name>" (last path segment) or "json:<pointer>". */
  documentIdFrom: string
  documentContentTypes: string[]
  /** What a quote's document names in its text (SL-INV-041): the quote id, or nothing the suite can judge. */
  documentSubject: 'quote-id' | 'none'
  /** Pending quotes left by the suite are declined afterwards ('decline') or left alone ('none'). */
  cleanup: 'decline' | 'none'
}

export const SALES_DEFAULTS: SalesSettings = {
  schemaType: 'policy',
  quoteIdPointer: '/policy/id',
  requestIdPointer: '/requestId',
  policyIdPointer: '/data/policyId',
  policyPremiumPointer: '/data/policy/financials/periodPremium',
  tagPointer: '/policy/externalReference',
  actions: {
    update: 'quote:update',
    calculate: 'quote:calculate',
    referral: 'quote:referral',
    decline: 'quote:decline',
    bind: 'quote:bind',
    issue: 'quote:issue',
    documents: 'quote:documents',
  },
  issueFailure: null,
  documentIdFrom: 'header:content-location',
  documentContentTypes: ['application/pdf'],
  documentSubject: 'quote-id',
  cleanup: 'decline',
}

/** Profile extensions.sales merged over the defaults. */
export function salesSettings(config: TargetConfig): SalesSettings {
  const raw = (config.extensions['sales'] ?? {}) as Partial<SalesSettings>
  return {
    ...SALES_DEFAULTS,
    ...raw,
    actions: { ...SALES_DEFAULTS.actions, ...(raw.actions ?? {}) },
  }
}
