import { describe, expect, it } from 'vitest'
import type { HttpResult } from '../../../helpers/client/http/types'
import { missingTokenFault, pointersOf, saysUnavailable } from '../../../runner/run/login-faults'

const res = (status: number, contentType: string, text: string, body?: unknown): HttpResult =>
  ({
    status,
    headers: { 'content-type': contentType },
    body,
    raw: Buffer.from(text),
    text,
    contentType,
    durationMs: 1,
    request: { method: 'POST', url: 'http://x/login', headers: {} },
  }) as HttpResult

describe('missingTokenFault(): whose fault a login without a usable token is', () => {
  it('no access_token anywhere in a 2xx JSON: the target violates §5.2; only key names are said, never a value', () => {
    const body = { authentication_result: { AccessToken: 'eyJ.secret.value' } }
    const f = missingTokenFault(res(200, 'application/json', JSON.stringify(body), body))
    expect(f?.kind).toBe('violation')
    expect(f?.reason).toContain('no access_token field anywhere')
    expect(f?.reason).toContain('/authentication_result/AccessToken')
    expect(f?.reason).not.toContain('secret')
  })

  it("JSON labelled text/plain: the target's fault, even with the access_token inside", () => {
    const text = JSON.stringify({ authentication_result: { access_token: 'eyJ.x.y' } })
    const f = missingTokenFault(res(200, 'text/plain', text, text))
    expect(f).toMatchObject({ kind: 'violation' })
    expect(f?.reason).toContain("labelled Content-Type 'text/plain'")
  })

  it(
    "the token at another place than the profile says: the user's configuration, naming auth.tokenPointer and the " +
      'place',
    () => {
      const body = { data: { access_token: 'eyJ.x.y' } }
      expect(missingTokenFault(res(200, 'application/json', JSON.stringify(body), body))).toEqual({
        kind: 'configuration',
        reason: 'the token is at /data/access_token: set auth.tokenPointer (profile) to it',
      })
    },
  )

  it('not a login answer (HTML, a redirect, a refusal): left to the hints', () => {
    expect(missingTokenFault(res(200, 'text/html', '<html></html>', '<html></html>'))).toBeUndefined()
    expect(missingTokenFault(res(302, 'application/json', '{}', {}))).toBeUndefined()
    expect(missingTokenFault(res(401, 'application/json', '{}', {}))).toBeUndefined()
  })

  it('pointersOf() finds a member at any depth, escaped as RFC 6901', () => {
    expect(pointersOf({ a: [{ access_token: 1 }], 'b/c': { access_token: 2 } }, 'access_token')).toEqual([
      '/a/0/access_token',
      '/b~1c/access_token',
    ])
  })
})

describe('saysUnavailable()', () => {
  it('503 and 429 say the service is unavailable, with their Retry-After; other statuses do not', () => {
    expect(saysUnavailable({ status: 503, headers: { 'retry-after': '1000000000' } })).toBe(
      '503 with Retry-After: 1000000000',
    )
    expect(saysUnavailable({ status: 429, headers: {} })).toBe('429')
    expect(saysUnavailable({ status: 500, headers: {} })).toBeUndefined()
  })
})
