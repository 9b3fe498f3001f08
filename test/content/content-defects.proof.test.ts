import { describe, expect, it } from 'vitest'
import { CONTENT_DEFECTS } from '../../reference/defects/content'
import { MODEL_CASES } from '../../scripts/explore/model-cases'
import { runAgainstReferences } from '../../scripts/harness/reference-batch'
import { variationOptions } from '../../reference/variations/catalogue'
import { defectBatches, expectCaught } from '../support/defect-batch'
import { limiter } from '../support/limiter'

const W = (name: string) => `suites/webhooks/${name}.test.ts`

/**
 * Issue 42's defects that a check catches (the notifications' data against their published example); the documents'
 * and the list's defects are the model's (SL-INV-040, SL-INV-041, WH-INV-040: their cases are in
 * scripts/explore/model-cases.ts, run by test/model/defects.proof.test.ts).
 */
const CASES: { defect: keyof typeof CONTENT_DEFECTS; file: string; mustFail: string[]; says: RegExp }[] = [
  {
    defect: 'webhooks-notification-key-renamed',
    file: W('delivery'),
    mustFail: ['WH-DLV-011'],
    says: /data\/documentId missing[\s\S]*data\/document_id not in the example/,
  },
  {
    defect: 'webhooks-notification-number-as-string',
    file: W('delivery'),
    mustFail: ['WH-DLV-011'],
    says: /data\/rules: string instead of number/,
  },
  {
    defect: 'webhooks-notification-nesting-flattened',
    file: W('delivery'),
    mustFail: ['WH-DLV-011'],
    says: /data\/fields missing[\s\S]*data\/fields\.policyNo not in the example/,
  },
]

const limit = limiter(2)
const outcome = defectBatches(CASES, limit)

describe("what is inside is judged: documents as files, notifications against their event type's example", () => {
  it('every content defect has a case here or in the model cases', () => {
    const model = MODEL_CASES.filter((c) => Object.hasOwn(CONTENT_DEFECTS, c.defect)).map((c) => c.defect)
    expect(new Set([...CASES.map((c) => c.defect), ...model])).toEqual(new Set(Object.keys(CONTENT_DEFECTS)))
  })

  for (const c of CASES) {
    it.concurrent(`${c.defect} is caught by ${c.mustFail.join(', ')}, naming the place that differs`, {
      timeout: 600_000,
    }, async () => {
      const o = await outcome(c)
      expectCaught(o, c.mustFail)
      const failed = o.checks.find((x) => x.id === c.mustFail[0])
      expect(failed?.error).toMatch(c.says)
      // the delivery lifecycle's other checks still run: the example's check is its last step and blocks nothing
      expect(o.checks.filter((x) => x.status === 'blocked').map((x) => x.id)).toEqual([])
    })
  }

  it.concurrent('extra keys in notification data are allowed by default and reported as a deviation', {
    timeout: 600_000,
  }, async () => {
    const { variations: _names, ...options } = variationOptions(['notification-extra-keys'])
    const batch = await limit(() => runAgainstReferences([{ options, name: 'extra-keys' }], { files: [W('delivery')] }))
    const report = batch.reports[0]
    expect(
      report?.checks.filter((x) => ['failed', 'errored', 'blocked'].includes(x.status)).map((x) => x.id),
      batch.run.output.slice(-2000),
    ).toEqual([])
    const check = report?.checks.find((x) => x.id === 'WH-DLV-011')
    expect(check?.status).toBe('passed')
    expect(check?.deviations?.map((d) => d.id)).toContain('notification-extra-keys')
  })
})
