import { describe, expect, it } from 'vitest'
import { aboutOperations, namedIn } from '../../../../runner/run/selection/about'
import { operationOfRequest } from '../../../../helpers/checks/failure'

describe('which operations a requirement is about', () => {
  it('declared first, then an operation id inside the check id', () => {
    expect(
      aboutOperations({ id: 'X-1', about: ['sales.quote.bind'], requirement: 'GET /api/webhook/events lists' }),
    ).toEqual(['sales.quote.bind'])
    expect(aboutOperations({ id: 'SEC-NOTOKEN-sales.quote.create', requirement: 'anything' })).toEqual([
      'sales.quote.create',
    ])
  })

  it('else the operations the requirement names as METHOD /path, the most specific template winning', () => {
    expect(namedIn('POST /api/webhook/subscription with a body without url answers 400.')).toEqual([
      'webhooks.subscription.create',
    ])
    expect(namedIn('GET /api/webhook/subscription/{id} of an id that never existed answers 404.')).toEqual([
      'webhooks.subscription.get',
    ])
    expect(namedIn('The schema from GET /schemes/{type}/regular/{name} compiles.')).toEqual(['sales.schemes.get'])
    expect(namedIn('A calculated quote can be declined with a reason.')).toEqual([])
  })

  it('else, for a failed check, the operation of the request its failing assertion examined', () => {
    // the failure record's operation: the recorded exchange's, else the request matched to the catalogue
    expect(operationOfRequest('POST', 'http://127.0.0.1:4010/api/v1/ledger/sales/policies/42/bind')).toBe(
      'sales.quote.bind',
    )
    expect(
      aboutOperations({ id: 'SL-DEC-002', requirement: 'A declined quote cannot be bound.' }, 'sales.quote.bind'),
    ).toEqual(['sales.quote.bind'])
    // a base URL with a path prefix
    expect(operationOfRequest('GET', 'https://gw.example.test/sales-api/api/webhook/events')).toBe(
      'webhooks.events.list',
    )
  })
})
