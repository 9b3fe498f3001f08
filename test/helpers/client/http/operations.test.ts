import { describe, expect, it } from 'vitest'
import { fillPath, matchOperation, operation, OPERATIONS, type OperationId } from '../../../../common/operations'
import { createAjv } from '../../../../common/ajv'
import schema from '../../../../common/operations.schema.json'
import catalogue from '../../../../common/operations.json'

describe('operations catalogue', () => {
  it('is valid against its schema and has the 33 operations of both specs', () => {
    const validate = createAjv().compile(schema)
    expect(validate(catalogue), JSON.stringify(validate.errors)).toBe(true)
    expect(OPERATIONS).toHaveLength(33)
    expect(OPERATIONS.filter((o) => o.service === 'sales')).toHaveLength(27)
    expect(new Set(OPERATIONS.map((o) => o.id)).size).toBe(33)
    expect(new Set(OPERATIONS.map((o) => `${o.method} ${o.path}`)).size).toBe(33)
  })

  it('matches concrete paths to the most specific template', () => {
    expect(matchOperation('GET', '/api/v1/ledger/sales/policies/actions/q1')?.id).toBe('sales.quote.actions')
    expect(matchOperation('GET', '/api/v1/ledger/sales/policies/q1')?.id).toBe('sales.quote.get')
    expect(matchOperation('PUT', '/api/v1/ledger/sales/policies/q1/')?.id).toBe('sales.quote.update')
    expect(matchOperation('POST', '/api/v1/ledger/sales/policies/create')?.id).toBe('sales.quote.create')
    expect(matchOperation('POST', '/api/v1/ledger/policies/p1/terminate/premiums')?.id).toBe(
      'sales.termination.premiums',
    )
    expect(matchOperation('DELETE', '/api/webhook/subscription/abc')?.id).toBe('webhooks.subscription.delete')
    expect(matchOperation('GET', '/health')).toBeUndefined()
    expect(matchOperation('PATCH', '/api/webhook/subscription/abc')).toBeUndefined()
  })

  it('fills path parameters, encoded, and refuses a missing one', () => {
    expect(fillPath(operation('webhooks.subscription.get').path, { id: 'a/b c' })).toBe(
      '/api/webhook/subscription/a%2Fb%20c',
    )
    expect(() => fillPath('/x/{id}', {})).toThrow(/missing parameter 'id'/)
    expect(() => operation('nope' as OperationId)).toThrow(/unknown operation id/)
  })
})
