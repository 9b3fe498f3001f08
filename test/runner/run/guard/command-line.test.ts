import { describe, expect, it } from 'vitest'
import {
  environmentNote,
  invocationFrom,
  invocationOf,
  shellQuote,
  withFlag,
  COMMAND_LINE_ENV,
} from '../../../../runner/run/guard/command-line'

describe("the user's own command line (runner/run/guard/command-line.ts)", () => {
  it('an installed package: npx ledger-conformance and the arguments as typed', () => {
    const inv = invocationOf(['explore', '--profile', 'ci/staging.jsonc', '--time-limit-s', '60'], 'explore', {}, true)
    expect(inv).toEqual({
      prefix: 'npx ledger-conformance',
      args: ['explore', '--profile', 'ci/staging.jsonc', '--time-limit-s', '60'],
      command: 'explore',
    })
    expect(withFlag(inv, '--allow-writes')).toBe(
      'npx ledger-conformance explore --profile ci/staging.jsonc --time-limit-s 60 --allow-writes',
    )
  })

  it("an npm script of a clone: the script's own arguments are not repeated, the user's after --", () => {
    const env = { npm_lifecycle_event: 'conformance', npm_lifecycle_script: 'node bin/ledger-conformance.mjs run' }
    const inv = invocationOf(['run', '--profile', 'p.json', '--check', 'SL-LIFE'], 'run', env, false)
    expect(inv.prefix).toBe('npm run conformance --')
    expect(withFlag(inv, '--read-only', ['--allow-writes'])).toBe(
      'npm run conformance -- --profile p.json --check SL-LIFE --read-only',
    )
    const acceptance = invocationOf(
      ['acceptance', '--profile', 'ci/acme.jsonc'],
      'acceptance',
      { npm_lifecycle_event: 'acceptance', npm_lifecycle_script: 'node bin/ledger-conformance.mjs acceptance' },
      false,
    )
    expect(withFlag(acceptance, '--allow-writes')).toBe('npm run acceptance -- --profile ci/acme.jsonc --allow-writes')
  })

  it("a script of the user's own package that calls the bin is repeated as npx, whole", () => {
    const inv = invocationOf(
      ['run', '--profile', 'ci/x.jsonc'],
      'run',
      { npm_lifecycle_event: 'e2e', npm_lifecycle_script: 'ledger-conformance run --profile ci/x.jsonc' },
      true,
    )
    expect(withFlag(inv, '--allow-writes')).toBe('npx ledger-conformance run --profile ci/x.jsonc --allow-writes')
  })

  it(
    'a profile from TARGET_PROFILE is named with --profile (the line pasted elsewhere checks the same target); ' +
      'target variables are noted',
    () => {
      const inv = invocationOf(
        ['explore', '--time-limit-s', '60'],
        'explore',
        { TARGET_PROFILE: 'ci/prod.jsonc', SALES_BASE_URL: 'https://x', AUTH_PASSWORD: 'never-named' },
        true,
      )
      expect(withFlag(inv, '--allow-writes')).toBe(
        'npx ledger-conformance explore --time-limit-s 60 --profile ci/prod.jsonc --allow-writes',
      )
      expect(environmentNote(inv)).toBe(' (with SALES_BASE_URL set as now)')
      expect(JSON.stringify(inv)).not.toContain('never-named')
      // --profile given: not named twice; several profiles: no single one to name
      expect(
        withFlag(
          invocationOf(['run', '--profile=a.json'], 'run', { TARGET_PROFILE: 'b.json' }, true),
          '--allow-writes',
        ),
      ).toBe('npx ledger-conformance run --profile=a.json --allow-writes')
      expect(
        invocationOf(['run'], 'run', { TARGET_PROFILE: 'b.json', TARGET_PROFILES: 'a.json,b.json' }, true)
          .profileFromEnv,
      ).toBeUndefined()
    },
  )

  it(
    'the flag goes before the -- that hands the rest to vitest; the contradicting flag goes; arguments are quoted ' +
      'for a shell',
    () => {
      const inv = invocationOf(['run', '--read-only', '--section', 'sales §5', '--', '--bail=1'], 'run', {}, true)
      expect(withFlag(inv, '--allow-writes', ['--read-only'])).toBe(
        "npx ledger-conformance run --section 'sales §5' --allow-writes -- --bail=1",
      )
      expect(shellQuote("it's")).toBe(`'it'\\''s'`)
      expect(withFlag(invocationOf(['run', '--allow-writes'], 'run', {}, true), '--allow-writes')).toBe(
        'npx ledger-conformance run --allow-writes',
      )
    },
  )

  it('the CLI passes it to the processes it starts; without it, the fallback', () => {
    const inv = invocationOf(['replay', 'X'], 'replay', {}, true)
    expect(
      invocationFrom({ [COMMAND_LINE_ENV]: JSON.stringify(inv) }, () => ({
        prefix: 'other',
        args: [],
        command: 'run',
      })),
    ).toEqual(inv)
    expect(
      invocationFrom({ [COMMAND_LINE_ENV]: 'garbage' }, () => ({ prefix: 'other', args: [], command: 'run' })).prefix,
    ).toBe('other')
  })
})
