import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import type { ValidateFunction } from 'ajv'
import { JSONSchemaFaker, type Schema } from 'json-schema-faker'
import { createAjvFor, formatAjvErrors } from '../../../common/ajv'
import { getPointer } from '../../client/data/json-pointer'
import { resolveDateToken } from './date-tokens'
import {
  assertWithinLimits,
  SCHEMA_LIMITS,
  withinDeadline,
  type SchemaLimits,
} from '../../../common/config/schema-limits'
import { setPointer } from './json-set'
import { withRealWorldData } from '../../oracle/real-world'

// The package's main entry loads every locale (about 100 ms per worker); the English build carries the same class
// and the English definitions, which is all a payload needs.
const FakerClass = englishFaker.constructor as typeof Faker

/**
 * The worker's one Faker, seeded for a payload: a Faker's state is its generator and its reference date, so reseeding
 * gives what a new instance with that seed gives (a unit test compares them), without building one per payload.
 */
let shared: Faker | undefined
export function seededFaker(seed: number): Faker {
  shared ??= new FakerClass({ locale: [englishFaker.rawDefinitions] })
  shared.seed(seed)
  shared.setDefaultRefDate(new Date(Date.UTC(2026, 0, 1)))
  return shared
}

export interface GeneratedPayload {
  payload: Record<string, unknown>
  seed: number
  /** Ajv errors of the final payload against the schema (empty: valid). */
  errors: string[]
}

/** mulberry32: a small seeded PRNG in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * A copy of the schema without readOnly properties (the server assigns them, e.g. object ids). The schema is the
 * target's: a `__proto__` key is copied as a plain key (defineProperty), never as the copy's prototype.
 */
export function withoutReadOnly(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutReadOnly)
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  const set = (k: string, v: unknown) =>
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true })
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k === 'properties' && v && typeof v === 'object') {
      set(
        k,
        Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, sub]) => (sub as { readOnly?: unknown } | null)?.readOnly !== true)
            .map(([name, sub]) => [name, withoutReadOnly(sub)]),
        ),
      )
    } else set(k, withoutReadOnly(v))
  }
  return out
}

/** A seed for one payload: the run seed mixed with a label (FNV-1a), so every quote of a run differs, reproducibly. */
export function mixSeed(seed: number, label: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0)
  for (const ch of label) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0
  return h >>> 0
}

/**
 * Builds a payload from a product JSON Schema (json-schema-faker with a seeded @faker-js/faker):
 * required fields, enums, formats and bounds follow the schema; `set` (pointer -> value, date tokens
 * allowed) is written over it; the result is validated with ajv. The same seed gives the same payload.
 * json-schema-faker keeps its options in the library; they are all set here on every call.
 */
export function generatePayload(
  schema: object,
  o: {
    seed: number
    set?: Record<string, unknown>
    now?: Date
    compile?: (schema: object) => ValidateFunction
    /**
     * Pointer -> value (date tokens allowed) that the payload must not hold at every pointer at once: the update a
     * check will send, so that it changes the quote. A payload that holds them all is generated again from the next
     * seed (mixSeed(seed, 'unlike:n'), up to 20 times), so an update that is ignored can always be seen.
     */
    unlike?: Record<string, unknown>
    /**
     * With `unlike`: the payload holds none of its values (not only never all of them at once), for a check whose
     * writers each send one of them (two disjoint updates: the one the quote already held would be lost unseen).
     */
    unlikeEach?: boolean
    /** Bounds on the target's schema and its generation (profile `schemaLimits`); the defaults when not given. */
    limits?: SchemaLimits
    /**
     * Real-world values where the schema leaves room (helpers/oracle/real-world.ts; default true): non-ASCII text,
     * strings at maxLength, cents, bounds, boundary dates. A payload they would make invalid is generated without them.
     */
    realWorld?: boolean
  },
): GeneratedPayload {
  const limits = o.limits ?? SCHEMA_LIMITS
  const now = o.now ?? new Date()
  const unlike = Object.entries(o.unlike ?? {}).map(
    ([pointer, v]) => [pointer, JSON.stringify(resolveDateToken(v, now))] as const,
  )
  const held = (p: unknown, ptr: string, v: string) => JSON.stringify(getPointer(p, ptr)) === v
  // the schema is the target's: bounded before generation, and the generation stopped at a deadline
  assertWithinLimits(schema, 'the product schema', limits)
  const generate = (realWorld: boolean) =>
    withinDeadline('generating a payload from the product schema', limits.generatorDeadlineMs, () => {
      let p = generateOnce(schema, o.seed, o.set, now, limits, realWorld)
      for (
        let n = 1;
        n <= 20 && unlike.length > 0 && unlike[o.unlikeEach ? 'some' : 'every'](([ptr, v]) => held(p, ptr, v));
        n += 1
      ) {
        p = generateOnce(schema, mixSeed(o.seed, `unlike:${n}`), o.set, now, limits, realWorld)
      }
      return p
    })
  const validate = o.compile ? o.compile(schema) : createAjvFor(schema).compile(schema)
  let g = generate(o.realWorld ?? true)
  // a schema whose combinators the real-world values do not fit: the payload as json-schema-faker made it
  if (!validate(g) && (o.realWorld ?? true)) g = generate(false)
  const errors = validate(g) ? [] : formatAjvErrors(validate.errors)
  return { payload: g, seed: o.seed, errors }
}

function generateOnce(
  schema: object,
  seed: number,
  set: Record<string, unknown> | undefined,
  now: Date,
  limits: SchemaLimits,
  realWorld: boolean,
): Record<string, unknown> {
  const random = seededRandom(seed)
  const faker = seededFaker(seed)
  JSONSchemaFaker.option({
    random,
    alwaysFakeOptionals: false,
    optionalsProbability: 0.5,
    fixedProbabilities: true,
    failOnInvalidTypes: true,
    failOnInvalidFormat: false,
    useExamplesValue: false,
    useDefaultValue: false,
    maxItems: 3,
    maxLength: limits.maxStringLength,
    refDepthMax: 4,
    omitNulls: true,
    minDateTime: '2000-01-01T00:00:00Z',
    maxDateTime: '2030-01-01T00:00:00Z',
  })
  JSONSchemaFaker.extend('faker', () => faker)
  JSONSchemaFaker.format('email', () => faker.internet.email().toLowerCase())
  JSONSchemaFaker.format('date', () =>
    faker.date.between({ from: '1950-01-01', to: '2025-12-31' }).toISOString().slice(0, 10),
  )
  JSONSchemaFaker.format('uuid', () => faker.string.uuid())
  const writable = withoutReadOnly(schema)
  const payload = JSONSchemaFaker.generate(writable as Schema) as Record<string, unknown>
  if (realWorld) withRealWorldData(payload, writable, seededRandom(mixSeed(seed, 'real-world')))
  for (const [pointer, value] of Object.entries(set ?? {})) setPointer(payload, pointer, resolveDateToken(value, now))
  return payload
}
