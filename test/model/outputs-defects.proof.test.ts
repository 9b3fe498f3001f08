import { describe, expect, it } from 'vitest'
import { limiter } from '../support/limiter'
import { defectBatches, expectCaught } from '../support/defect-batch'
import { MODEL_CASES } from '../../scripts/explore/model-cases'
import { OUTPUTS_DEFECTS } from '../../reference/defects/outputs'

const limit = limiter(2)
/**
 * The cases of the outputs defects (issue #37, item 7), each in a run of its suite file (test/support/defect-batch.ts).
 */
const CASES = MODEL_CASES.filter((c) => Object.hasOwn(OUTPUTS_DEFECTS, c.defect))
const outcome = defectBatches(CASES, limit)

/**
 * A number that is not finite (a literal beyond the range of a double, read as Infinity) is a finding on every answer:
 * each defect of reference/defects/outputs.ts is caught by the model's finite-numbers invariant named in its case.
 */
describe('numbers the model reads are finite, or the answer is a finding', () => {
  it('every outputs defect has a case', () => {
    expect(CASES.map((c) => c.defect).sort()).toEqual(Object.keys(OUTPUTS_DEFECTS).sort())
  })

  for (const c of CASES) {
    it.concurrent(`${c.defect} is caught in ${c.file} by ${c.mustFail.join(', ')}`, { timeout: 600_000 }, async () => {
      const o = await outcome(c)
      expectCaught(o, c.mustFail)
      const inv = o.checks.find((x) => x.id === c.mustFail[0])!
      expect(inv.error, inv.id).toMatch(/judged by: helpers\/oracle\/finite-numbers\.ts:\d+ /)
      expect(inv.error).toMatch(/not finite: \/\S+ \(-?1e999 read as -?Infinity\)/)
    })
  }
})
