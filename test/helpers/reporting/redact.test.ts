import { describe, expect, it } from 'vitest'
import { REDACTED, Redactor } from '../../../helpers/reporting/redact'

const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXZhbHVl'

describe('Redactor', () => {
  it('masks registered secrets and any JWT in text', () => {
    const r = new Redactor()
    r.addSecret('demo-pass-4821')
    expect(r.text(`password demo-pass-4821 token ${JWT}`)).toBe(`password ${REDACTED} token [REDACTED-JWT]`)
  })

  it('ignores values too short to be secrets', () => {
    const r = new Redactor()
    r.addSecret('ab')
    expect(r.text('abc')).toBe('abc')
  })

  it('masks secret-looking keys in JSON, deeply, and keeps other fields', () => {
    const r = new Redactor()
    const out = r.json({ id: 's1', secret: { key: 'k' }, nested: [{ password: 'p', access_token: 't', refresh_token: 'r', url: 'http://x' }], success: true })
    expect(out).toEqual({ id: 's1', secret: REDACTED, nested: [{ password: REDACTED, access_token: REDACTED, refresh_token: REDACTED, url: 'http://x' }], success: true })
  })

  it('masks credential headers but keeps the scheme', () => {
    const r = new Redactor()
    expect(r.headers({ Authorization: `Bearer ${JWT}`, cookie: 'a=b', 'x-tenant-id': 'acme' })).toEqual({ Authorization: `Bearer ${REDACTED}`, cookie: REDACTED, 'x-tenant-id': 'acme' })
  })

  it('masks registered secrets inside non-secret fields', () => {
    const r = new Redactor()
    r.addSecret('whsec-123456')
    expect(r.json({ note: 'key is whsec-123456' })).toEqual({ note: `key is ${REDACTED}` })
  })
})
