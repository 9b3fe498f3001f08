import { describe, expect, it } from 'vitest'
import { loadTargetConfig } from '../../../common/config/target-config'
import type { TargetConfig } from '../../../common/config/types'
import { POLICIES_DEFAULTS, policiesSettings } from '../../../common/config/policies-settings'

function withPolicies(block: Record<string, unknown>): TargetConfig {
  const c = loadTargetConfig({} as NodeJS.ProcessEnv)
  return { ...c, extensions: { ...c.extensions, policies: block } }
}

describe('policies settings', () => {
  it('the reference profile spells out exactly the defaults', () => {
    expect(policiesSettings(loadTargetConfig({} as NodeJS.ProcessEnv))).toEqual(POLICIES_DEFAULTS)
  })

  it('a partial block keeps the other defaults', () => {
    const s = policiesSettings(withPolicies({ dayCount: 'expiry-exclusive', totals: { paid: '/paidAmount' } }))
    expect(s.dayCount).toBe('expiry-exclusive')
    expect(s.totals.paid).toBe('/paidAmount')
    expect(s.totals.balance).toBe(POLICIES_DEFAULTS.totals.balance)
    expect(s.mta).toEqual(POLICIES_DEFAULTS.mta)
  })

  it('request bodies and pointer maps from the profile replace the defaults as a whole', () => {
    const s = policiesSettings(
      withPolicies({ mta: { body: { policyId: '{{policyId}}' }, set: { '/customer/name': 'x' } } }),
    )
    expect(s.mta.body).toEqual({ policyId: '{{policyId}}' })
    expect(s.mta.set).toEqual({ '/customer/name': 'x' })
    expect(s.mta.quoteIdPointer).toBe(POLICIES_DEFAULTS.mta.quoteIdPointer)
  })
})
