import { describe, expect, it } from 'vitest'
import { withSkipReason } from '../../../runner/vitest/allure-reporter'
import { SKIP_REASON_LABEL } from '../../../common/report-labels'

describe('Allure: a skipped check carries its reason', () => {
  it("the skip-reason label becomes the skipped result's status message, and is not kept as a label", () => {
    const r = {
      status: 'skipped',
      statusDetails: {},
      labels: [
        { name: 'checkId', value: 'SL-SCH-002' },
        { name: SKIP_REASON_LABEL, value: 'not applicable: no restricted user' },
      ],
    }
    withSkipReason(r)
    expect(r.statusDetails).toEqual({ message: 'not applicable: no restricted user' })
    expect(r.labels.map((l) => l.name)).toEqual(['checkId'])
  })

  it('a result that is not skipped keeps its own status message', () => {
    const r = {
      status: 'failed',
      statusDetails: { message: '[X] expected 200' },
      labels: [{ name: SKIP_REASON_LABEL, value: 'x' }],
    }
    withSkipReason(r)
    expect(r.statusDetails.message).toBe('[X] expected 200')
    expect(r.labels).toEqual([])
  })
})
