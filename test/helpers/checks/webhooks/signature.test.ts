import { describe, expect, it } from 'vitest'
import { DEFAULT_SIGNATURE, type SignatureSettings } from '../../../../helpers/checks/webhooks/settings'
import { sign, signedContent, verifySignature, verifyTimestamp } from '../../../../helpers/checks/webhooks/signature'

const KEY = 'a3f1c2e4b5d6978812345678abcdef00'
const BODY = Buffer.from('{"id":"d1","event":"extracted","data":{"x":1}}')
const NOW = 1_800_000_000
const TS = String(NOW)

function headers(s: SignatureSettings, value: string, ts: string | undefined = TS): Record<string, string> {
  return {
    [s.header.toLowerCase()]: value,
    ...(ts !== undefined && s.timestampHeader ? { [s.timestampHeader.toLowerCase()]: ts } : {}),
  }
}

describe('webhook signature verification', () => {
  const s = DEFAULT_SIGNATURE

  it('accepts a signature made with the subscription secret over the raw body and timestamp', () => {
    expect(verifySignature(s, KEY, BODY, headers(s, sign(s, KEY, BODY, TS)))).toEqual({ ok: true })
  })

  it('detects a signature made with a wrong secret', () => {
    const v = verifySignature(s, KEY, BODY, headers(s, sign(s, `${KEY}-other`, BODY, TS)))
    expect(v).toMatchObject({ ok: false, reason: 'mismatch' })
    expect(JSON.stringify(v)).not.toContain(KEY)
  })

  it('detects a tampered body', () => {
    const tampered = Buffer.from(BODY.toString().replace('"x":1', '"x":2'))
    expect(verifySignature(s, KEY, tampered, headers(s, sign(s, KEY, BODY, TS)))).toMatchObject({
      ok: false,
      reason: 'mismatch',
    })
  })

  it('detects a replayed timestamp: the signature covers it', () => {
    expect(verifySignature(s, KEY, BODY, headers(s, sign(s, KEY, BODY, TS), String(NOW + 60)))).toMatchObject({
      ok: false,
      reason: 'mismatch',
    })
  })

  it('reports a missing header and a wrong prefix', () => {
    expect(verifySignature(s, KEY, BODY, {})).toMatchObject({ ok: false, reason: 'no-signature' })
    expect(verifySignature(s, KEY, BODY, headers(s, sign(s, KEY, BODY, TS).replace('sha256=', 'sha1=')))).toMatchObject(
      { ok: false, reason: 'bad-format' },
    )
  })

  it('follows the profile: sha512, base64, body only, own header names', () => {
    const other: SignatureSettings = {
      ...s,
      header: 'X-Sig',
      prefix: '',
      algorithm: 'sha512',
      encoding: 'base64',
      signedContent: '{body}',
      timestampHeader: null,
    }
    const value = sign(other, KEY, BODY, undefined)
    expect(value).toMatch(/^[A-Za-z0-9+/]+=*$/)
    expect(verifySignature(other, KEY, BODY, { 'x-sig': value })).toEqual({ ok: true })
    expect(signedContent(other, BODY, TS).equals(BODY)).toBe(true)
  })

  it('checks the timestamp against the tolerance', () => {
    expect(verifyTimestamp(s, headers(s, 'x'), NOW + 10)).toMatchObject({ ok: true })
    expect(verifyTimestamp(s, headers(s, 'x'), NOW + 3600)).toMatchObject({ ok: false, reason: 'stale-timestamp' })
    expect(verifyTimestamp(s, { 'x-webhook-signature': 'x' }, NOW)).toMatchObject({ ok: false, reason: 'no-timestamp' })
    expect(verifyTimestamp(s, headers(s, 'x', '2026-01-01T00:00:00Z'), NOW)).toMatchObject({
      ok: false,
      reason: 'bad-timestamp',
    })
    expect(verifyTimestamp({ ...s, timestampHeader: null }, {}, NOW)).toMatchObject({ ok: true })
  })
})
