import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, PROJECT_ROOT } from '../../../../common/config/target-config'
import { loadTargets } from '../../../../runner/run/targets/load'
import { tempDir } from '../../../support/temp-dir'

const tenant = (t: string) => resolve(PROJECT_ROOT, `fixtures/targets/tenants/${t}.json`)

describe('loadTargets', () => {
  it('resolves every profile, one run id per target on a shared seed', () => {
    const targets = loadTargets({
      TARGET_PROFILES: `${tenant('acme')},${tenant('globex')}`,
      CONFORMANCE_RUN_ID: 'nightly-7',
      CONFORMANCE_SEED: '99',
    })!
    expect(targets.map((t) => t.key)).toEqual(['acme', 'globex'])
    expect(targets.map((t) => t.config.runId)).toEqual(['nightly-7-acme', 'nightly-7-globex'])
    expect(targets.map((t) => t.config.seed)).toEqual([99, 99])
    expect(targets.map((t) => [t.config.tenant, t.config.users.primary.username])).toEqual([
      ['acme', 'broker@acme.test'],
      ['globex', 'broker@globex.test'],
    ])
    expect(targets.every((t) => t.config.embedded)).toBe(true)
    // globex's profile removes the users its tenant does not have (null in the merge patch)
    expect(Object.keys(targets[1]!.config.users).sort()).toEqual(['otherTenant', 'primary'])
  })

  it('shares a generated run id and seed between the targets when none is given', () => {
    const [a, b] = loadTargets({ TARGET_PROFILES: `${tenant('acme')},${tenant('umbrella')}` })!
    expect(a!.config.runId.replace(/-acme$/, '')).toBe(b!.config.runId.replace(/-umbrella$/, ''))
    expect(a!.config.seed).toBe(b!.config.seed)
  })

  it('lists the problems of every profile, each under its key', () => {
    const dir = tempDir('targets')
    writeFileSync(
      join(dir, 'broken.json'),
      JSON.stringify({ extends: tenant('acme'), polling: { maxRatePerSecond: 'fast' } }),
    )
    try {
      loadTargets({ TARGET_PROFILES: `${tenant('acme')},${join(dir, 'broken.json')},${join(dir, 'missing.json')}` })
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError)
      const p = (e as ConfigError).problems
      expect(p).toEqual([
        expect.stringMatching(/^\[broken\] .*\/polling\/maxRatePerSecond: must be/),
        expect.stringMatching(/^\[missing\] .*file not found/),
      ])
    }
  })

  it('refuses embedded targets that ask for different reference options', () => {
    const dir = tempDir('targets')
    writeFileSync(join(dir, 'slow.json'), JSON.stringify({ extends: tenant('globex'), reference: { lockMs: 900 } }))
    expect(() => loadTargets({ TARGET_PROFILES: `${tenant('acme')},${join(dir, 'slow.json')}` })).toThrow(
      /\[slow\] reference: the embedded targets share one reference service/,
    )
  })
})
