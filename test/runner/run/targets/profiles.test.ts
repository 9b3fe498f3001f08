import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../../../common/config/target-config'
import { targetProfilesFrom } from '../../../../runner/run/targets/profiles'

const problems = (env: NodeJS.ProcessEnv): string[] => {
  try {
    targetProfilesFrom(env)
  } catch (e) {
    if (e instanceof ConfigError) return e.problems
    throw e
  }
  return []
}

describe('targetProfilesFrom', () => {
  it('is undefined when TARGET_PROFILES is unset or blank', () => {
    expect(targetProfilesFrom({})).toBeUndefined()
    expect(targetProfilesFrom({ TARGET_PROFILES: '  ' })).toBeUndefined()
  })

  it('keys each profile by its file name', () => {
    expect(targetProfilesFrom({ TARGET_PROFILES: 'a/acme.json, b/globex.jsonc,' })).toEqual({
      paths: ['a/acme.json', 'b/globex.jsonc'],
      keys: ['acme', 'globex'],
    })
  })

  it('refuses the variables that name one tenant or user, naming each', () => {
    const p = problems({
      TARGET_PROFILES: 'acme.json',
      TARGET_PROFILE: 'x.json',
      TENANT: 'acme',
      AUTH_USERNAME: 'u',
      AUTH_PASSWORD: 'secret-value',
    })
    expect(p.map((m) => m.split(':')[0])).toEqual(['TARGET_PROFILE', 'TENANT', 'AUTH_USERNAME', 'AUTH_PASSWORD'])
    expect(p.join('\n')).not.toContain('secret-value')
  })

  it(
    'refuses several targets in an installed package (nothing is written inside node_modules), saying to run each ' +
      'profile on its own',
    () => {
      let thrown: unknown
      try {
        targetProfilesFrom({ TARGET_PROFILES: 'a/acme.json,b/globex.json' }, { installed: true })
      } catch (e) {
        thrown = e
      }
      expect(thrown).toBeInstanceOf(ConfigError)
      expect((thrown as ConfigError).problems).toEqual([
        expect.stringMatching(/^TARGET_PROFILES: .*installed package.*--profile/),
      ])
      expect(targetProfilesFrom({ TARGET_PROFILES: 'a/acme.json' }, { installed: false })).toEqual({
        paths: ['a/acme.json'],
        keys: ['acme'],
      })
    },
  )

  it('refuses two profiles with the same file name and a name that cannot be a key', () => {
    expect(problems({ TARGET_PROFILES: 'a/acme.json,b/acme.json' })).toEqual([
      expect.stringMatching(/two profiles are named 'acme'/),
    ])
    expect(problems({ TARGET_PROFILES: 'my tenant.json' })).toEqual([expect.stringMatching(/'my tenant.json' must be/)])
  })
})
