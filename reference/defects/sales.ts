import type { DefectInfo } from './types'

/** Sales quote lifecycle: schemes, quotes, locks, referral, bind, issue, requests, documents (sales-service.md §3-§4). */
export const SALES_DEFECTS = {} as const satisfies Record<string, DefectInfo>
