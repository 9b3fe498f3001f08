/**
 * Named defects: each is a small, deliberate departure from a spec clause that the
 * reference service can be started with (--defect <name>, or REFERENCE_DEFECTS).
 * The conformance suite must catch every one of them (see npm run mutation).
 *
 * To add one: add an entry to reference/defects/<area>.ts (name, area, clause, description), then make the behaviour
 * conditional on `ctx.defects.has('<name>')` where the area implements the clause.
 */
import { AUTH_DEFECTS } from './auth'
import { CONTENT_DEFECTS } from './content'
import { OUTPUTS_DEFECTS } from './outputs'
import { ORACLE_DEFECTS } from './oracle'
import { CONCURRENCY_DEFECTS } from './concurrency'
import { POLICIES_DEFECTS } from './policies'
import { RELIABILITY_DEFECTS } from './reliability'
import { SALES_DEFECTS } from './sales'
import type { DefectInfo } from './types'
import { WEBHOOKS_DEFECTS } from './webhooks'
import { EXERCISE_DEFECTS } from './exercise'

export type { DefectInfo } from './types'

/** Every defect, by name. Each area keeps its own list in reference/defects/<area>.ts. */
export const DEFECTS = {
  ...AUTH_DEFECTS,
  ...WEBHOOKS_DEFECTS,
  ...SALES_DEFECTS,
  ...POLICIES_DEFECTS,
  ...RELIABILITY_DEFECTS,
  ...CONTENT_DEFECTS,
  ...OUTPUTS_DEFECTS,
  ...EXERCISE_DEFECTS,
  ...ORACLE_DEFECTS,
  ...CONCURRENCY_DEFECTS,
} as const satisfies Record<string, DefectInfo>

export type DefectName = keyof typeof DEFECTS

export function isDefectName(name: string): name is DefectName {
  return Object.hasOwn(DEFECTS, name)
}

/** The defects a reference instance runs with. Immutable once built. */
export class DefectSet {
  private readonly names: ReadonlySet<DefectName>

  constructor(names: Iterable<string> = []) {
    const list = [...names]
    const unknown = list.filter((n) => !isDefectName(n))
    if (unknown.length > 0) {
      throw new Error(`unknown defect(s): ${unknown.join(', ')}; known: ${Object.keys(DEFECTS).join(', ')}`)
    }
    this.names = new Set(list as DefectName[])
  }

  has(name: DefectName): boolean {
    return this.names.has(name)
  }

  list(): DefectName[] {
    return [...this.names]
  }
}
