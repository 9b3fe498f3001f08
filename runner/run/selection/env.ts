import type { Selection } from '../verdict'
import { plannedCatalogueSize, plannedSelection } from '../../../common/run-plan'

/** The variable through which the CLI tells a run (its reporters and its checks) what was selected. */
export const SELECTION_ENV = 'LEDGER_SELECTION'
export { SELECTED_CHECKS_ENV } from '../../../common/selection'

/** The selection of this run, when the CLI set one (a run of the whole catalogue has none). */
export function selectionFromEnv(env: NodeJS.ProcessEnv): Selection | undefined {
  return plannedSelection(env)
}

/** The variable through which the CLI tells a sharded run how many checks the whole catalogue holds. */
export const CATALOGUE_SIZE_ENV = 'LEDGER_CATALOGUE_CHECKS'

export function catalogueSizeFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  return plannedCatalogueSize(env)
}

/** The variable through which the CLI asks for --strict: an untested requirement makes the run INCONCLUSIVE. */
export const STRICT_ENV = 'LEDGER_STRICT'

/** The variable through which the CLI tells a run that vitest's own options filter it ("--changed", "-t X", files). */
export const VITEST_FILTER_ENV = 'LEDGER_VITEST_FILTER'

/**
 * vitest's options (after `--`) that run part of the suite: `--changed`, `--related`, `-t`/`--testNamePattern`,
 * `--project`, file filters. Their words, for "partial: N of M; vitest filter --changed"; undefined when none.
 */
export function vitestFilterOf(vitestArgs: readonly string[]): string | undefined {
  const out: string[] = []
  for (let i = 0; i < vitestArgs.length; i++) {
    const a = vitestArgs[i]!
    if (/^--(changed|related|project|testNamePattern)(=|$)/.test(a) || a === '-t') {
      const takesValue =
        (a === '-t' || a === '--testNamePattern' || a === '--project' || a === '--related') && i + 1 < vitestArgs.length
      out.push(takesValue ? `${a} ${vitestArgs[++i]!}` : a)
    } else if (!a.startsWith('-')) out.push(a)
  }
  return out.length > 0 ? out.join(' ') : undefined
}
