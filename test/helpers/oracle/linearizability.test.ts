import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  checkOperations,
  checkPartitions,
  type Model,
  type Operation,
} from '../../../helpers/oracle/linearizability/checker'
import {
  issueModel,
  moneyModel,
  quoteDataModel,
  subscriptionModel,
  type QuoteInput,
  type QuoteOutput,
} from '../../../helpers/oracle/linearizability/models'
import { timelineHtml, timelineText } from '../../../helpers/oracle/linearizability/timeline'
import { leavesOf } from '../../../helpers/oracle/leaves'

/** The classic register: put(v) writes, get answers the value last written (0 at first). */
type RegIn = { put: number } | { get: true }
const register: Model<number, RegIn, number | undefined> = {
  name: 'register',
  init: () => 0,
  step: (s, i, o) => ('put' in i ? i.put : o === s ? s : undefined),
  key: (s) => String(s),
  describeOperation: (i, o) => ('put' in i ? `put ${i.put}` : `get -> ${o}`),
  describeState: (s) => `value ${s}`,
  explain: (s, i, o) => ('get' in i && o !== s ? `got ${o}, the register held ${s}` : undefined),
}

let ids = 0
const op = <I, O>(caller: string, input: I, output: O, call: number, ret: number): Operation<I, O> => ({
  id: ids++,
  caller,
  input,
  output,
  call,
  ret,
})

describe('the linearizability checker (Wing-Gong / Lowe, as Porcupine)', () => {
  it('a register history with overlapping operations that some order explains is linearizable', () => {
    const h = [
      op('a', { put: 1 }, undefined, 0, 10),
      op('b', { get: true } as RegIn, 1, 5, 15),
      op('c', { get: true } as RegIn, 0, 1, 3),
    ]
    const r = checkOperations(register, h)
    expect(r.result).toBe('ok')
    // the get that answered 0 went before the put, the one that answered 1 after
    if (r.result === 'ok') expect(r.order).toEqual([2, 0, 1])
  })

  it('a read that comes after a completed write and misses it is not linearizable (real-time order)', () => {
    const h = [op('a', { put: 1 }, undefined, 0, 5), op('b', { get: true } as RegIn, 0, 6, 10)]
    const r = checkOperations(register, h)
    expect(r.result).toBe('illegal')
  })

  it('the same answers with the read overlapping the write are linearizable', () => {
    const h = [op('a', { put: 1 }, undefined, 0, 7), op('b', { get: true } as RegIn, 0, 6, 10)]
    expect(checkOperations(register, h).result).toBe('ok')
  })

  it('finds an order that needs backtracking (the first order tried fails)', () => {
    // put 1 and put 2 overlap; a later get answers 1: only "put 2, put 1, get" explains it, and the search tries put 1
    // first
    const h = [
      op('a', { put: 1 }, undefined, 0, 10),
      op('b', { put: 2 }, undefined, 1, 10),
      op('c', { get: true } as RegIn, 1, 11, 12),
    ]
    const r = checkOperations(register, h)
    expect(r.result).toBe('ok')
    if (r.result === 'ok') expect(r.order).toEqual([1, 0, 2])
    expect(r.steps).toBeGreaterThan(3)
  })

  it('reports the longest partial orders of an illegal history, for the timeline', () => {
    const h = [
      op('a', { put: 1 }, undefined, 0, 10),
      op('b', { put: 2 }, undefined, 1, 10),
      op('c', { get: true } as RegIn, 3, 11, 12),
    ]
    const r = checkOperations(register, h)
    expect(r.result).toBe('illegal')
    if (r.result !== 'illegal') return
    expect(r.partials.some((p) => p.length === 2)).toBe(true)
    const text = timelineText({ resource: 'r1', model: register, ops: h, outcome: r })
    expect(text).toMatch(/NOT linearizable/)
    expect(text).toMatch(/#0 \|=+ *\| a: put 1/)
    expect(text).toMatch(/overlapping: #0~#1/)
    expect(text).toMatch(/then #2 cannot follow: got 3, the register held [12]/)
    const html = timelineHtml({ resource: 'r1', model: register, ops: h, outcome: r })
    expect(html).toMatch(/^<figure class="timeline"/)
    expect(html).toContain('orders-tried')
    expect(html).toContain('get -&gt; 3')
  })

  it('answers unknown, never a verdict, when its budget is spent', () => {
    // many overlapping puts and a get no order explains: the search must try them all
    const h = [
      ...Array.from({ length: 14 }, (_, i) => op(`c${i}`, { put: i + 1 } as RegIn, undefined, 0, 100)),
      op('r', { get: true } as RegIn, 99, 101, 102),
    ]
    const r = checkOperations(register, h, { maxSteps: 500, maxMs: 10_000 })
    expect(r.result).toBe('unknown')
    expect(checkOperations(register, h, { maxSteps: 5_000_000, maxMs: 60_000 }).result).toBe('illegal')
  })

  it('checks each resource on its own (P-compositionality) and is illegal when one is', () => {
    const ok = [op('a', { put: 1 }, undefined, 0, 10)]
    const bad = [op('a', { put: 1 }, undefined, 0, 5), op('b', { get: true } as RegIn, 0, 6, 10)]
    expect(checkPartitions([{ key: 'x', model: register, ops: ok }]).result).toBe('ok')
    const r = checkPartitions([
      { key: 'x', model: register, ops: ok },
      { key: 'y', model: register, ops: bad },
    ])
    expect(r.result).toBe('illegal')
    expect(r.partitions.at(-1)?.partition.key).toBe('y')
  })
})

/**
 * A sequential run of a register with random real-time overlaps: each operation's interval holds its linearization
 * point.
 */
const registerHistory = fc
  .array(
    fc.record({
      put: fc.boolean(),
      value: fc.integer({ min: 1, max: 5 }),
      before: fc.integer({ min: 0, max: 30 }),
      after: fc.integer({ min: 0, max: 30 }),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((steps) => {
    let value = 0
    return steps.map((s, i) => {
      const point = i * 10
      const input: RegIn = s.put ? { put: s.value } : { get: true }
      const output = s.put ? undefined : value
      if (s.put) value = s.value
      return { id: i, caller: `c${i % 3}`, input, output, call: point - s.before, ret: point + s.after }
    })
  })

describe('properties of the checker', () => {
  it('a history made by running the sequential model, with random overlaps, is always linearizable', () => {
    fc.assert(
      fc.property(registerHistory, (h) => checkOperations(register, h).result === 'ok'),
      { numRuns: 300 },
    )
  })

  it('a read corrupted to a value never written makes it not linearizable', () => {
    fc.assert(
      fc.property(registerHistory, fc.nat(), (h, pick) => {
        const reads = h.filter((o) => 'get' in o.input)
        fc.pre(reads.length > 0)
        const bad = reads[pick % reads.length]!
        const corrupted = h.map((o) => (o === bad ? { ...o, output: 99 } : o))
        return checkOperations(register, corrupted).result === 'illegal'
      }),
      { numRuns: 300 },
    )
  })

  it('the quote data model: merged updates with overlaps are linearizable; a read that lost a field is not', () => {
    const fields = ['a', 'b', 'c'] as const
    const quoteHistory = fc.array(
      fc.record({
        kind: fc.constantFrom('update', 'read', 'calculate'),
        field: fc.constantFrom(...fields),
        value: fc.integer({ min: 1, max: 9 }),
        before: fc.integer({ min: 0, max: 25 }),
        after: fc.integer({ min: 0, max: 25 }),
      }),
      { minLength: 1, maxLength: 10 },
    )
    fc.assert(
      fc.property(quoteHistory, fc.nat(), (steps, pick) => {
        let data: { a: number; b: number; c: number } = { a: 0, b: 0, c: 0 }
        const h: Operation<QuoteInput, QuoteOutput>[] = steps.map((s, i) => {
          const point = i * 10
          const at = { id: i, caller: `c${i % 2}`, call: point - s.before, ret: point + s.after }
          if (s.kind === 'update') {
            data = { ...data, [s.field]: s.value }
            return { ...at, input: { kind: 'update', patch: { [s.field]: s.value } }, output: { status: 'ok' } }
          }
          const premium = data.a * 100 + data.b * 10 + data.c
          return {
            ...at,
            input: { kind: s.kind },
            output: { status: 'ok', data: { ...data }, ...(s.kind === 'calculate' ? { premium } : {}) },
          }
        })
        const model = quoteDataModel(leavesOf({ a: 0, b: 0, c: 0 }))
        if (checkOperations(model, h).result !== 'ok') return false
        const reads = h.filter((o) => o.output.data !== undefined)
        if (reads.length === 0) return true
        const bad = reads[pick % reads.length]!
        // a field lost: the read shows a value no update ever wrote
        const lost = h.map((o) =>
          o === bad ? { ...o, output: { ...o.output, data: { ...(o.output.data as object), b: 42 } } } : o,
        )
        return checkOperations(model, lost).result === 'illegal'
      }),
      { numRuns: 200 },
    )
  })
})

describe('the sequential specifications', () => {
  it('two overlapping updates of disjoint fields: a later read must show both (a lost update is illegal)', () => {
    const m = quoteDataModel(leavesOf({ policy: { a: 1, b: 1 } }))
    const u1 = op(
      'w1',
      { kind: 'update', patch: { policy: { a: 2 } } } as QuoteInput,
      { status: 'ok' } as QuoteOutput,
      0,
      10,
    )
    const u2 = op(
      'w2',
      { kind: 'update', patch: { policy: { b: 2 } } } as QuoteInput,
      { status: 'ok' } as QuoteOutput,
      1,
      9,
    )
    const both = op(
      'r',
      { kind: 'read' } as QuoteInput,
      { status: 'ok', data: { policy: { a: 2, b: 2 } } } as QuoteOutput,
      20,
      21,
    )
    const lost = op(
      'r',
      { kind: 'read' } as QuoteInput,
      { status: 'ok', data: { policy: { a: 2, b: 1 } } } as QuoteOutput,
      20,
      21,
    )
    expect(checkOperations(m, [u1, u2, both]).result).toBe('ok')
    expect(checkOperations(m, [u1, u2, lost]).result).toBe('illegal')
    // one refused (the quote was locked by the other): the read shows only the other's field
    const refused = { ...u2, output: { status: 'refused' } as QuoteOutput }
    expect(checkOperations(m, [u1, refused, lost]).result).toBe('ok')
  })

  it('overlapping fields: either writer may win, but the read shows one of them whole', () => {
    const m = quoteDataModel(leavesOf({ policy: { a: 1, b: 1 } }))
    const u1 = op(
      'w1',
      { kind: 'update', patch: { policy: { a: 2, b: 2 } } } as QuoteInput,
      { status: 'ok' } as QuoteOutput,
      0,
      10,
    )
    const u2 = op(
      'w2',
      { kind: 'update', patch: { policy: { a: 3, b: 3 } } } as QuoteInput,
      { status: 'ok' } as QuoteOutput,
      1,
      9,
    )
    const read = (a: number, b: number) =>
      op('r', { kind: 'read' } as QuoteInput, { status: 'ok', data: { policy: { a, b } } } as QuoteOutput, 20, 21)
    expect(checkOperations(m, [u1, u2, read(2, 2)]).result).toBe('ok')
    expect(checkOperations(m, [u1, u2, read(3, 3)]).result).toBe('ok')
    expect(checkOperations(m, [u1, u2, read(2, 3)]).result).toBe('illegal')
  })

  it('a field an update removes (null) must read back absent; a torn mix of two writers is illegal', () => {
    const m = quoteDataModel(leavesOf({ policy: { a: 1, b: 1 } }))
    const u1 = op(
      'w1',
      { kind: 'update', patch: { policy: { a: 2, b: 2 } } } as QuoteInput,
      { status: 'ok' } as QuoteOutput,
      0,
      10,
    )
    const u2 = op(
      'w2',
      { kind: 'update', patch: { policy: { a: 1, b: null } } } as QuoteInput,
      { status: 'ok' } as QuoteOutput,
      1,
      9,
    )
    const read = (policy: object) =>
      op('r', { kind: 'read' } as QuoteInput, { status: 'ok', data: { policy } } as QuoteOutput, 20, 21)
    expect(checkOperations(m, [u1, u2, read({ a: 1 })]).result).toBe('ok')
    expect(checkOperations(m, [u1, u2, read({ a: 2, b: 2 })]).result).toBe('ok')
    expect(checkOperations(m, [u1, u2, read({ a: 1, b: 2 })]).result).toBe('illegal')
  })

  it('a calculation answers the premium of the data at its moment (cross-talk is illegal)', () => {
    const m = quoteDataModel(leavesOf({ x: 1 }))
    const c0 = op('s', { kind: 'calculate' } as QuoteInput, { status: 'ok', premium: 100 } as QuoteOutput, 0, 1)
    const c1 = op('p', { kind: 'calculate' } as QuoteInput, { status: 'ok', premium: 100 } as QuoteOutput, 5, 8)
    const other = op('p', { kind: 'calculate' } as QuoteInput, { status: 'ok', premium: 250 } as QuoteOutput, 5, 8)
    expect(checkOperations(m, [c0, c1]).result).toBe('ok')
    expect(checkOperations(m, [c0, other]).result).toBe('illegal')
    // an update overlapping: the calculation may have seen the new data
    const u = op('w', { kind: 'update', patch: { x: 2 } } as QuoteInput, { status: 'ok' } as QuoteOutput, 4, 9)
    expect(checkOperations(m, [c0, u, other]).result).toBe('ok')
  })

  it('a bound quote makes one policy at most, whatever number of issues were accepted', () => {
    const a = op('i1', { kind: 'issue' } as const, { status: 'accepted', request: 'r1' } as const, 0, 5)
    const b = op('i2', { kind: 'issue' } as const, { status: 'accepted', request: 'r2' } as const, 1, 5)
    const s1 = op(
      'p',
      { kind: 'outcome', request: 'r1' } as const,
      { status: 'success', policy: 'P1' } as const,
      10,
      11,
    )
    const s2 = op(
      'p',
      { kind: 'outcome', request: 'r2' } as const,
      { status: 'success', policy: 'P2' } as const,
      12,
      13,
    )
    const f2 = op('p', { kind: 'outcome', request: 'r2' } as const, { status: 'failure' } as const, 12, 13)
    expect(checkOperations(issueModel, [a, b, s1, f2]).result).toBe('ok')
    expect(checkOperations(issueModel, [a, b, s1, s2]).result).toBe('illegal')
  })

  it('money: an allocation and a credit overlapping leave paid moved by both, in any order', () => {
    const t0 = op('s', { kind: 'totals' } as const, { status: 'ok', paidCents: 1000 } as const, 0, 1)
    const al = op('a', { kind: 'allocate', cents: 300 } as const, { status: 'ok' } as const, 2, 8)
    const cr = op('c', { kind: 'credit', cents: 500 } as const, { status: 'ok' } as const, 3, 7)
    const read = (paidCents: number) =>
      op('s', { kind: 'totals' } as const, { status: 'ok', paidCents } as const, 10, 11)
    expect(checkOperations(moneyModel, [t0, al, cr, read(800)]).result).toBe('ok')
    expect(checkOperations(moneyModel, [t0, al, cr, read(1300)]).result).toBe('illegal')
  })

  it(
    'a subscription updated and deleted at once: deleted afterwards, and an update answered ok may come first ' +
      'only',
    () => {
      const m = subscriptionModel({ event: 'extracted', url: 'https://a' })
      const up = op('u', { kind: 'update', fields: { url: 'https://b' } } as const, { status: 'ok' } as const, 0, 10)
      const del = op('d', { kind: 'delete' } as const, { status: 'ok' } as const, 1, 9)
      const gone = op('g', { kind: 'get' } as const, { status: 'not-found' } as const, 20, 21)
      const alive = op(
        'g',
        { kind: 'get' } as const,
        { status: 'ok', event: 'extracted', url: 'https://b' } as const,
        20,
        21,
      )
      expect(checkOperations(m, [up, del, gone]).result).toBe('ok')
      expect(checkOperations(m, [up, del, alive]).result).toBe('illegal')
      // the update after the delete must be 404
      const late = op('u', { kind: 'update', fields: { url: 'https://c' } } as const, { status: 'ok' } as const, 11, 12)
      expect(checkOperations(m, [del, late]).result).toBe('illegal')
    },
  )
})
