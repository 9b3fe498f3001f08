import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { checkOperations, type Model, type Operation } from '../../../helpers/oracle/linearizability/checker'
import { shrinkHistory } from '../../../helpers/oracle/linearizability/shrink'
import {
  linearizationPoints,
  renderTimelineHtml,
  renderTimelineText,
  timelineRecord,
} from '../../../helpers/oracle/linearizability/timeline'

/** A register: put(v) writes, get answers the value last written (0 at first); a get changes nothing. */
type RegIn = { put: number } | { get: true }
const register: Model<number, RegIn, number | undefined> = {
  name: 'register',
  init: () => 0,
  step: (s, i, o) => ('put' in i ? i.put : o === s ? s : undefined),
  key: (s) => String(s),
  describeOperation: (i, o) => ('put' in i ? `put ${i.put}` : `get -> ${o}`),
  describeState: (s) => `value ${s}`,
  explain: (s, i, o) => ('get' in i && o !== s ? `got ${o}, the register held ${s}` : undefined),
  preserves: (i) => 'get' in i,
}
const op = (
  id: number,
  caller: string,
  input: RegIn,
  output: number | undefined,
  call: number,
  ret: number,
): Operation<RegIn, number | undefined> => ({ id, caller, input, output, call, ret })
const put = (id: number, v: number, call: number, ret: number, caller = `w${id}`) =>
  op(id, caller, { put: v }, undefined, call, ret)
const get = (id: number, v: number, call: number, ret: number, caller = `r${id}`) =>
  op(id, caller, { get: true }, v, call, ret)

describe(
  'a failing history shrunk to the fewest operations that still fail ' + '(helpers/oracle/linearizability/shrink.ts)',
  () => {
    it(
      'drops the reads no order needs and the tail that began after everything kept had answered; never a write ' +
        'inside',
      () => {
        // put 1 done, then a read that misses it (the failure), among reads that agree and later operations
        const h = [
          get(0, 0, 0, 1),
          put(1, 1, 2, 4),
          get(2, 1, 5, 6),
          get(3, 0, 7, 8),
          put(4, 2, 9, 10),
          get(5, 2, 11, 12),
        ]
        const outcome = checkOperations(register, h)
        expect(outcome.result).toBe('illegal')
        const s = shrinkHistory(register, h, outcome)
        expect(s.outcome.result).toBe('illegal')
        expect(s.ops.map((o) => o.id)).toEqual([1, 3])
        expect(s.dropped).toBe(
          '2 operation(s) that began after all the others had answered and 2 read(s) or refusal(s) no order needed',
        )
        const r = timelineRecord(
          { resource: 'r1', model: register, ops: s.ops, outcome: s.outcome },
          { total: h.length, dropped: s.dropped! },
        )
        expect(r).toMatchObject({
          resource: 'r1',
          model: 'register',
          result: 'illegal',
          total: 6,
          ops: [
            { n: 0, caller: 'w1', what: 'put 1' },
            { n: 1, caller: 'r3', what: 'get -> 0' },
          ],
        })
        expect(renderTimelineText(r)).toMatch(/shrunk: 2 of the 6 operations shown/)
      },
    )

    it('keeps a write a later read needs (dropping it would fail for a reason the history did not have)', () => {
      // put 1 then put 2 overlapping a get answering 1 ... and a final get answering 3: only the last get is wrong
      const h = [put(0, 1, 0, 2), put(1, 2, 3, 6), get(2, 1, 4, 5), get(3, 3, 7, 8)]
      const outcome = checkOperations(register, h)
      const s = shrinkHistory(register, h, outcome)
      expect(s.outcome.result).toBe('illegal')
      expect(s.ops.map((o) => o.id)).toEqual([0, 1, 3])
    })

    it(
      'property: whatever the history, the shrunk one is a sub-history that still fails, and a linearizable one is ' +
        'left alone',
      () => {
        const opArb = fc.tuple(
          fc.boolean(),
          fc.integer({ min: 0, max: 3 }),
          fc.integer({ min: 0, max: 40 }),
          fc.integer({ min: 1, max: 10 }),
        )
        fc.assert(
          fc.property(fc.array(opArb, { minLength: 1, maxLength: 7 }), (specs) => {
            const h = specs.map(([isPut, v, call, len], id) =>
              isPut ? put(id, v, call, call + len) : get(id, v, call, call + len),
            )
            const outcome = checkOperations(register, h)
            const s = shrinkHistory(register, h, outcome)
            if (outcome.result !== 'illegal') return s.ops.length === h.length && s.dropped === undefined
            return (
              checkOperations(register, s.ops).result === 'illegal' &&
              s.ops.every((o) => h.includes(o)) &&
              s.ops.length <= h.length
            )
          }),
          { seed: 41, numRuns: 300 },
        )
      },
    )
  },
)

describe('the timeline as data, drawn as lanes (helpers/oracle/linearizability/timeline.ts)', () => {
  const h = [put(0, 1, 0, 10, 'writer 1'), put(1, 2, 1, 10, 'writer 2'), get(2, 3, 11, 12, 'reader')]
  const outcome = checkOperations(register, h)
  const r = timelineRecord({ resource: 'quote 7', model: register, ops: h, outcome })

  it("places the longest order's linearization points within each operation, in order", () => {
    const points = linearizationPoints(r)
    const order = r.orders[0]!.order
    expect(order.length).toBe(2)
    let last = -1
    for (const n of order) {
      const at = points.get(n)!
      expect(at).toBeGreaterThanOrEqual(Math.max(last, r.ops[n]!.startMs))
      expect(at).toBeLessThanOrEqual(r.ops[n]!.endMs)
      last = at
    }
  })

  it(
    'renders one lane per caller, a bar per operation with what it asked and saw, the points, and the unplaced one ' +
      'outlined',
    () => {
      const html = renderTimelineHtml(r)
      expect(html.match(/<g class="lane"/g)).toHaveLength(3)
      expect(html.match(/<g class="op"/g)).toHaveLength(3)
      expect(html.match(/<g class="point"/g)).toHaveLength(2)
      expect(html).toContain('get -&gt; 3')
      expect(html).toContain('stroke="#c62828"')
      expect(html).toContain('#2 cannot follow: got 3, the register held')
    },
  )
})

describe("the shrunk history keeps its own order (the checker's orders index it)", () => {
  it('the orders tried after a tail was cut respect real time in the shrunk history', () => {
    // listed in another order than they were called: put 2 (called first) is listed after put 1; a wrong read; a later
    // put
    const h = [put(0, 1, 5, 6), put(1, 2, 0, 3), get(2, 9, 7, 8), put(3, 5, 20, 21)]
    const outcome = checkOperations(register, h)
    const s = shrinkHistory(register, h, outcome)
    expect(s.ops.map((o) => o.id)).toEqual([0, 1, 2])
    const r = timelineRecord({ resource: 'r', model: register, ops: s.ops, outcome: s.outcome })
    expect(r.orders.length).toBeGreaterThan(0)
    for (const o of r.orders) {
      // no operation of an order answered before the one before it in the order was called
      o.order.forEach(
        (n, i) => i > 0 && expect(r.ops[n]!.endMs).toBeGreaterThanOrEqual(r.ops[o.order[i - 1]!]!.startMs),
      )
    }
  })
})
