import { describe, expect, it } from 'vitest'
import {
  addCent,
  alterString,
  IdMemory,
  isIdField,
  leafPaths,
  otherId,
  pathSegments,
  PERTURBATION_KINDS,
  PERTURBATION_MEANING,
  perturbAt,
  perturbationKind,
  perturbValue,
  shiftDate,
  shiftDateTime,
  visitLeaves,
} from '../../reference/variations/field-paths'

describe('field paths: the leaves of an answer', () => {
  it('names every leaf by a JSON pointer with array items as *, empty containers as leaves', () => {
    const body = {
      data: {
        id: 7,
        items: [
          { a: 1, b: [] },
          { a: 2, c: null },
        ],
        tags: ['x', 'y'],
        meta: {},
      },
      ok: true,
    }
    expect(leafPaths(body)).toEqual([
      '/data/id',
      '/data/items/*/a',
      '/data/items/*/b',
      '/data/items/*/c',
      '/data/meta',
      '/data/tags/*',
      '/ok',
    ])
  })

  it('visits every value, once per array item, and a scalar root as the empty path', () => {
    const seen: [string, unknown][] = []
    visitLeaves([{ n: 1 }, { n: 2 }], (p, v) => seen.push([p, v]))
    expect(seen).toEqual([
      ['/*/n', 1],
      ['/*/n', 2],
    ])
    const root: string[] = []
    visitLeaves(42, (p) => root.push(p))
    expect(root).toEqual([''])
  })

  it('escapes / and ~ in keys (RFC 6901) and reads them back', () => {
    const paths = leafPaths({ errors: { 'policy/date': ['bad'], 'a~b': 1 } })
    expect(paths).toEqual(['/errors/a~0b', '/errors/policy~1date/*'])
    expect(pathSegments(paths[1]!)).toEqual(['errors', 'policy/date', '*'])
    expect(() => pathSegments('data/id')).toThrow(/starts with \//)
  })
})

describe('field paths: the kind of perturbation of a value', () => {
  it('is chosen by the type and size of the value, and an id by the name of its field', () => {
    expect(perturbationKind('/policy/dateInception', '2026-01-31')).toBe('date')
    expect(perturbationKind('/createdAt', '2026-01-31T10:00:00.000Z')).toBe('date-time')
    expect(perturbationKind('/data/id', 100042)).toBe('id')
    expect(perturbationKind('/data/policyId', '100042')).toBe('id')
    expect(perturbationKind('/data/quoteIds/*', 5)).toBe('id')
    expect(perturbationKind('/data/count', 3)).toBe('integer')
    expect(perturbationKind('/data/premium', 120.5)).toBe('decimal')
    expect(perturbationKind('/ok', false)).toBe('boolean')
    expect(perturbationKind('/status', 'calculated')).toBe('string')
    expect(perturbationKind('/note', null)).toBe('drop')
    expect(perturbationKind('/list', [])).toBe('drop')
    expect(perturbationKind('/valid', 'valid')).toBe('string')
    // a name that merely contains "id" is no id
    expect(isIdField('/data/valid')).toBe(false)
    expect(isIdField('/data/paid')).toBe(false)
    expect(isIdField('/data/subscription_id')).toBe(true)
    // an impossible date is a string
    expect(perturbationKind('/x', '2026-13-45')).toBe('string')
  })

  it('has a meaning for every kind', () => {
    for (const k of PERTURBATION_KINDS) expect(PERTURBATION_MEANING[k]).toMatch(/\w/)
  })
})

describe('field paths: each perturbation', () => {
  it('moves a date one day, over month and year ends', () => {
    expect(shiftDate('2026-01-31')).toBe('2026-02-01')
    expect(shiftDate('2026-12-31')).toBe('2027-01-01')
    expect(shiftDate('2028-02-28')).toBe('2028-02-29')
  })

  it('moves a date-time one hour, keeping its precision and offset', () => {
    expect(shiftDateTime('2026-11-28T10:36:21.269Z')).toBe('2026-11-28T11:36:21.269Z')
    expect(shiftDateTime('2026-12-31T23:30:00Z')).toBe('2027-01-01T00:30:00Z')
    expect(shiftDateTime('2026-11-28T10:36+01:00')).toBe('2026-11-28T11:36+01:00')
    expect(Date.parse(shiftDateTime('2026-03-01T00:00:00.5+05:30')) - Date.parse('2026-03-01T00:00:00.5+05:30')).toBe(
      3_600_000,
    )
  })

  it('alters a string at its last letter or digit, keeping its length and the class of the character', () => {
    expect(alterString('calculated')).toBe('calculatee')
    expect(alterString('ABZ')).toBe('ABA')
    expect(alterString('P-0009')).toBe('P-0000')
    expect(alterString('done.')).toBe('donf.')
    expect(alterString('')).toBe('x')
    expect(alterString('--')).toBe('--x')
  })

  it('adds a cent to a decimal without float noise', () => {
    expect(addCent(0.1)).toBe(0.11)
    expect(addCent(120.5)).toBe(120.51)
    expect(addCent(19.99)).toBe(20)
    expect(addCent(0.0825)).toBe(0.0925)
  })

  it('changes an id to another of the same shape', () => {
    expect(otherId(100042)).toBe(100043)
    expect(otherId('100042')).toBe('100043')
    expect(otherId('0099')).toBe('0100')
    expect(otherId('999')).toBe('990')
    expect(otherId('b117d998-b0a9-4025-af61-04b94df41e95')).toBe('b117d998-b0a9-4025-af61-04b94df41e96')
  })

  it('gives every kind a different value (or none: dropped)', () => {
    expect(perturbValue('/n', 41)).toEqual({ kind: 'integer', value: 42 })
    expect(perturbValue('/ok', true)).toEqual({ kind: 'boolean', value: false })
    expect(perturbValue('/d', '2026-01-01')).toEqual({ kind: 'date', value: '2026-01-02' })
    expect(perturbValue('/x', null)).toEqual({ kind: 'drop', value: undefined })
  })
})

describe('field paths: perturbAt', () => {
  it('perturbs every value at the path, through every array item, and leaves the input as it was', () => {
    const body = {
      data: {
        invoices: [
          { amount: 10.5, no: 'I-1' },
          { amount: 20, no: 'I-2' },
        ],
      },
    }
    const before = JSON.stringify(body)
    const r = perturbAt(body, '/data/invoices/*/amount')
    expect(r.count).toBe(2)
    expect(r.value).toEqual({
      data: {
        invoices: [
          { amount: 10.51, no: 'I-1' },
          { amount: 21, no: 'I-2' },
        ],
      },
    })
    expect(r.first).toEqual({ kind: 'decimal', before: 10.5, after: 10.51 })
    expect(JSON.stringify(body)).toBe(before)
  })

  it('drops a null field from its object, and an item from its array', () => {
    expect(perturbAt({ a: 1, note: null }, '/note').value).toEqual({ a: 1 })
    expect(perturbAt({ list: [null, 2, null] }, '/list/*').value).toEqual({ list: [3] })
  })

  it('with an IdMemory, an id becomes one the same place showed before; the first one the next id', () => {
    const ids = new IdMemory()
    // the first answer: nothing shown yet, the next id
    expect(perturbAt({ event_id: 100024 }, '/event_id', ids).value).toEqual({ event_id: 100025 })
    // a later answer: the id the client was shown first (an id the run was given before, not a new one)
    expect(perturbAt({ event_id: 100031 }, '/event_id', ids).value).toEqual({ event_id: 100025 })
    // never the value itself, and only an id of the same type
    expect(perturbAt({ event_id: 100025 }, '/event_id', ids).value).toEqual({ event_id: 100026 })
    expect(perturbAt({ event_id: '7' }, '/event_id', ids).value).toEqual({ event_id: '8' })
    // the items of one list: each the id shown for an earlier item
    expect(perturbAt({ quoteIds: ['11', '22'] }, '/quoteIds/*', new IdMemory()).value).toEqual({
      quoteIds: ['12', '12'],
    })
  })

  it('counts 0 and changes nothing when the path is not in the body', () => {
    const body = { data: [{ a: 1 }] }
    const r = perturbAt(body, '/data/*/b')
    expect(r.count).toBe(0)
    expect(r.value).toEqual(body)
    expect(perturbAt({ data: 'x' }, '/data/*/a').count).toBe(0)
  })
})
