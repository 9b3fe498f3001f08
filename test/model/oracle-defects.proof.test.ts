import { describe, expect, it } from 'vitest'
import { limiter } from '../support/limiter'
import { defectBatches, expectCaught } from '../support/defect-batch'
import { MODEL_CASES } from '../../scripts/explore/model-cases'
import { ORACLE_DEFECTS } from '../../reference/defects/oracle'
import { INVARIANTS } from '../../helpers/oracle/invariants'

const CASES = MODEL_CASES.filter((c) => c.area === 'oracle')
const limit = limiter(2)
const outcome = defectBatches(CASES, limit)

/** The answer oracle's own range of invariants (issue 39). */
const RANGE = /^(SL|PL|WH)-INV-0[23]\d$/

/**
 * The answer oracle (issue 39): each defect of reference/defects/oracle.ts (a write's or a read's answer carrying a
 * value its source does not give: echo, state, rule, agreement) is caught by an invariant of the answer model, in the
 * default run of one suite file against the reference with that defect. The faithful runs are the area proofs'.
 */
describe('the answer oracle catches a wrong field in the answers of writes and reads', () => {
  it('every oracle defect has a case, and every invariant of the range is shown failing by one', () => {
    expect(new Set(CASES.map((c) => c.defect))).toEqual(new Set(Object.keys(ORACLE_DEFECTS)))
    const shown = new Set(CASES.flatMap((c) => c.mustFail))
    expect(INVARIANTS.filter((i) => RANGE.test(i.id) && !shown.has(i.id)).map((i) => i.id)).toEqual([])
  })

  for (const c of CASES) {
    it.concurrent(`${c.defect} is caught in ${c.file} by ${c.mustFail.join(', ')}`, { timeout: 600_000 }, async () => {
      const o = await outcome(c)
      expectCaught(o, c.mustFail)
      // the finding names the field (its JSON path), the source kind, expected and actual
      for (const inv of o.checks.filter((x) => x.status === 'failed' && RANGE.test(x.id))) {
        expect(inv.error, inv.id).toMatch(/judged by: helpers\/oracle\/answer-model\.ts:\d+ /)
        expect(inv.error, inv.id).toMatch(/expected: \/[\w/*:-]+ \((echo|state|rule|agreement)\) = /)
      }
    })
  }
})
