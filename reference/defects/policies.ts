import type { DefectInfo } from './types'

/** Policy data, MTA, technical change, renewal, termination, payments, credit, customers (sales-service.md §1, §4). */
export const POLICIES_DEFECTS = {} as const satisfies Record<string, DefectInfo>
