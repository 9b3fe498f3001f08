import { describe, expect, it } from 'vitest'
import { acceptedBy, parsePrismLog } from '../../scripts/harness/prism-log'

const LOG = [
  '[6:30:41 PM] › [HTTP SERVER] get /api/v1/ledger/policies/100183/invoices ℹ  info      Request received',
  '[6:30:41 PM] ›     [PROXY] ℹ  info      The upstream call to /api/v1/ledger/policies/100183/invoices has returned 200',
  '[6:30:41 PM] ›     [PROXY] ℹ  info      < Received forward response',
  '[6:30:41 PM] ›     [VALIDATOR] ✖  error     Violation: response.body Response body must be object',
  '[6:30:41 PM] ›     [PROXY] ℹ  info      The upstream call to /api/v1/ledger/customers/policies/1/custom-view/installments has returned 400',
  '[6:30:41 PM] ›     [VALIDATOR] ✖  error     Violation: request.query Request query must have required property \'code\'',
  '[6:30:41 PM] ›     [VALIDATOR] ⚠  warning   Violation: response Unable to match the returned status code with those defined in the document: 200',
].join('\n')

describe('parsePrismLog', () => {
  it('attributes each validator line to the exchange logged before it', () => {
    const v = parsePrismLog(LOG)
    expect(v).toEqual([
      { path: '/api/v1/ledger/policies/100183/invoices', status: 200, level: 'error', side: 'response', location: 'response.body', message: 'Response body must be object' },
      { path: '/api/v1/ledger/customers/policies/1/custom-view/installments', status: 400, level: 'error', side: 'request', location: 'request.query', message: "Request query must have required property 'code'" },
      { path: '/api/v1/ledger/customers/policies/1/custom-view/installments', status: 400, level: 'warning', side: 'response', location: 'response', message: 'Unable to match the returned status code with those defined in the document: 200' },
    ])
  })

  it('accepts a violation only by a rule of its side, path and message', () => {
    const [invoices, query] = parsePrismLog(LOG)
    const rule = { name: 'invoices', why: 'x', side: 'response' as const, path: /\/invoices$/, message: /must be object/ }
    expect(acceptedBy(invoices!, [rule])).toBe(rule)
    expect(acceptedBy(query!, [rule])).toBeUndefined()
  })
})
