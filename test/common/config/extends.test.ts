import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_PROFILE, loadTargetConfig, mergeProfile, PROJECT_ROOT } from '../../../common/config/target-config'
import { configProblems as problems, profileDir as dir } from '../../support/profile-files'

describe('profile extends', () => {
  it('merges as a JSON Merge Patch: objects by field, null removes, arrays replace', () => {
    expect(
      mergeProfile({ a: { x: 1, y: 2 }, list: [1, 2], gone: 1, keep: 'k' }, { a: { y: 3 }, list: [9], gone: null }),
    ).toEqual({ a: { x: 1, y: 3 }, list: [9], keep: 'k' })
  })

  it('a profile that extends the reference profile inherits what it does not say', () => {
    const d = dir({
      'slow.json': { extends: DEFAULT_PROFILE, name: 'slow', polling: { maxDelayMs: 250 }, products: ['home'] },
    })
    const c = loadTargetConfig({ TARGET_PROFILE: join(d, 'slow.json') })
    expect(c.profileName).toBe('slow')
    expect(c.tenant).toBe('acme')
    expect(c.users.primary.username).toBe('broker@acme.test')
    expect(c.polling.maxDelayMs).toBe(250)
    expect(c.polling.initialDelayMs).toBe(20)
    expect(c.products).toEqual(['home'])
  })

  it('resolves the base relative to the extending file, through a chain', () => {
    const d = dir({
      'base.json': { extends: resolve(PROJECT_ROOT, 'fixtures/targets/tenants/globex.json'), name: 'mid' },
      'top.jsonc': '// top\n{ "extends": "./base.json", "name": "top" }',
    })
    const c = loadTargetConfig({ TARGET_PROFILE: join(d, 'top.jsonc') })
    expect([c.profileName, c.tenant, c.users.primary.username]).toEqual(['top', 'globex', 'broker@globex.test'])
    expect(c.users.restricted).toBeUndefined()
  })

  it('validates the merged profile and names the field', () => {
    const d = dir({ 'bad.json': { extends: DEFAULT_PROFILE, polling: { maxRatePerSecond: 0 } } })
    expect(problems({ TARGET_PROFILE: join(d, 'bad.json') })).toEqual([
      expect.stringMatching(/\/polling\/maxRatePerSecond: must be > 0/),
    ])
  })

  it('names a missing base and an extends loop', () => {
    const d = dir({
      'orphan.json': { extends: 'nowhere.json' },
      'a.json': { extends: 'b.json' },
      'b.json': { extends: 'a.json' },
    })
    expect(problems({ TARGET_PROFILE: join(d, 'orphan.json') })).toEqual([
      expect.stringMatching(/\/extends \(.*nowhere\.json\): file not found/),
    ])
    expect(problems({ TARGET_PROFILE: join(d, 'a.json') })).toEqual([
      expect.stringMatching(/more than 5 levels of extends/),
    ])
  })
})
