import { afterEach, describe, expect, it, vi } from 'vitest'
import { callerEnv } from '../../../runner/commands/caller'
import { acceptanceCommand } from '../../../runner/commands/acceptance/index'
import { initCommand } from '../../../runner/commands/init/index'
import { mergeCommand } from '../../../runner/commands/merge/index'
import { referenceCommand } from '../../../runner/commands/reference/index'
import { reportCommand } from '../../../runner/commands/report/index'
import { validateCommand } from '../../../runner/commands/validate/index'
import { tempDir } from '../../support/temp-dir'

afterEach(() => vi.unstubAllEnvs())

describe('the commands init, validate, report, reference, acceptance, merge', () => {
  it('each has its own help with options, environment variables and exit codes', () => {
    for (const c of [initCommand, validateCommand, reportCommand, referenceCommand, acceptanceCommand, mergeCommand]) {
      expect(c.help, c.name).toMatch(new RegExp(`^Usage: ledger-conformance ${c.name}\\b`))
      expect(c.help, c.name).toMatch(/\nOptions:\n/)
      expect(c.help, c.name).toMatch(/\nEnvironment:/)
      expect(c.help, c.name).toMatch(/\nExit codes[^\n]*:\n {2}0 {2}/)
      expect(c.help, c.name).toMatch(/\n {2}2 {2}usage/)
      expect(c.summary.length, c.name).toBeGreaterThan(10)
    }
  })

  it('a child works in the caller folder: reports and profiles are resolved against it', () => {
    const env = callerEnv(
      { TARGET_PROFILE: 'ci/a.jsonc', TARGET_PROFILES: 'x.json, /abs/y.json', ALLURE_HISTORY: 'h.jsonl' },
      '/home/team',
    )
    expect(env).toMatchObject({
      REPORTS_DIR: '/home/team/reports',
      TARGET_PROFILE: '/home/team/ci/a.jsonc',
      TARGET_PROFILES: '/home/team/x.json,/abs/y.json',
      ALLURE_HISTORY: '/home/team/h.jsonl',
    })
    expect(callerEnv({ REPORTS_DIR: '/tmp/r' }, '/home/team').REPORTS_DIR).toBe('/tmp/r')
  })

  it('maps the scripts outcomes to the exit codes: usage 2, a tool that could not do its work 3', async () => {
    vi.stubEnv('REPORTS_DIR', tempDir('empty'))
    const [reference, report, acceptance, mergeNothing, mergeTypo] = await Promise.all([
      referenceCommand.run(['--port', 'abc']),
      reportCommand.run([]),
      acceptanceCommand.run([]),
      mergeCommand.run([]),
      mergeCommand.run(['--report', 'x', 'shard-1']),
    ])
    expect(reference).toBe(2)
    expect(report).toBe(3)
    expect(acceptance).toBe(2)
    expect([mergeNothing, mergeTypo]).toEqual([2, 2])
  })
})
