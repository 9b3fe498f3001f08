import type { DefectInfo } from './types'

/** Faults of the wire or the service that a conforming target must not show. */
export const RELIABILITY_DEFECTS = {} as const satisfies Record<string, DefectInfo>
