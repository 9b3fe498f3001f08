import { describe, expect, it } from 'vitest'
import { firstShown, type Reported } from '../../../helpers/oracle/reported'

describe('firstShown: a breach reported once per wrong value', () => {
  it('is true for a wrong value the first time only, per what and value; a write starts afresh', () => {
    const r: Reported = {}
    expect(firstShown(r, 'read|url', 'http://z')).toBe(true)
    expect(firstShown(r, 'read|url', 'http://z')).toBe(false)
    expect(firstShown(r, 'list|url', 'http://z')).toBe(true)
    expect(firstShown(r, 'read|url', 'http://y')).toBe(true)
    expect(firstShown(r, 'read|n', 1)).toBe(true)
    expect(firstShown(r, 'read|n', '1')).toBe(true)
    delete r.reported
    expect(firstShown(r, 'read|url', 'http://z')).toBe(true)
  })
})
