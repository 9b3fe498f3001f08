import { describe, expect, it } from 'vitest'
import { Recorder, type Exchange } from '../../../../helpers/client/http/recorder'
import type { HttpResult } from '../../../../helpers/client/http/types'
import { Redactor } from '../../../../helpers/client/evidence/redact'

function result(body: unknown): HttpResult {
  const text = JSON.stringify(body)
  return {
    status: 201,
    headers: { 'content-type': 'application/json', 'set-cookie': 's=1' },
    body,
    raw: Buffer.from(text),
    text,
    contentType: 'application/json',
    durationMs: 12.34,
    request: {
      method: 'POST',
      url: 'http://h.test/api/webhook/subscription',
      headers: { authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' },
      body: '{"password":"demo-pass-4821","url":"http://r"}',
    },
  }
}

describe('Recorder', () => {
  it('classifies the operation, redacts, and hands the exchange to every sink', async () => {
    const seen: Exchange[] = []
    const redactor = new Redactor()
    redactor.addSecret('whsec-secret-1')
    const rec = new Recorder({
      runId: 'r1',
      redactor,
      sinks: [
        (x) => void seen.push(x),
        () => {
          throw new Error('broken sink')
        },
      ],
      currentTest: () => 'a test',
    })
    const res = result({ id: 's1', secret: 'whsec-secret-1', note: 'whsec-secret-1' })
    const x = await rec.record(res.request, res)
    expect(seen).toEqual([x])
    expect(x).toMatchObject({
      runId: 'r1',
      test: 'a test',
      operationId: 'webhooks.subscription.create',
      template: '/api/webhook/subscription',
      status: 201,
      durationMs: 12.3,
    })
    const all = JSON.stringify(x)
    expect(all).not.toContain('demo-pass-4821')
    expect(all).not.toContain('whsec-secret-1')
    expect(all).not.toContain('eyJzdWIiOiJ4In0')
    expect(x.request.headers.authorization).toBe('Bearer [REDACTED]')
    expect(x.response?.headers['set-cookie']).toBe('[REDACTED]')
  })

  it('records transport errors without a response', async () => {
    const rec = new Recorder({ runId: 'r1', redactor: new Redactor(), sinks: [] })
    const x = await rec.record(
      { method: 'GET', url: 'http://h.test/other', headers: {} },
      undefined,
      new Error('ECONNREFUSED'),
    )
    expect(x.status).toBeUndefined()
    expect(x.template).toBe('/other')
    expect(x.error).toBe('ECONNREFUSED')
  })
})
