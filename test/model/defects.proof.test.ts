import { describe, expect, it } from 'vitest'
import { runConformance } from '../../scripts/harness/run-conformance'
import { limiter } from '../support/limiter'
import { MODEL_CASES } from '../../scripts/explore/model-cases'

const limit = limiter(2)

/**
 * Each defect of issue 14 is caught by an invariant of the model or a cell of the operation x state table (the ids in
 * its case), in a run of one suite file against the reference with that defect. The faithful runs are the area proofs'.
 */
describe('the defects of state, operations per state, scoping, data read back and money are caught by the model', () => {
  for (const c of MODEL_CASES) {
    it.concurrent(`${c.defect} is caught in ${c.file} by ${c.mustFail.length > 4 ? `${c.mustFail.slice(0, 4).join(', ')}, ...` : c.mustFail.join(', ')}`, { timeout: 600_000 }, async () => {
      const run = await limit(() => runConformance({ files: [c.file], defects: [c.defect] }))
      expect(run.exitCode, run.output.slice(-2000)).not.toBe(0)
      for (const id of c.mustFail) expect(run.failedIds, `failed: ${run.failedIds.join(', ')}`).toContain(id)
      // a broken invariant names the rule of the model that judged it (file:line in helpers/oracle/), one hop to the code
      for (const inv of run.report?.checks.filter((x) => x.status === 'failed' && /-INV-/.test(x.id)) ?? []) expect(inv.error, inv.id).toMatch(/judged by: helpers\/oracle\/[\w-]+\.ts:\d+ /)
    })
  }
})
