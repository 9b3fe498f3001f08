import { beforeAll } from 'vitest'
import type { RunnerTestSuite } from 'vitest'
import { selectedChecks } from '../../common/selection'

/**
 * Set-up file of every conformance file (vitest.config.ts setupFiles). A selection (common/selection.ts) leaves the
 * checks it does not name undefined, so a block (describe) may hold none of the selected checks: vitest would run
 * its hooks (a beforeAll that logs in or creates data for checks that are not in the run) and then fail it with
 * "No test found in suite", which made `--check AUTH-LOGIN-002` INCONCLUSIVE (issue 27). Before any block of the
 * file runs, every block without a selected check is marked skipped: its hooks never run and it reports nothing.
 * A run without a selection is left exactly as collected.
 */
export function skipBlocksWithoutChecks(suite: RunnerTestSuite): string[] {
  const skipped: string[] = []
  const visit = (s: RunnerTestSuite): boolean => {
    let any = false
    for (const t of s.tasks) {
      if (t.type === 'test') any = true
      else if (t.type === 'suite') {
        if (visit(t)) any = true
        else {
          t.mode = 'skip'
          skipped.push(t.name)
        }
      }
    }
    return any
  }
  visit(suite)
  return skipped
}

if (selectedChecks() !== undefined) {
  // vitest reads a fixture's dependencies from its first parameter, which must be an object pattern
  // biome-ignore lint/correctness/noEmptyPattern: vitest's fixture signature
  beforeAll(({}, file) => {
    skipBlocksWithoutChecks(file)
  })
}
