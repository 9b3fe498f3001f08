import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { escapeUnicode, withExtraFields, withReversedKeys } from '../../reference/variations/json-rewrite'
import { variationEntries, variationOptions, wireRewrites } from '../../reference/variations/catalogue'
import { startReference, type RunningReference } from '../../reference/server'

describe('json rewrites keep the value for a client', () => {
  it('adds unknown fields to the top-level record or to each record of a top-level list, not to nested maps', () => {
    const v = withExtraFields({ a: 1, errors: { field: ['bad'] }, d: null }) as Record<string, unknown>
    expect(v).toMatchObject({ a: 1, d: null, x_vendor_trace: 'ignore-me', _revision: 7 })
    expect(v.errors).toEqual({ field: ['bad'] })
    expect(withExtraFields([{ id: '1' }, 'x'])).toEqual([{ id: '1', x_vendor_trace: 'ignore-me', _revision: 7 }, 'x'])
    expect(withExtraFields('text')).toBe('text')
  })
  it('reverses key order at every depth without changing the value', () => {
    const v = withReversedKeys({ a: 1, b: { c: 1, d: 2 } })
    expect(JSON.stringify(v)).toBe('{"b":{"d":2,"c":1},"a":1}')
    expect(v).toEqual({ a: 1, b: { c: 1, d: 2 } })
  })
  it('escapes non-ASCII and / as \\u sequences that parse back to the same value', () => {
    const text = JSON.stringify({ u: 'https://x/é€' })
    const escaped = escapeUnicode(text)
    expect(escaped).not.toMatch(/[é€/]/)
    expect(JSON.parse(escaped)).toEqual({ u: 'https://x/é€' })
  })
})

describe('the catalogue', () => {
  it('has at least ten variations, each changing something', () => {
    const entries = variationEntries()
    expect(entries.length).toBeGreaterThanOrEqual(10)
    for (const [, v] of entries) expect(Boolean(v.wire?.length) || Object.keys(v.options ?? {}).length > 0).toBe(true)
  })
  it('turns names into reference options, and rejects unknown names', () => {
    expect(variationOptions(['numeric-ids', 'slow-issue'])).toMatchObject({
      idStyle: 'numeric',
      issueMs: 2500,
      variations: ['numeric-ids', 'slow-issue'],
    })
    expect([...wireRewrites(['chunked-bodies', 'key-order'])].sort()).toEqual(['chunked', 'key-order'])
    expect(() => variationOptions(['nope'])).toThrow(/unknown variation/)
  })
})

describe('the wire variations are visible on the wire', () => {
  let ref: RunningReference
  let plain: RunningReference
  beforeAll(async () => {
    ref = await startReference(
      variationOptions([
        'extra-fields',
        'key-order',
        'extra-headers',
        'charset-spelling',
        'chunked-bodies',
        'pretty-json',
        'connection-close',
      ]),
    )
    plain = await startReference()
  })
  afterAll(async () => {
    await ref?.close()
    await plain?.close()
  })
  const login = (base: string) =>
    fetch(`${base}/api/v1/identifier/login/acme`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'broker@acme.test', password: 'demo-pass-4821' }),
    })

  it('rewrites body, headers and framing, keeping the login usable', async () => {
    const res = await login(ref.url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8')
    expect(res.headers.get('x-request-id')).toBe('req-variation-0001')
    expect(res.headers.get('connection')).toBe('close')
    expect(res.headers.get('transfer-encoding')).toBe('chunked')
    expect(res.headers.get('content-length')).toBeNull()
    const text = await res.text()
    expect(text).toMatch(/^\{\n {2}"/)
    const body = JSON.parse(text) as Record<string, unknown>
    expect(body.x_vendor_trace).toBe('ignore-me')
    expect(Object.keys(body)[0]).toBe('_revision')
    const token = (body.authentication_result as Record<string, unknown> | undefined)?.access_token ?? body.access_token
    expect(String(token).split('.')).toHaveLength(3)
  })
  it('leaves the reference untouched without variations', async () => {
    const res = await login(plain.url)
    expect(res.headers.get('x-request-id')).toBeNull()
    expect(res.headers.get('content-length')).not.toBeNull()
    expect(await res.text()).not.toMatch(/x_vendor_trace/)
  })
})
