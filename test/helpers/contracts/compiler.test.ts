import { describe, expect, it } from 'vitest'
import { SchemaCompiler } from '../../../helpers/contracts/compiler'

const schema = () => ({ $id: 'product', type: 'object', required: ['at'], properties: { at: { type: 'string', format: 'date' } } })

describe('SchemaCompiler', () => {
  it('validates with formats and all errors', () => {
    const v = new SchemaCompiler().compile(schema())
    expect(v({ at: '2026-02-01' })).toBe(true)
    expect(v({ at: 'soon' })).toBe(false)
    expect(v.errors?.[0]?.message).toMatch(/must match format "date"/)
  })

  it('gives the same validator for the same schema and for an equal copy', () => {
    const c = new SchemaCompiler()
    const s = schema()
    const v = c.compile(s)
    expect(c.compile(s)).toBe(v)
    expect(c.compile(schema())).toBe(v)
  })

  it('shares validators between compilers (a pure function of the schema text)', () => {
    expect(new SchemaCompiler().compile(schema())).toBe(new SchemaCompiler().compile(schema()))
  })

  it('compiles a different schema under an $id already used, without a clash', () => {
    const c = new SchemaCompiler()
    const a = c.compile(schema())
    const b = c.compile({ ...schema(), required: [] })
    expect(b).not.toBe(a)
    expect(a({})).toBe(false)
    expect(b({})).toBe(true)
  })

  it('throws on a schema that does not compile', () => {
    expect(() => new SchemaCompiler().compile({ type: 'object', properties: { x: { $ref: '#/nowhere' } } })).toThrow()
  })
})
