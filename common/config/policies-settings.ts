import type { TargetConfig } from './types'
import { deepMerge } from '../data/deep-merge'

/** How the policy period is counted: is the expiry date itself a covered day? */
export type DayCount = 'expiry-exclusive' | 'expiry-inclusive'

/**
 * How a short-rate percentage applies:
 *  - 'return': the insurer keeps shortRatePct % of the pro-rata return;
 *  - 'premium': the insurer keeps shortRatePct % of the period premium (never below 0).
 */
export type ShortRateBase = 'return' | 'premium'

/** How a mid-term adjustment is charged: the new premium's difference for the rest of the period, or in full. */
export type MtaAdjustment = 'pro-rata' | 'full-difference'

/** JSON pointer -> value (a template: "{{tag}}" etc.), written into a request body or expected in a response. */
export type PointerValues = Record<string, unknown>

/**
 * The policies block of the target profile (extensions.policies), with defaults. Request bodies are JSON
 * templates (helpers/checks/policies/template.ts); pointers are RFC 6901. See docs/policies.md for each field.
 */
export interface PoliciesSettings {
  /** Is the expiry date the last covered day ('expiry-inclusive') or the first uncovered one? */
  dayCount: DayCount
  /** Largest difference (in currency units) accepted between an amount and its expectation. */
  moneyTolerance: number
  links: {
    /** Where the product data (policy, customer, objects) is in GET /policies/{id}/links. */
    dataPointer: string
    financialsPointer: string
    periodPremiumPointer: string
    dateInceptionPointer: string
    dateExpiryPointer: string
    statusPointer: string
    terminatedStatus: string
    terminationDatePointer: string
    /** Lists of the policy's quote ids and document ids (null: the target does not show them). */
    quotesPointer: string | null
    documentsPointer: string | null
  }
  invoices: {
    /** Where the invoice array is in GET /policies/{id}/invoices ('' = the body itself). */
    listPointer: string
    /** Fields of an invoice whose sum is the amount due. */
    amountFields: string[]
  }
  totals: { premium: string; fees: string; paid: string; balance: string; returnPremium: string }
  mta: {
    body: unknown
    /** Changes written over the issued payload, then expected in the policy data after the MTA. */
    set: PointerValues
    quoteIdPointer: string
    /** The MTA is effective this many days after inception. */
    effectiveAfterDays: number
    adjustment: MtaAdjustment
    /** Period premium in GET /sales/policies/{id}/calculation. */
    periodPremiumPointer: string
  }
  technicalChange: {
    /** Non-financial changes: body built from these pointers, then expected in the policy data. */
    set: PointerValues
    /** A change of a financial field, which must be refused. */
    financialBody: unknown
  }
  renewal: { dataPointer: string; dateInceptionPointer: string; dateExpiryPointer: string }
  termination: {
    premiumsBody: unknown
    returnPremiumPointer: string
    terminateBody: unknown
    eventIdPointer: string
    /** The termination date is this many days after inception. */
    afterDays: number
    shortRatePct: number
    shortRateBase: ShortRateBase
  }
  payments: {
    insertBody: unknown
    paymentIdPointer: string
    allocateBody: unknown
    /** Array of allocation events in the allocate response. */
    eventsPointer: string
    eventIdField: string
    creditBody: unknown
  }
  /**
   * Contracts of the shapes the public documents do not show, by name: another contract name, or null when
   * the target's shape is not described (the contract check is then not applicable). Absent: the project's contract.
   */
  contracts: Record<string, string | null>
  customers: {
    /** The installments array in the custom view response. */
    installmentsPointer: string
    /** Written over the payload of the second policy so that its customer differs. */
    otherCustomerSet: PointerValues
  }
}

export const POLICIES_DEFAULTS: PoliciesSettings = {
  dayCount: 'expiry-inclusive',
  moneyTolerance: 0.01,
  links: {
    dataPointer: '/data',
    financialsPointer: '/data/policy/financials',
    periodPremiumPointer: '/data/policy/financials/periodPremium',
    dateInceptionPointer: '/data/policy/dateInception',
    dateExpiryPointer: '/data/policy/dateExpiry',
    statusPointer: '/data/policy/status',
    terminatedStatus: 'terminated',
    terminationDatePointer: '/data/policy/terminationDate',
    quotesPointer: '/links/quotes',
    documentsPointer: '/links/documents',
  },
  invoices: { listPointer: '', amountFields: ['premium', 'adminfee'] },
  totals: {
    premium: '/data/premium',
    fees: '/data/adminFee',
    paid: '/data/paid',
    balance: '/data/balance',
    returnPremium: '/data/returnPremium',
  },
  mta: {
    body: { policy: { id: '{{policyId}}' }, mta: { dateEffective: '{{dateEffective}}' } },
    set: { '/objects/building/0/sumInsured': 1234000 },
    quoteIdPointer: '/policy/id',
    effectiveAfterDays: 60,
    adjustment: 'pro-rata',
    periodPremiumPointer: '/data/periodPremium',
  },
  technicalChange: {
    set: { '/customer/email': 'tc-{{tag}}@example.test' },
    financialBody: { policy: { financials: { periodPremium: 1 } } },
  },
  renewal: {
    dataPointer: '/data',
    dateInceptionPointer: '/policy/dateInception',
    dateExpiryPointer: '/policy/dateExpiry',
  },
  termination: {
    premiumsBody: {
      policy: {
        terminationType: '{{type}}',
        terminationDate: '{{date}}',
        terminationSum: '{{sum}}',
        shortRatePct: '{{shortRatePct}}',
      },
    },
    returnPremiumPointer: '/data/returnPremium',
    terminateBody: {
      policy: {
        terminationType: 'manual',
        terminationDate: '{{date}}',
        terminationSum: '{{sum}}',
        terminationReason: '{{tag}}',
      },
      financials: { adminFeeSum: 0 },
    },
    eventIdPointer: '/event_id',
    afterDays: 100,
    shortRatePct: 10,
    shortRateBase: 'return',
  },
  payments: {
    insertBody: { amount: '{{amount}}', paymentDate: '{{date}}', reference: '{{tag}}' },
    paymentIdPointer: '/data/id',
    allocateBody: { paymentId: '{{paymentId}}', allocations: '{{allocations}}' },
    eventsPointer: '/data/events',
    eventIdField: 'eventId',
    creditBody: { reason: '{{tag}}' },
  },
  contracts: {},
  customers: {
    installmentsPointer: '/data/installments',
    otherCustomerSet: { '/customer/code': '{{digits11}}' },
  },
}

/** Profile extensions.policies merged over the defaults (objects deeply; arrays, bodies' leaves and maps replaced). */
export function policiesSettings(config: TargetConfig): PoliciesSettings {
  const raw = (config.extensions['policies'] ?? {}) as Partial<PoliciesSettings>
  const merged = deepMerge(POLICIES_DEFAULTS, raw)
  // request bodies and pointer maps are replaced as a whole when the profile gives them
  if (raw.mta?.body !== undefined) merged.mta.body = raw.mta.body
  if (raw.mta?.set !== undefined) merged.mta.set = raw.mta.set
  if (raw.technicalChange?.set !== undefined) merged.technicalChange.set = raw.technicalChange.set
  if (raw.technicalChange?.financialBody !== undefined)
    merged.technicalChange.financialBody = raw.technicalChange.financialBody
  if (raw.termination?.premiumsBody !== undefined) merged.termination.premiumsBody = raw.termination.premiumsBody
  if (raw.termination?.terminateBody !== undefined) merged.termination.terminateBody = raw.termination.terminateBody
  if (raw.payments?.insertBody !== undefined) merged.payments.insertBody = raw.payments.insertBody
  if (raw.payments?.allocateBody !== undefined) merged.payments.allocateBody = raw.payments.allocateBody
  if (raw.payments?.creditBody !== undefined) merged.payments.creditBody = raw.payments.creditBody
  if (raw.contracts !== undefined) merged.contracts = raw.contracts
  if (raw.customers?.otherCustomerSet !== undefined) merged.customers.otherCustomerSet = raw.customers.otherCustomerSet
  return merged
}
