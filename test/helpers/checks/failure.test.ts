import { describe, expect, it } from 'vitest'
import { expectEqual, expectJsonBody, expectStatus, expectThat } from '../../../helpers/checks/expect'
import { ConformanceFailure, formatFailure } from '../../../helpers/checks/failure'
import { failureRecord } from '../../../helpers/checks/check'
import { findingOf as findingOfRecord } from '../../../runner/run/results/findings'
import type { CheckMeta } from '../../../common/spec'
import type { HttpResult } from '../../../helpers/client/http/types'
import { answerKey } from '../../../helpers/client/http/recorder'

const meta: CheckMeta = { id: 'WH-ERR-001', spec: 'webhooks', section: '§7', requirement: 'An unknown id gives 404.' }
const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXZhbHVl'

function res(status: number, body: unknown, parseError?: string): HttpResult {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return {
    status,
    headers: {},
    body,
    raw: Buffer.from(text),
    text,
    contentType: 'application/json',
    durationMs: 1,
    ...(parseError ? { parseError } : {}),
    request: { method: 'GET', url: 'http://h.test/api/webhook/subscription/x', headers: {} },
    exchange: {
      at: '',
      runId: 'r',
      template: '/api/webhook/subscription/{id}',
      method: 'GET',
      url: 'http://h.test/api/webhook/subscription/x',
      status,
      durationMs: 1,
      request: { headers: {} },
      response: { headers: {}, contentType: 'application/json', body: text },
    },
  }
}

function failureOf(fn: () => void): string {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(ConformanceFailure)
    return formatFailure(meta, e)
  }
  throw new Error('expected a failure')
}

describe('assertions and failure messages', () => {
  it('a failed flow step (a helper error carrying the exchange) shows the request and the body that came back', () => {
    const e = Object.assign(new Error("sales flow step 'create' failed: expected 2xx"), {
      res: res(500, { message: 'quote store down' }),
    })
    const msg = formatFailure(meta, e)
    expect(msg).toContain("error: sales flow step 'create' failed: expected 2xx")
    expect(msg).toContain('request:  GET http://h.test/api/webhook/subscription/x')
    expect(msg).toContain('response: 500 application/json {"message":"quote store down"}')
  })

  it('a failure prints id, clause, requirement, expected, actual, request, response and a curl reproduction', () => {
    const msg = failureOf(() => expectStatus(res(500, { message: 'boom' }), 404))
    expect(msg.split('\n')).toEqual([
      '[WH-ERR-001] webhook-subscriptions.md §7',
      'requirement: An unknown id gives 404.',
      'expected: status 404',
      'actual:   status 500',
      'request:  GET http://h.test/api/webhook/subscription/x',
      'response: 500 application/json {"message":"boom"}',
      "reproduce: curl -sS -i -X GET 'http://h.test/api/webhook/subscription/x'",
    ])
  })

  it('status classes and lists', () => {
    expect(() => expectStatus(res(404, {}), '4xx')).not.toThrow()
    expect(() => expectStatus(res(403, {}), [401, 403])).not.toThrow()
    expect(failureOf(() => expectStatus(res(200, {}), [401, 403]))).toMatch(/expected: status 401 or 403/)
  })

  it('a garbage body is reported as non-JSON / truncated', () => {
    expect(failureOf(() => expectJsonBody(res(200, '{"a', 'target returned non-JSON / truncated body (...)')))).toMatch(
      /actual:   target returned non-JSON \/ truncated body/,
    )
    expect(failureOf(() => expectJsonBody(res(200, '<html>')))).toMatch(/target returned non-JSON body/)
  })

  it('secrets never reach the message', () => {
    const msg = failureOf(() => expectEqual({ secret: 'whsec-1', token: JWT }, { secret: 'other' }, 'the subscription'))
    expect(msg).not.toContain('whsec-1')
    expect(msg).not.toContain(JWT)
    expect(formatFailure(meta, new Error(`login failed with ${JWT}`))).not.toContain(JWT)
  })

  it('expectThat passes through and fails with the detail', () => {
    expect(() => expectThat(true, { expected: 'x', actual: 'y' })).not.toThrow()
    expect(
      failureOf(() => expectThat(false, { expected: 'a sorted list', actual: [3, 1], note: 'due dates' })),
    ).toMatch(/actual:   \[3,1\]\nnote:     due dates/)
  })
})

// the finding the reports compare, from the check's failure record (no message is read back)
const findingOf = (m: CheckMeta, e: unknown) => findingOfRecord(failureRecord(m, e))

describe('findingOf: what a failure was, to tell one finding from several', () => {
  const op = (status: number) => {
    const r = res(status, {})
    return { ...r, exchange: { ...r.exchange!, operationId: 'sales.quote.update' } }
  }
  const caught = (fn: () => void) => {
    try {
      fn()
    } catch (e) {
      return e
    }
    throw new Error('expected a failure')
  }

  it('names the operation that answered, its status, and the owner of that operation for a status failure', () => {
    const cell: CheckMeta = {
      id: 'SL-OPS-DRAFT-UPDATE',
      spec: 'sales',
      section: '§3',
      requirement: 'r',
      product: 'home',
    }
    const answer = answerKey(op(409).exchange!)
    expect(
      findingOf(
        cell,
        caught(() => expectStatus(op(409), '2xx')),
      ),
    ).toEqual({
      operation: 'sales.quote.update',
      status: 409,
      expected: 'status 2xx',
      classes: ['2'],
      owner: 'SL-LIFE-004-home',
      answer,
    })
    // the answer it failed on, by when, which check, method, URL and attempt
    expect(answer).toContain('GET http://h.test/api/webhook/subscription/x #1')
    // a status expectation by its classes: a success expected is one expectation, a refusal expected another
    expect(
      findingOf(
        cell,
        caught(() => expectStatus(op(409), [200, 201])),
      )?.expected,
    ).toBe('status 2xx')
    expect(
      findingOf(
        cell,
        caught(() => expectStatus(op(200), [403, 404])),
      )?.expected,
    ).toBe('status 4xx')
    expect(
      findingOf(
        cell,
        caught(() => expectStatus(op(500), 404)),
      )?.expected,
    ).toBe('status 4xx')
    // the owner itself has no other owner
    expect(
      findingOf(
        { ...cell, id: 'SL-LIFE-004-home' },
        caught(() => expectStatus(op(409), '2xx')),
      )?.owner,
    ).toBeUndefined()
    // no product: a per-product owner is not known
    expect(
      findingOf(
        { ...cell, product: undefined },
        caught(() => expectStatus(op(409), '2xx')),
      )?.owner,
    ).toBeUndefined()
  })

  it("masks the run's ids and numbers in any other expectation, and takes the owner the assertion names", () => {
    const e = new ConformanceFailure({
      expected: 'issue request 8fb816f7-a657-4a58-b20c-bc8fc0c3643a to reach success',
      actual: 'failure',
      res: op(200),
      owner: 'SL-LIFE-010-home',
    })
    expect(findingOf(meta, e)).toEqual({
      operation: 'sales.quote.update',
      status: 200,
      expected: 'issue request # to reach success',
      owner: 'SL-LIFE-010-home',
      answer: answerKey(op(200).exchange!),
    })
    expect(
      findingOf(
        meta,
        caught(() => expectEqual(3, 4, 'premium of quote 100028', op(200))),
      )?.expected,
    ).toBe('premium of quote # = #')
    // no answer, or not a violated requirement: no finding
    expect(findingOf(meta, new ConformanceFailure({ expected: 'x', actual: 'y' }))).toBeUndefined()
    expect(findingOf(meta, new Error('tool'))).toBeUndefined()
  })
})
