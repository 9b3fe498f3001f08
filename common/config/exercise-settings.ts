import type { TargetConfig } from './types'

/** How the subscription list is paged (profile extensions.exercise.listPage). */
export interface ListPage {
  size: number
  pageParam: string
  sizeParam: string
  firstPage: number
}

/** The resolved extensions.exercise block of the profile (issue 40, docs/exercise.md), defaults filled in. */
export interface ExerciseSettings {
  /** Absent: the list answers every subscription of the caller at once. */
  listPage?: ListPage
  oldTokenAfterRefresh: 'accepted' | 'refused' | 'unspecified'
  terminatedPolicyChanges: 'refused' | 'unspecified'
  /** A payment allocated to an invoice of a terminated policy that still has an amount due (EX-TERM-004). */
  terminatedPolicyPayments: 'accepted' | 'refused' | 'unspecified'
  subscriptionsForVolume: number
  /** JSON pointer -> value that makes a quote pay in 12 monthly installments. */
  monthlySet: Record<string, unknown>
  /** JSON pointer -> value that makes a quote pay in one annual installment. */
  annualSet: Record<string, unknown>
}

export const EXERCISE_DEFAULTS: ExerciseSettings = {
  oldTokenAfterRefresh: 'accepted',
  terminatedPolicyChanges: 'refused',
  terminatedPolicyPayments: 'accepted',
  subscriptionsForVolume: 60,
  monthlySet: { '/policy/paymentFrequency': 'monthly' },
  annualSet: { '/policy/paymentFrequency': 'annual' },
}

/** The page size the exercise model counts "more than a page" against when the list is not paged. */
export const UNPAGED_PAGE_SIZE = 50

export function exerciseSettings(config: Pick<TargetConfig, 'extensions'>): ExerciseSettings {
  const raw = (config.extensions['exercise'] ?? {}) as Partial<ExerciseSettings> & { listPage?: Partial<ListPage> }
  const page = raw.listPage
  return {
    ...EXERCISE_DEFAULTS,
    ...(raw.oldTokenAfterRefresh ? { oldTokenAfterRefresh: raw.oldTokenAfterRefresh } : {}),
    ...(raw.terminatedPolicyChanges ? { terminatedPolicyChanges: raw.terminatedPolicyChanges } : {}),
    ...(raw.terminatedPolicyPayments ? { terminatedPolicyPayments: raw.terminatedPolicyPayments } : {}),
    ...(typeof raw.subscriptionsForVolume === 'number' ? { subscriptionsForVolume: raw.subscriptionsForVolume } : {}),
    ...(raw.monthlySet && typeof raw.monthlySet === 'object' ? { monthlySet: raw.monthlySet } : {}),
    ...(raw.annualSet && typeof raw.annualSet === 'object' ? { annualSet: raw.annualSet } : {}),
    ...(page && typeof page.size === 'number'
      ? {
          listPage: {
            size: page.size,
            pageParam: page.pageParam ?? 'page',
            sizeParam: page.sizeParam ?? 'pageSize',
            firstPage: page.firstPage ?? 1,
          },
        }
      : {}),
  }
}
