import { describe, expect, it } from 'vitest'
import { perturbFields } from '../../scripts/mutation/fields/harness'
import { fieldClass } from '../../scripts/mutation/fields/record'
import type { FieldEntry } from '../../scripts/mutation/fields/types'

const FILE = 'suites/webhooks/lifecycle.test.ts'

function field(status: number, path: string, kind: FieldEntry['kind']): FieldEntry {
  const operation = 'webhooks.subscription.get'
  return {
    operation,
    status,
    path,
    key: `${operation} ${status} ${path}`,
    kind,
    class: fieldClass(operation),
    seen: 1,
    files: [FILE],
  }
}

describe('field-perturbation mutation end to end (4 fields of one operation, one suite file, one batch)', () => {
  it(
    'perturbs each field alone against its own reference, beside a faithful control, and classifies ' + 'each',
    async () => {
      const fields = [
        field(200, '/event', 'string'),
        field(200, '/createdAt', 'date-time'),
        field(404, '/message', 'string'),
        field(200, '/not-in-any-answer', 'string'),
      ]
      const { results, controlFailures } = await perturbFields(fields, {
        batch: 4,
        parallel: 1,
        timeoutMs: 240_000,
        baselineFailed: new Set(),
      })
      expect(controlFailures).toEqual([])
      const [event, createdAt, message, absent] = results
      // the subscription read back with another event than it was created with: the lifecycle's read fails
      expect(event!.outcome, JSON.stringify(event)).toBe('caught')
      expect(event!.newFailures.map((f) => f.id)).toContain('WH-LIFE-002')
      expect(event!.example).toMatchObject({ before: '"extracted"', after: '"extractee"' })
      expect(event!.example!.exchange).toMatch(/^GET \/api\/webhook\/subscription\/\S+ -> 200$/)
      expect(createdAt!.outcome, JSON.stringify(createdAt)).toBe('caught')
      expect(createdAt!.applied).toBeGreaterThan(0)
      // the 404's message: perturbed, and judged one way or the other (the oracle decides; this proves it is
      // classified)
      expect(message!.applied).toBeGreaterThan(0)
      expect(['caught', 'missed', 'inconclusive']).toContain(message!.outcome)
      // a path no answer has: nothing was perturbed, so it is not scored
      expect(absent!).toMatchObject({ outcome: 'not-exercised', applied: 0 })
    },
  )
})
