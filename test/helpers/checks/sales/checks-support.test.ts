import { describe, expect, it } from 'vitest'
import { documentIdOf, mediaType, scheduleProblems } from '../../../../helpers/oracle/documents'
import { compareSubset, compileError, metaSchemaErrors } from '../../../../helpers/checks/sales/schema-tools'
import { invalidCase } from '../../../../helpers/checks/sales/invalid-case'
import { loadPayloadOverrides } from '../../../../helpers/checks/sales/payload-overrides'
import type { HttpResult } from '../../../../helpers/client/http/types'

const res = (headers: Record<string, string>, body?: unknown, contentType = ''): HttpResult =>
  ({
    status: 200,
    headers,
    body,
    raw: Buffer.alloc(0),
    text: '',
    contentType,
    durationMs: 1,
    request: { method: 'GET', url: 'http://x', headers: {} },
  }) as unknown as HttpResult

describe('schedule, documents', () => {
  it('accepts a schedule summing to the premium within a cent, with ordered dates', () => {
    expect(
      scheduleProblems(
        [
          { dueDate: '2026-01-01', premium: 50.01 },
          { dueDate: '2026-07-01', premium: 50 },
        ],
        100,
      ),
    ).toEqual([])
  })
  it('reports a wrong sum, unordered dates and an empty schedule', () => {
    expect(
      scheduleProblems(
        [
          { dueDate: '2026-07-01', premium: 50 },
          { dueDate: '2026-01-01', premium: 51 },
        ],
        100,
      ),
    ).toHaveLength(2)
    expect(scheduleProblems([], 1)).toEqual(['no instalments'])
  })
  it('finds the document id from a header or a JSON pointer', () => {
    expect(documentIdOf(res({ 'content-location': '/api/v1/ledger/documents/42' }), 'header:content-location')).toBe(
      '42',
    )
    expect(documentIdOf(res({}, { data: [{ id: 7 }] }), 'json:/data/0/id')).toBe('7')
    expect(documentIdOf(res({}), 'header:content-location')).toBeUndefined()
    expect(mediaType(res({}, undefined, 'Application/PDF; x=1'))).toBe('application/pdf')
  })
})

describe('schema tools', () => {
  const full = {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'object', properties: { c: { type: 'number' } } } },
  }
  it('validates against the meta-schema and compiles', () => {
    expect(metaSchemaErrors(full)).toEqual([])
    expect(metaSchemaErrors({ type: 'record', required: 'a' }).length).toBeGreaterThan(0)
    expect(compileError(full)).toBeUndefined()
  })
  it('keeps each answer for the same schema, per draft and per content', () => {
    const bad = { type: 'object', properties: { x: { $ref: '#/nowhere' } } }
    expect(compileError(bad)).toMatch(/nowhere/)
    expect(compileError(bad)).toMatch(/nowhere/)
    expect(compileError({ ...bad, properties: {} })).toBeUndefined()
    const draft2020 = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      prefixItems: 'not-an-array',
    }
    expect(metaSchemaErrors(draft2020).length).toBeGreaterThan(0)
    expect(metaSchemaErrors({ ...draft2020, prefixItems: [{ type: 'string' }] })).toEqual([])
    expect(metaSchemaErrors({ type: 'record' }).length).toBeGreaterThan(0)
    expect(metaSchemaErrors({ type: 'string' })).toEqual([])
  })
  it('compares a restricted schema with the full one', () => {
    expect(compareSubset({ type: 'object', properties: { a: { type: 'string' } } }, full)).toEqual({
      extra: [],
      hidden: ['b', 'b.c'],
    })
    expect(compareSubset(full, full).hidden).toEqual([])
    expect(compareSubset({ properties: { a: { type: 'number' }, z: {} } }, full).extra).toEqual(['a', 'z'])
  })
  it('derives an invalid case from the schema when the fixture has none', () => {
    const schema = {
      required: ['policy'],
      properties: { policy: { required: ['n'], properties: { n: { type: 'integer' } } } },
    }
    expect(invalidCase({ product: 'x' }, schema)).toEqual({
      pointer: '/policy/n',
      value: 'not-a-number',
      field: 'policy.n',
    })
  })
  it('loads the payload fixtures of both reference products, and none for an unknown product', () => {
    expect(loadPayloadOverrides('home').invalid?.field).toBe('policy.dateInception')
    expect(loadPayloadOverrides('travel').set).toBeDefined()
    expect(loadPayloadOverrides('no-such')).toEqual({ product: 'no-such' })
  })
})
