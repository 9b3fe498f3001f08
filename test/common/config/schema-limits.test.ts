import { describe, expect, it } from 'vitest'
import { createAjv } from '../../../common/ajv'
import { RefusedPattern } from '../../../common/linear-regexp'
import { generatePayload, withoutReadOnly } from '../../../helpers/checks/sales/payload'
import {
  referenceProblems,
  SCHEMA_LIMITS,
  SchemaLimitError,
  schemaLimitProblems,
  withinDeadline,
} from '../../../common/config/schema-limits'

describe('schemas from the target are bounded', () => {
  it('validates a catastrophic pattern in linear time (RE2 engine) instead of backtracking', () => {
    const validate = createAjv().compile({ type: 'string', pattern: '^(a+)+$' })
    // 2^50 backtracking steps on a backtracking engine; one pass on RE2
    expect(validate(`${'a'.repeat(50)}!`)).toBe(false)
    expect(validate('aaaa')).toBe(true)
  })

  it('refuses a pattern the linear-time engine cannot run (backreference, lookahead)', () => {
    expect(() => createAjv().compile({ type: 'string', pattern: '^(a)\\1$' })).toThrow(RefusedPattern)
    expect(() => createAjv().compile({ type: 'string', pattern: '^(?=a)a$' })).toThrow(
      /refused: it cannot run on the linear-time engine/,
    )
  })

  it('names the size keywords beyond the caps and the schema too deep', () => {
    let deep: object = { type: 'string' }
    for (let i = 0; i < 100; i += 1) deep = { type: 'object', properties: { x: deep } }
    expect(
      schemaLimitProblems({
        properties: { name: { type: 'string', minLength: 300_000_000 }, tags: { type: 'array', minItems: 1e9 } },
      }),
    ).toEqual([
      "/properties/tags/minItems: 1000000000 exceeds the generator's cap of 1000",
      "/properties/name/minLength: 300000000 exceeds the generator's cap of 65536",
    ])
    expect(schemaLimitProblems({ type: 'string', pattern: '^a{300000000}$' })).toEqual([
      "/pattern: repetition {300000000} exceeds the generator's cap of 1000",
    ])
    expect(schemaLimitProblems(deep)[0]).toMatch(/nested deeper than 64 levels/)
  })

  it('refuses to generate from a hostile schema with a clear message', () => {
    expect(() =>
      generatePayload(
        { type: 'object', required: ['n'], properties: { n: { type: 'string', minLength: 300_000_000 } } },
        { seed: 1 },
      ),
    ).toThrow(/the product schema refused \(a hostile or broken schema\): \/properties\/n\/minLength: 300000000/)
  })

  it('takes its caps from the profile (schemaLimits) instead of the defaults', () => {
    const schema = { type: 'object', required: ['n'], properties: { n: { type: 'string', minLength: 100 } } }
    const limits = { ...SCHEMA_LIMITS, maxStringLength: 50 }
    expect(schemaLimitProblems(schema)).toEqual([])
    expect(schemaLimitProblems(schema, limits)).toEqual([
      "/properties/n/minLength: 100 exceeds the generator's cap of 50",
    ])
    expect(generatePayload(schema, { seed: 1 }).errors).toEqual([])
    expect(() => generatePayload(schema, { seed: 1, limits })).toThrow(
      /minLength: 100 exceeds the generator's cap of 50/,
    )
  })

  it('stops synchronous generation at its deadline', () => {
    expect(() =>
      withinDeadline('generating', 200, () => {
        for (;;) {
          // a generator that never ends
        }
      }),
    ).toThrow(SchemaLimitError)
    expect(withinDeadline('generating', 1000, () => 42)).toBe(42)
  })
})

describe('the linear-time engine in ajv', () => {
  it('keeps each pattern of a schema apart', () => {
    const validate = createAjv().compile({
      type: 'object',
      properties: { a: { type: 'string', pattern: '^[a-z]+$' }, b: { type: 'string', pattern: '^[0-9]+$' } },
    })
    expect(validate({ a: 'abc', b: '123' })).toBe(true)
    expect(validate({ a: 'abc', b: 'abc' })).toBe(false)
  })
})

describe('a target schema copied for generation', () => {
  it("keeps a __proto__ key as a plain key, never as the copy's prototype", () => {
    const copy = withoutReadOnly(
      JSON.parse('{"type":"object","__proto__":{"polluted":true},"properties":{"__proto__":{"type":"string"}}}'),
    ) as Record<string, unknown>
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.keys(copy)).toEqual(['type', '__proto__', 'properties'])
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined()
  })
})

describe('references in a target schema (issue #31, item 4)', () => {
  const cases: { name: string; schema: object; problem: RegExp }[] = [
    {
      name: 'an alias cycle',
      schema: {
        type: 'object',
        properties: { x: { $ref: '#/definitions/a' } },
        definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } },
      },
      problem: /^\/definitions\/(a|b)\/\$ref: a cycle of references that consumes no value/,
    },
    {
      name: 'the root referring to itself',
      schema: { $ref: '#', type: 'object' },
      problem: /^\/\$ref: a cycle of references/,
    },
    {
      name: 'allOf back to the root',
      schema: { type: 'object', allOf: [{ $ref: '#' }] },
      problem: /^\/allOf\/0\/\$ref: a cycle of references/,
    },
    {
      name: 'a remote $ref',
      schema: { type: 'object', properties: { x: { $ref: 'http://evil.example/s.json' } } },
      problem:
        /^\/properties\/x\/\$ref: reference "http:\/\/evil\.example\/s\.json" is outside the schema \(remote references are never fetched\)/,
    },
    {
      name: 'a relative $ref under a remote $id',
      schema: { $id: 'http://evil.example/root.json', type: 'object', properties: { x: { $ref: 'other.json' } } },
      problem: /^\/properties\/x\/\$ref: reference "other\.json" is outside the schema/,
    },
    {
      name: 'an embedded resource',
      schema: { type: 'object', properties: { x: { $id: 'http://evil.example/x.json', type: 'string' } } },
      problem: /^\/properties\/x\/\$id: embedded schema resource/,
    },
    {
      name: 'a local reference to nothing',
      schema: { type: 'object', properties: { x: { $ref: '#/definitions/missing' } } },
      problem: /^\/properties\/x\/\$ref: reference "#\/definitions\/missing" resolves to nothing/,
    },
  ]
  for (const c of cases) {
    it(`${c.name}: refused, naming the pointer; generation stops with it instead of a stack overflow`, () => {
      expect(referenceProblems(c.schema).join('\n')).toMatch(c.problem)
      expect(() => generatePayload(c.schema, { seed: 1 })).toThrow(
        /the product schema refused \(a hostile or broken schema\)/,
      )
    })
  }

  it(
    'a recursive schema through properties or items (a tree), a root $id and a $ref key in an example are ' + 'fine',
    () => {
      expect(
        referenceProblems({
          $id: 'https://example.com/p.json',
          type: 'object',
          properties: { kids: { type: 'array', items: { $ref: '#' } }, next: { $ref: '#/definitions/n' } },
          definitions: { n: { type: 'object', properties: { next: { $ref: '#/definitions/n' } } } },
          examples: [{ $ref: 'http://x' }],
        }),
      ).toEqual([])
    },
  )
})
