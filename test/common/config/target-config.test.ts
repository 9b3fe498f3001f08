import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_TOKEN_POINTERS,
  loadTargetConfig,
  REFERENCE_OPENAPI,
  withEmbeddedOrigin,
  withReferenceContract,
} from '../../../common/config/target-config'
import { SCHEMA_LIMITS } from '../../../common/config/schema-limits'
import { configProblems as problems, profileDir } from '../../support/profile-files'

function profile(content: unknown, ext = 'json'): string {
  return join(profileDir({ [`p.${ext}`]: content }), `p.${ext}`)
}

describe('loadTargetConfig', () => {
  it('defaults to the reference profile and the embedded service', () => {
    const c = loadTargetConfig({})
    expect(c.embedded).toBe(true)
    expect(c.tenant).toBe('acme')
    expect(c.users.primary.username).toBe('broker@acme.test')
    expect(c.headers.tenant).toBe('X-TENANT-ID')
    expect(c.auth.tokenPointers).toEqual(DEFAULT_TOKEN_POINTERS)
    expect(c.nonProduction).toBe(true)
    expect(c.runId).toMatch(/^run-\d{8}-[0-9a-f]{6}$/)
  })

  it('SALES_BASE_URL selects an external target and derives the other URLs', () => {
    const c = loadTargetConfig({ SALES_BASE_URL: 'http://127.0.0.1:4010/' })
    expect(c.embedded).toBe(false)
    expect(c.services).toEqual({
      salesBaseUrl: 'http://127.0.0.1:4010',
      authUrl: 'http://127.0.0.1:4010/api/v1/identifier',
      webhookBaseUrl: 'http://127.0.0.1:4010',
    })
  })

  it('environment variables override the profile', () => {
    const c = loadTargetConfig({
      SALES_BASE_URL: 'http://a.test',
      AUTH_URL: 'http://b.test/id',
      WEBHOOK_BASE_URL: 'http://c.test',
      TENANT: 'globex',
      AUTH_USERNAME: 'u@x',
      AUTH_PASSWORD: 'pw-1234',
      PRODUCT: 'travel',
      CONFORMANCE_SEED: '42',
      CONFORMANCE_RUN_ID: 'r1',
    })
    expect(c.services.authUrl).toBe('http://b.test/id')
    expect(c.tenant).toBe('globex')
    expect(c.users.primary).toEqual({ tenant: 'globex', username: 'u@x', password: 'pw-1234' })
    expect(c.products).toEqual(['travel'])
    expect(c.seed).toBe(42)
    expect(c.runId).toBe('r1')
  })

  it(
    'the expiry leeway and its ceiling (auth.maxExpiryLeewaySeconds, default 120, never below the leeway); ' +
      'LEDGER_THOROUGH',
    () => {
      const base = { name: 'x', tenant: 'acme', credentials: { username: 'u', password: 'p' } }
      const c = loadTargetConfig({})
      expect([c.auth.expiryLeewaySeconds, c.auth.maxExpiryLeewaySeconds, c.thorough]).toEqual([30, 120, false])
      expect(loadTargetConfig({ LEDGER_THOROUGH: '1' }).thorough).toBe(true)
      expect(
        loadTargetConfig({ TARGET_PROFILE: profile({ ...base, auth: { expiryLeewaySeconds: 300 } }) }).auth
          .maxExpiryLeewaySeconds,
      ).toBe(300)
      expect(
        loadTargetConfig({ TARGET_PROFILE: profile({ ...base, auth: { maxExpiryLeewaySeconds: 60 } }) }).auth
          .maxExpiryLeewaySeconds,
      ).toBe(60)
      expect(
        problems({
          TARGET_PROFILE: profile({ ...base, auth: { expiryLeewaySeconds: 60, maxExpiryLeewaySeconds: 30 } }),
        }),
      ).toEqual([
        'auth.maxExpiryLeewaySeconds: 30 is below auth.expiryLeewaySeconds (60); the ceiling of any acceptable ' +
          'leeway cannot be smaller than the leeway the profile accepts',
      ])
      expect(problems({ LEDGER_THOROUGH: 'yes' })).toEqual(["LEDGER_THOROUGH: must be 1 or 0, got 'yes'"])
    },
  )

  it('names every bad variable, without echoing the password', () => {
    const p = problems({ SALES_BASE_URL: 'not a url', TENANT: 'a b', CONFORMANCE_SEED: 'x', AUTH_PASSWORD: '' })
    expect(p.join('\n')).toMatch(/SALES_BASE_URL: must be an absolute http\(s\) URL/)
    expect(p.join('\n')).toMatch(/TENANT: must match/)
    expect(p.join('\n')).toMatch(/CONFORMANCE_SEED/)
    expect(p.join('\n')).toMatch(/AUTH_PASSWORD: is set but empty/)
  })

  it('names the profile field that is wrong', () => {
    const path = profile({
      name: 'x',
      tenant: 'acme',
      credentials: { username: 'u', password: 'p' },
      polling: { maxDelayMs: 'fast' },
      typo: 1,
    })
    const p = problems({ TARGET_PROFILE: path })
    expect(p.some((m) => m.includes('/polling/maxDelayMs') && m.includes('must be integer'))).toBe(true)
    expect(p.some((m) => m.includes('/typo: unknown field'))).toBe(true)
  })

  it("schemaLimits: the defaults, the profile's override, and a bad value named", () => {
    expect(loadTargetConfig({}).schemaLimits).toEqual(SCHEMA_LIMITS)
    const base = { name: 'x', tenant: 'acme', credentials: { username: 'u', password: 'p' } }
    const c = loadTargetConfig({
      TARGET_PROFILE: profile({ ...base, schemaLimits: { maxStringLength: 100, generatorDeadlineMs: 1000 } }),
    })
    expect(c.schemaLimits).toEqual({ ...SCHEMA_LIMITS, maxStringLength: 100, generatorDeadlineMs: 1000 })
    const p = problems({ TARGET_PROFILE: profile({ ...base, schemaLimits: { maxDepth: 0, deadline: 1 } }) })
    expect(p.some((m) => m.includes('/schemaLimits/maxDepth'))).toBe(true)
    expect(p.some((m) => m.includes('/schemaLimits/deadline: unknown field'))).toBe(true)
  })

  it('reports a missing or unparsable profile file', () => {
    expect(problems({ TARGET_PROFILE: '/nonexistent/profile.json' })[0]).toMatch(/file not found/)
    expect(problems({ TARGET_PROFILE: profile('{ nope') })[0]).toMatch(/not valid JSON/)
  })

  it('reads passwords from the variable named by passwordEnv', () => {
    const path = profile({
      name: 'x',
      tenant: 'acme',
      services: { salesBaseUrl: 'http://s.test' },
      credentials: { username: 'u', passwordEnv: 'MY_PW' },
    })
    expect(loadTargetConfig({ TARGET_PROFILE: path, MY_PW: 'from-env' }).users.primary.password).toBe('from-env')
    expect(problems({ TARGET_PROFILE: path })[0]).toMatch(
      /credentials.passwordEnv: environment variable MY_PW is not set/,
    )
  })

  it('the shipped staging example is a valid commented profile', () => {
    const c = loadTargetConfig({
      TARGET_PROFILE: 'fixtures/targets/staging.example.jsonc',
      AUTH_PASSWORD: 'x-pass',
      RESTRICTED_PASSWORD: 'y-pass',
    })
    expect(c.embedded).toBe(false)
    expect(c.statuses.success).toContain('completed')
  })

  it('lower-cases status spellings', () => {
    const path = profile({
      name: 'x',
      tenant: 'acme',
      credentials: { username: 'u', password: 'p' },
      statuses: { pending: ['PENDING'], success: ['Done'], failure: ['ERR'] },
    })
    expect(loadTargetConfig({ TARGET_PROFILE: path }).statuses).toEqual({
      pending: ['pending'],
      success: ['done'],
      failure: ['err'],
    })
  })

  it('REFERENCE_DEFECTS only applies to the embedded service', () => {
    expect(problems({ SALES_BASE_URL: 'http://x.test', REFERENCE_DEFECTS: 'a' })[0]).toMatch(/REFERENCE_DEFECTS/)
    expect(loadTargetConfig({ REFERENCE_DEFECTS: 'a, b' }).reference.defects).toEqual(['a', 'b'])
  })

  it(
    "withReferenceContract names the reference's own document unless the profile names documents (an empty list " +
      'turns it off)',
    () => {
      const c = loadTargetConfig({})
      expect(c.openapi).toBeUndefined()
      expect(withReferenceContract(c).openapi).toEqual([REFERENCE_OPENAPI])
      expect(withReferenceContract({ ...c, openapi: [] }).openapi).toEqual([])
      expect(withReferenceContract({ ...c, openapi: ['/x/doc.json'] }).openapi).toEqual(['/x/doc.json'])
    },
  )

  it('withEmbeddedOrigin fills the three service URLs', () => {
    const c = withEmbeddedOrigin(loadTargetConfig({}), 'http://127.0.0.1:1234')
    expect(c.services.authUrl).toBe('http://127.0.0.1:1234/api/v1/identifier')
  })
})
