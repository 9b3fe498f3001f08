import { describe, expect, it } from 'vitest'
import { acceptedBy, parsePrismLog, prismKind } from '../../scripts/harness/prism-log'

const LOG = [
  '[6:30:41 PM] › [HTTP SERVER] get /api/v1/ledger/policies/100183/invoices ℹ  info      Request received',
  '[6:30:41 PM] ›     [PROXY] ℹ  info      > Forwarding "get" request to ' +
    'http://127.0.0.1:1/api/v1/ledger/policies/100183/invoices...',
  '[6:30:41 PM] ›     [PROXY] ℹ  info      The upstream call to /api/v1/ledger/policies/100183/invoices has returned ' +
    '200',
  '[6:30:41 PM] ›     [PROXY] ℹ  info      < Received forward response',
  '[6:30:41 PM] ›     [VALIDATOR] ✖  error     Violation: response.body Response body must be object',
  '[6:30:41 PM] ›     [PROXY] ℹ  info      The upstream call to ' +
    '/api/v1/ledger/customers/policies/1/custom-view/installments has returned 400',
  '[6:30:41 PM] ›     [VALIDATOR] ✖  error     Violation: request.query Request query must have required property ' +
    "'code'",
  '[6:30:41 PM] ›     [VALIDATOR] ⚠  warning   Violation: response Unable to match the returned status code with ' +
    'those defined in the document: 200',
].join('\n')

describe('parsePrismLog', () => {
  it('attributes each validator line to the exchange logged before it', () => {
    const v = parsePrismLog(LOG)
    expect(v).toEqual([
      {
        method: 'get',
        path: '/api/v1/ledger/policies/100183/invoices',
        status: 200,
        level: 'error',
        side: 'response',
        location: 'response.body',
        message: 'Response body must be object',
      },
      {
        method: 'get',
        path: '/api/v1/ledger/customers/policies/1/custom-view/installments',
        status: 400,
        level: 'error',
        side: 'request',
        location: 'request.query',
        message: "Request query must have required property 'code'",
      },
      {
        method: 'get',
        path: '/api/v1/ledger/customers/policies/1/custom-view/installments',
        status: 400,
        level: 'warning',
        side: 'response',
        location: 'response',
        message: 'Unable to match the returned status code with those defined in the document: 200',
      },
    ])
  })

  it('reads a location naming a parameter, and the contract-check kind of each violation', () => {
    const v = parsePrismLog(
      [
        '[4:16:13 AM] ›     [PROXY] ℹ  info      > Forwarding "post" request to ' +
          'http://127.0.0.1:4732/api/v1/ledger/requests/x?longPolling=true...',
        '[4:16:13 AM] ›     [PROXY] ℹ  info      The upstream call to /api/v1/ledger/requests/x has returned 401',
        '[4:16:13 AM] ›     [VALIDATOR] ✖  error     Violation: request.path.requestid Request path parameter ' +
          'requestid must match format "uuid"',
        '[4:16:13 AM] ›     [VALIDATOR] ✖  error     Violation: response.header The received media type ' +
          '"application/pdf" does not match the one specified in the current response: application/json',
      ].join('\n'),
    )
    expect(v.map((x) => [x.method, x.location, prismKind(x)])).toEqual([
      ['post', 'request.path.requestid', 'request'],
      ['post', 'response.header', 'media-type'],
    ])
    expect(parsePrismLog(LOG).map(prismKind)).toEqual(['response', 'request', 'status'])
    expect(prismKind({ ...v[0]!, side: 'request', message: 'Selected route not found' })).toBe('not-described')
    expect(
      prismKind({
        ...v[1]!,
        location: 'response.header.x-rate-limit',
        message: 'Response header x-rate-limit must be integer',
      }),
    ).toBe('response-headers')
  })

  it('accepts a violation only by a rule of its side, path and message', () => {
    const [invoices, query] = parsePrismLog(LOG)
    const rule = {
      name: 'invoices',
      why: 'x',
      side: 'response' as const,
      path: /\/invoices$/,
      message: /must be object/,
    }
    expect(acceptedBy(invoices!, [rule])).toBe(rule)
    expect(acceptedBy(query!, [rule])).toBeUndefined()
  })
})
