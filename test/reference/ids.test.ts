import { describe, expect, it } from 'vitest'
import { IdFactory } from '../../reference/ids'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('IdFactory (the id dialect of the reference)', () => {
  it('integer style: digits in records, JSON integers on the wire, UUID request and subscription ids', () => {
    const ids = new IdFactory('integer')
    const a = ids.id()
    const b = ids.id()
    expect(a).toMatch(/^[1-9]\d*$/)
    expect(Number(b)).toBe(Number(a) + 1)
    expect(ids.wire(a)).toBe(Number(a))
    expect(ids.requestId()).toMatch(UUID)
    expect(ids.subscriptionId()).toMatch(UUID)
    expect(ids.wire('not-digits')).toBe('not-digits')
  })

  it('numeric style: digits as JSON strings; request ids stay UUIDs', () => {
    const ids = new IdFactory('numeric')
    const a = ids.id()
    expect(ids.wire(a)).toBe(a)
    expect(ids.subscriptionId()).toMatch(/^\d+$/)
    expect(ids.requestId()).toMatch(UUID)
  })

  it('uuid style: every id a UUID string', () => {
    const ids = new IdFactory('uuid')
    const a = ids.id()
    expect(a).toMatch(UUID)
    expect(ids.wire(a)).toBe(a)
    expect(ids.subscriptionId()).toMatch(UUID)
  })
})
