import { describe, expect, it } from 'vitest'
import { describeShapeDifference, shapeDifferences } from '../../../helpers/oracle/example-shape'

const example = { documentId: 'doc-123', fields: { policyNo: 'P-0001', premium: 500 }, tags: [{ k: 'a' }], note: null }

describe('a value against the structure of a published example', () => {
  it('the same keys and JSON types at every level pass, whatever the values', () => {
    expect(
      shapeDifferences(example, {
        documentId: 'd-9',
        fields: { policyNo: 'X', premium: 1.5 },
        tags: [{ k: 'b' }, { k: 'c' }],
        note: 'any',
      }),
    ).toEqual([])
  })

  it('names a renamed key (missing, and the new one not in the example)', () => {
    const d = shapeDifferences(example, {
      document_id: 'd',
      fields: { policyNo: 'X', premium: 1 },
      tags: [],
      note: null,
    })
    expect(d.map(describeShapeDifference)).toEqual(['/documentId missing', '/document_id not in the example'])
  })

  it('names a number sent as a string, at its depth', () => {
    expect(shapeDifferences(example, { ...example, fields: { policyNo: 'X', premium: '500' } })).toEqual([
      { path: '/fields/premium', kind: 'type', expected: 'number', actual: 'string' },
    ])
  })

  it('names a nesting level changed, and judges arrays by their items', () => {
    const flat = shapeDifferences(example, {
      documentId: 'd',
      'fields.policyNo': 'X',
      tags: [{ k: 1 }],
      note: null,
    }).map(describeShapeDifference)
    expect(flat).toEqual([
      '/fields missing',
      '/tags/0/k: number instead of string',
      '/fields.policyNo not in the example',
    ])
    expect(shapeDifferences(example, { ...example, fields: [] }).map(describeShapeDifference)).toEqual([
      '/fields: array instead of object',
    ])
  })

  it('a null in the example says nothing of the type; an empty example array says nothing of the items', () => {
    expect(shapeDifferences({ a: null, b: [] }, { a: { x: 1 }, b: [1, 'two'] })).toEqual([])
  })

  it('escapes keys as JSON pointer tokens', () => {
    expect(shapeDifferences({ 'a/b': 1 }, {}).map((d) => d.path)).toEqual(['/a~1b'])
  })
})
