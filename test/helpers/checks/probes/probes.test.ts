import { describe, expect, it } from 'vitest'
import { OPERATIONS, operation } from '../../../../common/operations'
import { missingId, styleOf } from '../../../../helpers/checks/probes/ids'
import { probesFor } from '../../../../helpers/checks/probes/requests'

const run = { runId: 'run-20260101-abcdef', seed: 123456789 }
const target = (extensions: Record<string, Record<string, unknown>> = {}) => ({
  config: { ...run, product: 'home', extensions },
  tag: (l: string) => `lc-${run.runId}-${l}`,
})

describe('probe ids', () => {
  it('learns the style of a seen id', () => {
    expect(styleOf(100042)).toBe('integer')
    expect(styleOf('100042')).toBe('integer')
    expect(styleOf('6f1c2b3a-1d2e-4f5a-8b9c-0d1e2f3a4b5c')).toBe('uuid')
    expect(styleOf('sub_abc')).toBe('string')
    expect(styleOf(undefined)).toBeUndefined()
  })

  it('makes ids of each style that are stable per run and family', () => {
    const n = missingId('integer', run, 'sales')
    expect(n).toMatch(/^\d+$/)
    expect(Number(n)).toBeGreaterThanOrEqual(2_000_000_000)
    expect(Number(n)).toBeLessThan(2 ** 31)
    const u = missingId('uuid', run, 'requests')
    expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(missingId('uuid', run, 'requests')).toBe(u)
    expect(missingId('uuid', run, 'webhooks')).not.toBe(u)
    expect(missingId('string', run, 'sales')).toBe('missing-run20260101abcdef-sales')
  })
})

describe('probe requests', () => {
  it("fills every path parameter with an id of its family, in the documents' dialect by default", () => {
    const p = probesFor(target())
    expect(p.call(operation('sales.quote.get'))).toMatchObject({
      params: { policyId: expect.stringMatching(/^\d+$/) },
      query: { withNotifications: true },
    })
    expect(p.call(operation('sales.requests.get')).params.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(p.call(operation('webhooks.subscription.get')).params.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(p.call(operation('sales.schemes.get')).params).toEqual({ type: 'policy', name: 'home' })
    expect(p.call(operation('sales.customers.custom-view')).query).toEqual({
      code: '00000000000',
      documentCountry: 'EE',
    })
  })

  it('sends a documented body to every POST and PUT but document generation', () => {
    const p = probesFor(target())
    for (const op of OPERATIONS.filter((o) => o.method === 'POST' || o.method === 'PUT')) {
      if (op.id === 'sales.documents.generate') continue
      expect(p.call(op).json, op.id).toBeDefined()
    }
    expect(p.call(operation('webhooks.subscription.create')).json).toMatchObject({
      event: 'extracted',
      url: expect.any(String),
    })
    expect(p.call(operation('sales.quote.mta')).json).toMatchObject({ policy: { id: expect.any(Number) } })
  })

  it('follows the profile (extensions.probes) and a seen id', () => {
    const p = probesFor(target({ probes: { ids: { sales: 'uuid' }, unknownIdStatuses: [404] } }))
    expect(p.missing('sales')).toMatch(/^[0-9a-f-]{36}$/)
    expect(p.missing('sales', 42)).toMatch(/^\d+$/)
    expect(p.missingInBody('sales', 42)).toEqual(expect.any(Number))
    expect(p.settings.unknownId.statuses).toEqual([404])
    expect(p.settings.foreignId.statuses).toEqual([403, 404])
  })
})
