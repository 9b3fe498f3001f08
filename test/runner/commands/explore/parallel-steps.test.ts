import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sendTogether } from '../../../../runner/commands/explore/parallel-steps'
import type { HttpResult } from '../../../../helpers/client/http/types'

/** Calls that record when they were sent and answer only once all of them were sent. */
function calls(n: number) {
  const sent: number[] = []
  let release!: () => void
  const allSent = new Promise<void>((r) => (release = r))
  const list = Array.from({ length: n }, (_, i) => async () => {
    sent.push(i)
    if (sent.length === n) release()
    await allSent
    return { status: 200 + i } as HttpResult
  })
  return { sent, list }
}

describe(
  "explore's parallel steps send in fast-check's scheduler order " + '(runner/commands/explore/parallel-steps.ts)',
  () => {
    it(
      'sends every call before any answer, answers in call order, and a clone of the scheduler sends in the same ' +
        'order',
      async () => {
        const orders = new Set<string>()
        for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
          const [s] = fc.sample(fc.scheduler(), { seed, numRuns: 1 })
          const copy = (s as unknown as { [fc.cloneMethod](): fc.Scheduler })[fc.cloneMethod]()
          const a = calls(3)
          // the calls answer only once all three were sent: awaiting one before sending the others would never end
          expect((await sendTogether(s!, a.list)).map((r) => r.status)).toEqual([200, 201, 202])
          const b = calls(3)
          await sendTogether(copy, b.list)
          expect(b.sent).toEqual(a.sent)
          orders.add(a.sent.join(','))
        }
        // the order is the scheduler's, drawn from the seed: not always the order of the list
        expect(orders.size).toBeGreaterThan(1)
      },
    )
  },
)
