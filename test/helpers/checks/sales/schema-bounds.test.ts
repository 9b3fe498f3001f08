import { describe, expect, it } from 'vitest'
import {
  addBoundedOptionals,
  keyNames,
  pastBounds,
  repeatItems,
  setAtBounds,
} from '../../../../helpers/checks/sales/schema-bounds'

const schema = {
  type: 'object',
  properties: {
    n: { type: 'integer', minimum: 1, maximum: 9 },
    x: { type: 'number', minimum: 0.5, maximum: 2 },
    s: { type: 'string', minLength: 2, maxLength: 4 },
    p: { type: 'string', minLength: 2, pattern: '^a+$' },
    e: { type: 'integer', enum: [1, 2], minimum: 1 },
    list: {
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: { type: 'object', properties: { v: { type: 'integer', minimum: 10, maximum: 20 } } },
    },
  },
}
const doc = () => ({ n: 5, x: 1, s: 'abc', p: 'aaa', e: 1, list: [{ v: 15 }, { v: 16 }] })

describe('schema bounds (issue 39)', () => {
  it('sets every carried value at its upper or lower bound, and cuts lists to their minItems', () => {
    const up = doc()
    expect(setAtBounds(schema, up, 'upper').map((b) => `${b.pointer} ${b.keyword}`)).toEqual([
      '/n maximum',
      '/x maximum',
      '/s maxLength',
      '/list/0/v maximum',
      '/list/1/v maximum',
    ])
    expect(up).toEqual({ n: 9, x: 2, s: 'abca', p: 'aaa', e: 1, list: [{ v: 20 }, { v: 20 }] })
    const low = doc()
    setAtBounds(schema, low, 'lower')
    expect(low).toEqual({ n: 1, x: 0.5, s: 'ab', p: 'aaa', e: 1, list: [{ v: 10 }] })
  })

  it('gives one value just past each bound, the first item standing for a list', () => {
    const past = pastBounds(schema, doc()).map((b) => [b.pointer, b.keyword, b.value, b.shrinks])
    expect(past).toEqual([
      ['/n', 'minimum', 0, false],
      ['/n', 'maximum', 10, false],
      ['/x', 'minimum', 0.49, false],
      ['/x', 'maximum', 2.01, false],
      ['/s', 'minLength', 'a', false],
      ['/s', 'maxLength', 'abcab', false],
      ['/list', 'minItems', [], true],
      ['/list', 'maxItems', [{ v: 15 }, { v: 16 }, { v: 15 }, { v: 16 }], false],
      ['/list/0/v', 'minimum', 9, false],
      ['/list/0/v', 'maximum', 21, false],
    ])
  })

  it('repeats an item of a list of values only where the schema does not ask for unique items', () => {
    const s = {
      type: 'object',
      properties: {
        a: { type: 'array', items: { type: 'string' } },
        u: { type: 'array', uniqueItems: true, items: { type: 'string' } },
        full: { type: 'array', maxItems: 1, items: { type: 'string' } },
        objs: { type: 'array', items: { type: 'object' } },
      },
    }
    const d = { a: ['x', 'y'], u: ['x'], full: ['x'], objs: [{}] }
    expect(repeatItems(s, d)).toEqual(['/a'])
    expect(d).toEqual({ a: ['x', 'y', 'x'], u: ['x'], full: ['x'], objs: [{}] })
  })

  it('adds the optional fields that have a bound, inside it, except read-only ones and constrained strings', () => {
    const s = {
      type: 'object',
      properties: {
        n: { type: 'integer', maximum: 9 },
        m: { type: 'number', minimum: 2 },
        s: { type: 'string', minLength: 3, maxLength: 9 },
        t: { type: 'string', maxLength: 9 },
        p: { type: 'string', maxLength: 9, pattern: '^b$' },
        id: { type: 'string', readOnly: true, maxLength: 9 },
        here: { type: 'integer', minimum: 0 },
      },
    }
    const d: Record<string, unknown> = { here: 5 }
    expect(addBoundedOptionals(s, d)).toEqual(['/n', '/m', '/s', '/t'])
    expect(d).toEqual({ here: 5, n: 9, m: 2, s: 'aaa', t: 'a' })
  })

  it('counts the length of a string in code points, as JSON Schema does', () => {
    const s = { type: 'object', properties: { s: { type: 'string', minLength: 2, maxLength: 3 } } }
    const d = { s: '😀x' }
    setAtBounds(s, d, 'upper')
    expect(d.s).toBe('😀x😀')
    expect(pastBounds(s, { s: '😀x' }).map((b) => b.value)).toEqual(['😀', '😀x😀x'])
  })

  it('matches the error keys that name a field', () => {
    expect(keyNames('list.0.v', '/list/0/v')).toBe(true)
    expect(keyNames('list[0].v', '/list/0/v')).toBe(true)
    expect(keyNames('/list/0/v', '/list/0/v')).toBe(true)
    expect(keyNames('list.v', '/list/0/v')).toBe(true)
    expect(keyNames('list.0.w', '/list/0/v')).toBe(false)
  })
})
