import { describe, expect, it } from 'vitest'
import type { TargetConfig } from '../../common/config/types'
import { cliFileFilters } from '../../runner/run/guard/cli-filters'
import { productionGuard } from '../../runner/run/guard/production-guard'
import { COMMAND_LINE_ENV } from '../../runner/run/guard/command-line'
import { loadSuiteClasses, writingFiles } from '../../runner/run/guard/suite-classes'

const classes = { readOnly: ['suites/auth/login.test.ts'] }
const prod = {
  profileName: 'prod',
  nonProduction: false,
  embedded: false,
  services: {
    salesBaseUrl: 'https://ledger.example.com',
    authUrl: 'https://ledger.example.com/api/v1/identifier',
    webhookBaseUrl: 'https://ledger.example.com',
  },
} as TargetConfig
const stagingServices = {
  salesBaseUrl: 'https://staging.example.com',
  authUrl: 'https://staging.example.com/api/v1/identifier',
  webhookBaseUrl: 'https://staging.example.com',
}
const staging = { ...prod, profileName: 'staging', nonProduction: true, services: stagingServices } as TargetConfig
const WRITING = ['/work/x/suites/sales/lifecycle.test.ts']

describe('production guard', () => {
  it(
    "refuses writing suites against a target not marked nonProduction, naming why and what to do with the user's " +
      'own command line',
    () => {
      const line = JSON.stringify({
        prefix: 'npx ledger-conformance',
        args: ['run', '--profile', 'ci/prod.jsonc', '--check', 'SL-LIFE'],
        command: 'run',
      })
      const d = productionGuard({
        config: prod,
        files: ['suites/auth/login.test.ts', 'suites/sales/lifecycle.test.ts'],
        classes,
        env: { [COMMAND_LINE_ENV]: line },
      })
      expect(d.allowed).toBe(false)
      if (!d.allowed) {
        expect(d.message).toMatch(/No request was sent/)
        expect(d.message).toMatch(/suites\/sales\/lifecycle\.test\.ts/)
        expect(d.message).toContain("'npx ledger-conformance run --profile ci/prod.jsonc --check SL-LIFE --read-only'")
        expect(d.message).toContain(
          "'npx ledger-conformance run --profile ci/prod.jsonc --check SL-LIFE --allow-writes' (or ALLOW_WRITES=1)",
        )
      }
    },
  )

  it('acceptance (told by the CLI) is refused with the same text, without a read-only way', () => {
    const line = JSON.stringify({
      prefix: 'npm run acceptance --',
      args: ['--profile', 'ci/acme.jsonc'],
      command: 'acceptance',
    })
    const d = productionGuard({ config: prod, files: WRITING, classes, env: { [COMMAND_LINE_ENV]: line } })
    expect(d.allowed).toBe(false)
    if (!d.allowed) {
      expect(d.message).toMatch(
        /^Production guard: refusing to run the acceptance suites, which create or change data, against https:\/\/ledger\.example\.com: /,
      )
      expect(d.message).toMatch(/acceptance cannot be read-only/)
      expect(d.message).toContain("'npm run acceptance -- --profile ci/acme.jsonc --allow-writes'")
    }
  })

  it('allows read-only suites anywhere', () => {
    expect(productionGuard({ config: prod, files: ['suites/auth/login.test.ts'], classes, env: {} }).allowed).toBe(true)
  })

  it('allows writing suites with ALLOW_WRITES=1, or on a nonProduction profile', () => {
    expect(productionGuard({ config: prod, files: WRITING, classes, env: { ALLOW_WRITES: '1' } }).allowed).toBe(true)
    expect(productionGuard({ config: prod, files: WRITING, classes, env: { ALLOW_WRITES: '0' } }).allowed).toBe(false)
    expect(
      productionGuard({ config: staging, files: WRITING, classes, env: {}, profileServices: stagingServices }).allowed,
    ).toBe(true)
    expect(productionGuard({ config: { ...staging, embedded: true }, files: WRITING, classes, env: {} }).allowed).toBe(
      true,
    )
  })

  it('a nonProduction profile aimed elsewhere by an environment URL is not trusted (loopback is)', () => {
    const d = productionGuard({ config: staging, files: WRITING, classes, env: {}, profileServices: {} })
    expect(d.allowed).toBe(false)
    const local = {
      ...staging,
      services: {
        salesBaseUrl: 'http://127.0.0.1:4010',
        authUrl: 'http://127.0.0.1:4010/api/v1/identifier',
        webhookBaseUrl: 'http://localhost:4010',
      },
    } as TargetConfig
    expect(productionGuard({ config: local, files: WRITING, classes, env: {}, profileServices: {} }).allowed).toBe(true)
  })

  it('every suite not listed read-only is writing; the fixture validates', () => {
    expect(writingFiles(['suites/auth/login.test.ts', 'suites/security/bearer-required.test.ts'], classes)).toEqual([
      'suites/security/bearer-required.test.ts',
    ])
    expect(loadSuiteClasses().readOnly).toContain('suites/auth/login.test.ts')
  })
})

describe('cliFileFilters()', () => {
  it('takes positional arguments as filters and skips option values', () => {
    expect(
      cliFileFilters([
        'node',
        'vitest.mjs',
        'run',
        '--config',
        'vitest.config.ts',
        'suites/auth',
        '-t',
        'AUTH',
        'suites/sales',
      ]),
    ).toEqual(['suites/auth', 'suites/sales'])
    expect(cliFileFilters(['node', 'vitest.mjs', 'run', '--config=vitest.config.ts', '--reporter', 'dot'])).toEqual([])
  })

  it(
    "the installed package's --configLoader runner is an option and its value, not a filter (the lane would be " +
      'named by it)',
    () => {
      expect(
        cliFileFilters([
          'node',
          'vitest.mjs',
          'run',
          '--config',
          '/x/vitest.config.ts',
          '--configLoader',
          'runner',
          'suites/auth',
          'suites/webhooks',
        ]),
      ).toEqual(['suites/auth', 'suites/webhooks'])
    },
  )

  it('an argument it cannot place counts as a filter (widens, never narrows, what the guard sees)', () => {
    expect(cliFileFilters(['node', 'vitest.mjs', '--silent', 'suites/x'])).toEqual(['suites/x'])
  })
})
