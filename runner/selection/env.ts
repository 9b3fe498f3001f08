import type { Selection } from '../verdict'

/** The variable through which the CLI tells a run (its reporters and its checks) what was selected. */
export const SELECTION_ENV = 'LEDGER_SELECTION'
export { SELECTED_CHECKS_ENV } from '../../common/selection'

/** The selection of this run, when the CLI set one (a run of the whole catalogue has none). */
export function selectionFromEnv(env: NodeJS.ProcessEnv): Selection | undefined {
  const raw = env[SELECTION_ENV]
  if (!raw) return undefined
  try {
    const s = JSON.parse(raw) as Selection
    return typeof s.label === 'string' && Number.isInteger(s.selected) && Number.isInteger(s.catalogue) ? s : undefined
  } catch {
    return undefined
  }
}

/** The variable through which the CLI tells a sharded run how many checks the whole catalogue holds. */
export const CATALOGUE_SIZE_ENV = 'LEDGER_CATALOGUE_CHECKS'

export function catalogueSizeFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const n = Number(env[CATALOGUE_SIZE_ENV])
  return Number.isInteger(n) && n > 0 ? n : undefined
}

/** The variable through which the CLI asks for --strict: an untested requirement makes the run INCONCLUSIVE. */
export const STRICT_ENV = 'LEDGER_STRICT'
