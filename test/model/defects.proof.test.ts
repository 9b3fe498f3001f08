import { describe, expect, it } from 'vitest'
import { limiter } from '../support/limiter'
import { defectBatches, expectCaught } from '../support/defect-batch'
import { MODEL_CASES } from '../../scripts/explore/model-cases'

const limit = limiter(2)
/**
 * The cases of one suite file run as one batch, each defect against a reference of its own
 * (test/support/defect-batch.ts).
 */
/** The answer oracle's cases (area oracle) have their own proof: test/model/oracle-defects.proof.test.ts. */
const CASES = MODEL_CASES.filter((c) => c.area !== 'oracle')
const outcome = defectBatches(CASES, limit)

/**
 * Each defect of issue 14 is caught by an invariant of the model or a cell of the operation x state table (the ids in
 * its case), in a run of one suite file against the reference with that defect. The faithful runs are the area proofs'.
 */
describe(
  'the defects of state, operations per state, scoping, data read back and money are caught by the ' + 'model',
  () => {
    for (const c of CASES) {
      it.concurrent(`${c.defect} is caught in ${c.file} ` +
        `by ${c.mustFail.length > 4 ? `${c.mustFail.slice(0, 4).join(', ')}, ...` : c.mustFail.join(', ')}`, {
        timeout: 600_000,
      }, async () => {
        const o = await outcome(c)
        expectCaught(o, c.mustFail)
        // a broken invariant names the rule of the model that judged it (file:line in helpers/oracle/), one hop to the
        // code
        for (const inv of o.checks.filter((x) => x.status === 'failed' && /-INV-/.test(x.id)))
          expect(inv.error, inv.id).toMatch(/judged by: helpers\/oracle\/[\w-]+\.ts:\d+ /)
      })
    }
  },
)
