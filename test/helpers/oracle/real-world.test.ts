import { describe, expect, it } from 'vitest'
import { createAjvFor } from '../../../common/ajv'
import { seededRandom } from '../../../helpers/checks/sales/payload'
import { classesOf, realWorldLeaves, schemaAt, withRealWorldData } from '../../../helpers/oracle/real-world'

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 40 },
    street: { type: 'string', minLength: 3, maxLength: 120 },
    city: { type: 'string', maxLength: 60 },
    note: { type: 'string', maxLength: 500 },
    code: { type: 'string', pattern: '^[0-9]{5}$' },
    kind: { type: 'string', enum: ['a', 'b'] },
    born: { type: 'string', format: 'date' },
    area: { type: 'number', minimum: 20, maximum: 1000 },
    year: { type: 'integer', minimum: 1850, maximum: 2026 },
    people: {
      type: 'array',
      items: { type: 'object', properties: { first: { type: 'string', minLength: 1, maxLength: 40 } } },
    },
  },
} as const

const base = () => ({
  name: 'Ann Lee',
  street: 'Main street 1',
  city: 'Tartu',
  note: 'n',
  code: '12345',
  kind: 'a',
  born: '1980-05-05',
  area: 50,
  year: 1990,
  people: [{ first: 'Bo' }, { first: 'Cy' }],
})

describe('real-world data in generated payloads', () => {
  it('classifies written values by script, maxLength, cents, bounds and boundary dates', () => {
    expect(classesOf('Jürgen')).toEqual(['accents'])
    expect(classesOf('山田 太郎')).toEqual(['cjk'])
    expect(classesOf('דוד כהן')).toEqual(['rtl'])
    expect(classesOf('Anna 🌻 Smith')).toEqual(['emoji'])
    expect(classesOf('x'.repeat(40), { maxLength: 40 })).toEqual(['max-length'])
    expect(classesOf(41.22)).toEqual(['cents'])
    expect(classesOf(2026, { maximum: 2026 })).toEqual(['bounds'])
    expect(classesOf('2024-02-29')).toEqual(['boundary-dates'])
    expect(classesOf('1999-12-31')).toEqual(['boundary-dates'])
    expect(classesOf('plain text')).toEqual([])
    expect(classesOf(100)).toEqual([])
  })

  it(
    'writes every class where the schema leaves room, valid, in NFC, and leaves enums, patterns and other formats ' +
      'alone',
    () => {
      const validate = createAjvFor(schema).compile(schema)
      const seen = new Set<string>()
      for (let seed = 1; seed <= 12; seed += 1) {
        const p = base()
        withRealWorldData(p, schema, seededRandom(seed))
        expect(validate(p), JSON.stringify(validate.errors)).toBe(true)
        expect(p.code).toBe('12345')
        expect(p.kind).toBe('a')
        for (const v of [p.name, p.street, p.city, p.note, p.people[0]!.first]) expect(v).toBe(v.normalize('NFC'))
        for (const classes of realWorldLeaves(p, schema).values()) for (const c of classes) seen.add(c)
      }
      expect([...seen].sort()).toEqual([
        'accents',
        'boundary-dates',
        'bounds',
        'cents',
        'cjk',
        'emoji',
        'max-length',
        'rtl',
      ])
    },
  )

  it('is seeded: the same seed gives the same values', () => {
    const a = base()
    const b = base()
    withRealWorldData(a, schema, seededRandom(7))
    withRealWorldData(b, schema, seededRandom(7))
    expect(a).toEqual(b)
  })

  it('finds the schema node of an instance pointer through properties and items', () => {
    expect(schemaAt(schema, '/people/1/first')).toEqual({ type: 'string', minLength: 1, maxLength: 40 })
    expect(schemaAt(schema, '/nope')).toBeUndefined()
  })
})
