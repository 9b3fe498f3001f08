import { describe, expect, it } from 'vitest'
import { SchemaCompiler } from '../../../common/data/schema-compiler'

const schema = () => ({
  $id: 'product',
  type: 'object',
  required: ['at'],
  properties: { at: { type: 'string', format: 'date' } },
})

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

  it('compiles a schema by the draft it declares: 2020-12 and 2019-09 keywords apply, draft-07 keeps its own', () => {
    const c = new SchemaCompiler()
    const tuple = { prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false }
    const v2020 = c.compile({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', ...tuple })
    expect(v2020(['a', 1])).toBe(true)
    expect(v2020(['a', 'b'])).toBe(false)
    expect(v2020(['a', 1, 2])).toBe(false)
    const dep = { type: 'object', dependentRequired: { dateExpiry: ['dateInception'] } }
    expect(c.compile({ $schema: 'https://json-schema.org/draft/2019-09/schema', ...dep })({ dateExpiry: 'x' })).toBe(
      false,
    )
    // draft-07 does not know dependentRequired: ignored, as the draft says
    expect(c.compile({ $schema: 'http://json-schema.org/draft-07/schema#', ...dep })({ dateExpiry: 'x' })).toBe(true)
    expect(c.compile({ ...dep })({ dateExpiry: 'x' })).toBe(true)
  })
})
