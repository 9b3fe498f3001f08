import { describe, expect, it } from 'vitest'
import { escapePointerToken, getPointer, valuesAt } from '../../../../helpers/client/data/json-pointer'

describe('getPointer', () => {
  const doc = { a: { 'b/c': [10, { 'd~e': 'x' }] } }
  it('follows RFC 6901 pointers with escapes', () => {
    expect(getPointer(doc, '/a/b~1c/0')).toBe(10)
    expect(getPointer(doc, '/a/b~1c/1/d~0e')).toBe('x')
    expect(getPointer(doc, '')).toBe(doc)
  })
  it('gives undefined for a missing step and rejects a bad pointer', () => {
    expect(getPointer(doc, '/a/zz/y')).toBeUndefined()
    expect(() => getPointer(doc, 'a')).toThrow(/must start with/)
  })
})

describe('valuesAt', () => {
  it('gives the value at each pointer, keyed by pointer', () => {
    expect(valuesAt({ a: { b: 1 }, c: [2] }, ['/a/b', '/c/0', '/x'])).toEqual({ '/a/b': 1, '/c/0': 2, '/x': undefined })
  })
})

describe('escapePointerToken', () => {
  it('escapes ~ before / (RFC 6901) and keeps a key without either as it is; getPointer reads it back', () => {
    expect(escapePointerToken('plain')).toBe('plain')
    expect(escapePointerToken('a/b~c')).toBe('a~1b~0c')
    expect(escapePointerToken('~1')).toBe('~01')
    const doc = { 'a/b~c': { '~1': 7 } }
    expect(getPointer(doc, `/${escapePointerToken('a/b~c')}/${escapePointerToken('~1')}`)).toBe(7)
  })
})
