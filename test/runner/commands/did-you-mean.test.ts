import { parseArgs } from 'node:util'
import { describe, expect, it } from 'vitest'
import { nearest, withDidYouMean } from '../../../runner/commands/did-you-mean'
import { RUN_OPTIONS } from '../../../runner/commands/run/index'
import { versionLine } from '../../../runner/cli/version'
import { suggestedCommand } from '../../../common/suggested-command'
import { callerPath, CALLER_CWD_ENV } from '../../../common/report-paths'

const parseError = (args: string[]) => {
  try {
    parseArgs({ args, options: RUN_OPTIONS, strict: true, allowPositionals: true })
  } catch (e) {
    return (e as Error).message
  }
  throw new Error('expected a parse error')
}

describe('usage papercuts', () => {
  it('names the option meant for a typo, and none for a word far from every option', () => {
    expect(withDidYouMean(parseError(['--chek', 'X']), RUN_OPTIONS)).toBe(
      "Unknown option '--chek'. Did you mean --check?",
    )
    expect(withDidYouMean(parseError(['--readonly']), RUN_OPTIONS)).toBe(
      "Unknown option '--readonly'. Did you mean --read-only?",
    )
    expect(withDidYouMean(parseError(['--porfile', 'p.json']), RUN_OPTIONS)).toContain('Did you mean --profile?')
    expect(withDidYouMean(parseError(['--verbose']), RUN_OPTIONS)).toBe("Unknown option '--verbose'")
    expect(nearest('lsit', ['run', 'list', 'init'])).toBe('list')
    expect(nearest('xyz', ['run', 'list', 'init'])).toBeUndefined()
  })

  it('--version prints the name and version of package.json', () => {
    expect(versionLine()).toMatch(/^ledger-conformance \d+\.\d+\.\d+/)
  })

  it(
    'suggests commands that exist where the tool runs: npx ledger-conformance installed, the npm script in a ' +
      'clone',
    () => {
      expect(suggestedCommand('run --read-only', 'npm run smoke', true)).toBe('npx ledger-conformance run --read-only')
      expect(suggestedCommand('run --read-only', 'npm run smoke', false)).toBe('npm run smoke')
    },
  )

  it("prints report paths relative to the caller's folder, not the package's", () => {
    const env = { [CALLER_CWD_ENV]: '/home/me/service' }
    expect(callerPath('/home/me/service/reports', env)).toBe('reports')
    expect(callerPath('/home/me/service', env)).toBe('.')
    expect(callerPath('/tmp/r', env)).toBe('../../../tmp/r')
  })
})

describe('colour', () => {
  it(
    'is off when stdout is not a terminal, with NO_COLOR, and with FORCE_COLOR=0; FORCE_COLOR turns it ' + 'on',
    async () => {
      const { colourEnv } = await import('../../../runner/commands/colour')
      expect(colourEnv({}, false).NO_COLOR).toBe('1')
      expect(colourEnv({}, true).NO_COLOR).toBeUndefined()
      expect(colourEnv({ NO_COLOR: '' }, true).NO_COLOR).toBe('1')
      expect(colourEnv({ FORCE_COLOR: '0' }, true)).toEqual({ NO_COLOR: '1' })
      expect(colourEnv({ FORCE_COLOR: '1' }, false)).toEqual({ FORCE_COLOR: '1' })
    },
  )
})
