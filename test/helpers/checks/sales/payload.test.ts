import { describe, expect, it } from 'vitest'
import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import {
  generatePayload,
  mixSeed,
  seededFaker,
  seededRandom,
  withoutReadOnly,
} from '../../../../helpers/checks/sales/payload'
import { resolveDateToken } from '../../../../helpers/checks/sales/date-tokens'
import { setPointer } from '../../../../helpers/checks/sales/json-set'

const schema = {
  type: 'object',
  required: ['policy', 'items'],
  additionalProperties: false,
  properties: {
    policy: {
      type: 'object',
      required: ['kind', 'start', 'email', 'amount'],
      additionalProperties: false,
      properties: {
        kind: { type: 'string', enum: ['a', 'b', 'c'] },
        start: { type: 'string', format: 'date' },
        email: { type: 'string', format: 'email' },
        amount: { type: 'integer', minimum: 10, maximum: 20 },
      },
    },
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: {
        type: 'object',
        required: ['n'],
        properties: { id: { type: 'string', readOnly: true }, n: { type: 'number', minimum: 0, maximum: 1 } },
      },
    },
  },
}

describe('generatePayload', () => {
  it('respects required fields, enums, formats and bounds, and validates the result', () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const g = generatePayload(schema, { seed })
      expect(g.errors).toEqual([])
      const p = g.payload as {
        policy: { kind: string; amount: number; start: string }
        items: Array<Record<string, unknown>>
      }
      expect(['a', 'b', 'c']).toContain(p.policy.kind)
      expect(p.policy.amount).toBeGreaterThanOrEqual(10)
      expect(p.policy.amount).toBeLessThanOrEqual(20)
      expect(p.policy.start).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      for (const i of p.items) expect(i).not.toHaveProperty('id')
    }
  })

  it('is reproducible from the seed and differs between seeds', () => {
    expect(generatePayload(schema, { seed: 7 }).payload).toEqual(generatePayload(schema, { seed: 7 }).payload)
    const many = new Set(
      Array.from({ length: 5 }, (_, i) => JSON.stringify(generatePayload(schema, { seed: 100 + i }).payload)),
    )
    expect(many.size).toBeGreaterThan(1)
  })

  it('never holds all of an `unlike` update, so that sending that update changes the payload', () => {
    const kind = (p: Record<string, unknown>) => (p as { policy: { kind: string } }).policy.kind
    const seeds = Array.from({ length: 60 }, (_, i) => i + 1)
    // without it, some seeds give kind "a" already
    expect(seeds.filter((seed) => kind(generatePayload(schema, { seed }).payload) === 'a').length).toBeGreaterThan(0)
    for (const seed of seeds) {
      const g = generatePayload(schema, { seed, unlike: { '/policy/kind': 'a' } })
      expect(kind(g.payload)).not.toBe('a')
      expect(g.errors).toEqual([])
      expect(g.seed).toBe(seed)
      const plain = generatePayload(schema, { seed }).payload
      if (kind(plain) !== 'a') expect(g.payload).toEqual(plain)
      const both = generatePayload(schema, { seed, unlike: { '/policy/kind': 'a', '/policy/amount': 10 } }).payload as {
        policy: { kind: string; amount: number }
      }
      expect(both.policy.kind === 'a' && both.policy.amount === 10).toBe(false)
    }
  })

  it('with unlikeEach, holds none of the `unlike` values (not only never all of them at once)', () => {
    const unlike = { '/policy/kind': 'a', '/policy/amount': 10 }
    type P = { policy: { kind: string; amount: number } }
    const seeds = Array.from({ length: 60 }, (_, i) => i + 1)
    // without it, some seeds hold one of the two (never both)
    expect(
      seeds.filter((seed) => {
        const p = generatePayload(schema, { seed, unlike }).payload as P
        return p.policy.kind === 'a' || p.policy.amount === 10
      }).length,
    ).toBeGreaterThan(0)
    for (const seed of seeds) {
      const p = generatePayload(schema, { seed, unlike, unlikeEach: true }).payload as P
      expect(p.policy.kind).not.toBe('a')
      expect(p.policy.amount).not.toBe(10)
    }
  })

  it('writes overrides with date tokens over the generated payload, and reports schema violations', () => {
    const now = new Date(Date.UTC(2026, 0, 31))
    const g = generatePayload(schema, { seed: 3, now, set: { '/policy/start': '@today+1m', '/policy/amount': 99 } })
    expect((g.payload as { policy: { start: string } }).policy.start).toBe('2026-03-03')
    expect(g.errors.join(' ')).toMatch(/\/policy\/amount/)
  })

  it("the worker's one Faker, reseeded, gives what a new Faker with that seed gives", () => {
    const Fresh = englishFaker.constructor as typeof Faker
    const sample = (f: Faker) => [
      f.internet.email(),
      f.string.uuid(),
      f.date.between({ from: '1950-01-01', to: '2025-12-31' }).toISOString(),
      f.person.fullName(),
      f.date.past().toISOString(),
    ]
    for (const seed of [1, 42, 1757563062]) {
      const fresh = new Fresh({ locale: [englishFaker.rawDefinitions], seed })
      fresh.setDefaultRefDate(new Date(Date.UTC(2026, 0, 1)))
      const expected = sample(fresh)
      // used in between, as the run uses it
      sample(seededFaker(seed + 1))
      expect(sample(seededFaker(seed))).toEqual(expected)
    }
  })

  it('mixSeed and seededRandom are deterministic', () => {
    expect(mixSeed(1, 'a')).toBe(mixSeed(1, 'a'))
    expect(mixSeed(1, 'a')).not.toBe(mixSeed(1, 'b'))
    const r1 = seededRandom(5)
    const r2 = seededRandom(5)
    expect([r1(), r1()]).toEqual([r2(), r2()])
  })

  it('withoutReadOnly drops readOnly properties only', () => {
    expect(withoutReadOnly({ properties: { id: { readOnly: true }, x: { type: 'string' } } })).toEqual({
      properties: { x: { type: 'string' } },
    })
  })
})

describe('date tokens and pointers', () => {
  it('resolves relative dates and leaves other values alone', () => {
    const now = new Date(Date.UTC(2026, 10, 22, 15))
    expect(resolveDateToken('@today', now)).toBe('2026-11-22')
    expect(resolveDateToken('@today+1y-1d', now)).toBe('2027-11-21')
    expect(resolveDateToken('x', now)).toBe('x')
    expect(() => resolveDateToken('@today+soon', now)).toThrow(/bad date token/)
  })

  it('setPointer creates objects on the way and removes with undefined', () => {
    const doc: Record<string, unknown> = { a: { b: 1 } }
    setPointer(doc, '/c/d', 2)
    setPointer(doc, '/a/b', undefined)
    expect(doc).toEqual({ a: {}, c: { d: 2 } })
  })
})
