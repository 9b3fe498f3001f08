import { describe, expect, it } from 'vitest'
import { getPointer } from '../../../helpers/data/json-pointer'

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
