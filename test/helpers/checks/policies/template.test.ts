import { describe, expect, it } from 'vitest'
import { deepMerge, fillTemplate } from '../../../../helpers/checks/policies/template'

describe('policy request templates', () => {
  it('replaces a whole-string placeholder with the typed value and an embedded one with text', () => {
    const out = fillTemplate(
      { a: '{{amount}}', b: 'ref-{{tag}}', c: ['{{obj}}'], d: 3, e: null },
      { amount: 12.5, tag: 'x', obj: { k: 1 } },
    )
    expect(out).toEqual({ a: 12.5, b: 'ref-x', c: [{ k: 1 }], d: 3, e: null })
  })

  it('refuses an unknown variable, naming it', () => {
    expect(() => fillTemplate({ a: '{{nope}}' }, { amount: 1 })).toThrow(/\{\{nope\}\} is not defined/)
  })

  it('does not share structure with the variables', () => {
    const obj = { k: 1 }
    const out = fillTemplate('{{obj}}', { obj }) as { k: number }
    out.k = 2
    expect(obj.k).toBe(1)
  })

  it('merges objects deeply and replaces arrays and scalars', () => {
    expect(deepMerge({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, e: 2 })).toEqual({
      a: { b: 1, c: [3] },
      d: 1,
      e: 2,
    })
    expect(deepMerge({ a: 1 }, undefined)).toEqual({ a: 1 })
  })
})
