import { describe, expect, it } from 'vitest'
import type { HttpResult } from '../../../../helpers/client/http/types'
import { classifyActions, classifyRequest } from '../../../../helpers/checks/sales/waits'

function res(status: number, body?: unknown, headers: Record<string, string> = {}): HttpResult {
  const text = body === undefined ? '' : JSON.stringify(body)
  return {
    status,
    headers,
    body,
    raw: Buffer.from(text),
    text,
    contentType: 'application/json',
    durationMs: 1,
    request: { method: 'GET', url: 'http://x', headers: {} },
  }
}

const spell = { pending: ['pending', 'in_progress'], success: ['success'], failure: ['failure', 'failed'] }

describe('classifyActions', () => {
  it('204 and 423 mean locked; 200 with a list means unlocked', () => {
    expect(classifyActions(res(204)).state).toBe('pending')
    expect(classifyActions(res(423, {}, { 'retry-after': '1' }))).toMatchObject({
      state: 'pending',
      retryAfterMs: 1000,
    })
    const ok = classifyActions(res(200, { data: ['quote:update', 'quote:calculate'] }))
    expect(ok.state).toBe('success')
    expect(ok.value.actions).toEqual(['quote:update', 'quote:calculate'])
  })
  it('anything else is a failure that says what it saw', () => {
    expect(classifyActions(res(200, { data: 'x' })).seen).toMatch(/without a data array/)
    expect(classifyActions(res(500, {})).seen).toMatch(/status 500/)
  })
})

describe('classifyRequest', () => {
  it('uses the profile spellings, case-insensitively', () => {
    expect(classifyRequest(res(200, { status: 'IN_PROGRESS' }), spell).state).toBe('pending')
    expect(classifyRequest(res(200, { status: 'Success', data: { policyId: 'p' } }), spell).state).toBe('success')
    expect(classifyRequest(res(200, { status: 'failed' }), spell).state).toBe('failure')
    expect(classifyRequest(res(423), spell).state).toBe('pending')
  })
  it('an unknown spelling, a missing status or a non-200 is a failure', () => {
    expect(classifyRequest(res(200, { status: 'done' }), spell).seen).toMatch(/none of the profile's spellings/)
    expect(classifyRequest(res(200, {}), spell).seen).toMatch(/no string status/)
    expect(classifyRequest(res(404, {}), spell).seen).toMatch(/unexpected status 404/)
  })
})
