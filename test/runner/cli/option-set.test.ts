import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { PROJECT_ROOT } from '../../../common/project-root'
import { ENV_VARS, envHelp, type EnvReader } from '../../../common/env-vars'
import { COMMANDS } from '../../../runner/cli/commands'
import { main } from '../../../runner/cli/main'
import { EXIT_CODES_HELP } from '../../../runner/commands/command'
import { TARGET_OPTIONS_HELP } from '../../../runner/commands/target-options'

/** Everything main() printed, and its exit code. */
async function cli(argv: string[]): Promise<{ code: number; text: string }> {
  let text = ''
  const keep = (s: unknown) => ((text += String(s)), true)
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(keep),
    vi.spyOn(process.stderr, 'write').mockImplementation(keep),
    vi.spyOn(console, 'log').mockImplementation((s) => void keep(`${s}\n`)),
    vi.spyOn(console, 'error').mockImplementation((s) => void keep(`${s}\n`)),
  ]
  try {
    return { code: await main(argv), text }
  } finally {
    for (const s of spies) s.mockRestore()
  }
}

// One option set (issue 37): every command answers an unknown option with its own "did you mean" and exit 2, sending
// nothing and printing no other command's help.
const TYPOS: { command: string; typo: string; meant: string }[] = [
  { command: 'run', typo: '--chek', meant: '--check' },
  { command: 'list', typo: '--requirement', meant: '--requirements' },
  { command: 'init', typo: '--sales-ur', meant: '--sales-url' },
  { command: 'validate', typo: '--evn', meant: '--env' },
  { command: 'acceptance', typo: '--allow-write', meant: '--allow-writes' },
  { command: 'report', typo: '--histroy', meant: '--history' },
  { command: 'reference', typo: '--defekt', meant: '--defect' },
  { command: 'explore', typo: '--profle', meant: '--profile' },
  { command: 'replay', typo: '--read-onl', meant: '--read-only' },
  { command: 'merge', typo: '--report', meant: '--reports' },
]

/** The variables every command that names a target reads (common/env-vars.ts), whatever the command. */
const TARGET_VARS = [
  'TARGET_PROFILE',
  'SALES_BASE_URL',
  'AUTH_URL',
  'WEBHOOK_BASE_URL',
  'TENANT',
  'AUTH_USERNAME',
  'AUTH_PASSWORD',
  'PRODUCT',
  'REPORTS_DIR',
]

describe('one option set for every command', () => {
  it('the table covers every command', () => {
    expect(TYPOS.map((t) => t.command).sort()).toEqual(COMMANDS.map((c) => c.name).sort())
  })

  for (const t of TYPOS) {
    it(`${t.command} ${t.typo}: exit 2, "did you mean ${t.meant}", no other command's help`, async () => {
      const r = await cli([t.command, t.typo, 'x'])
      expect(r.code, r.text).toBe(2)
      expect(r.text).toContain(`Did you mean ${t.meant}?`)
      for (const other of COMMANDS.filter((c) => c.name !== t.command))
        expect(r.text, other.name).not.toContain(`Usage: ledger-conformance ${other.name} `)
    })
  }

  it(
    'every command that can write takes --profile, --reports, --allow-writes, --read-only and reads the same ' +
      'variables (ALLOW_WRITES too)',
    () => {
      const writers = COMMANDS.filter((c) => c.target === 'writes')
      expect(writers.map((c) => c.name).sort()).toEqual(['acceptance', 'explore', 'replay', 'run'])
      for (const c of writers) {
        for (const o of ['--profile', '--reports', '--allow-writes', '--read-only'])
          expect(c.help, `${c.name} ${o}`).toContain(o)
        const reads = ENV_VARS.filter((v) => (v.readBy as readonly string[]).includes(c.name)).map((v) => v.name)
        expect(reads, c.name).toEqual(expect.arrayContaining([...TARGET_VARS, 'ALLOW_WRITES']))
        // and its help says so, from the one list
        expect(c.help, c.name).toContain(
          envHelp(c.name as EnvReader)
            .split('\n')
            .slice(1)
            .join('\n'),
        )
      }
    },
  )

  it('explore and replay name --profile and --reports as run does', () => {
    for (const name of ['explore']) expect(COMMANDS.find((c) => c.name === name)!.help).toContain(TARGET_OPTIONS_HELP)
    expect(COMMANDS.find((c) => c.name === 'replay')!.help).toMatch(
      /--profile FILE +the target profile, anywhere \(sets TARGET_PROFILE/,
    )
  })

  it('validate takes --profile as every command does (repeatable, beside the files it is given)', async () => {
    const ref = join(PROJECT_ROOT, 'fixtures/targets/reference.json')
    const r = await cli(['validate', '--profile', ref])
    expect(r.code, r.text).toBe(0)
    expect(r.text).toContain(`valid   ${ref}`)
    vi.stubEnv('TARGET_PROFILE', ref)
    try {
      const fromEnv = await cli(['validate'])
      expect(fromEnv.code, fromEnv.text).toBe(0)
      expect(fromEnv.text).toContain(`valid   ${ref}`)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it("list's requirements options go with --requirements; a lone --ids is list's usage error, not run's", async () => {
    const r = await cli(['list', '--ids'])
    expect(r.code).toBe(2)
    expect(r.text).toContain('ledger-conformance list: --ids and --json go with --requirements')
    expect(r.text).not.toContain('Usage: ledger-conformance run ')
  })

  it('reference --defect <unknown> exits 2, as its help says, naming the nearest defect', async () => {
    const r = await cli(['reference', '--defect', 'sales-draft-can-bnd', '--port', '0'])
    expect(r.code, r.text).toBe(2)
    expect(r.text).toMatch(/--defect: unknown defect\(s\): sales-draft-can-bnd \(did you mean sales-draft-can-bind\?\)/)
    expect(COMMANDS.find((c) => c.name === 'reference')!.help).toMatch(
      /2 {2}usage error: an unknown option, defect or variation/,
    )
  })
})

describe('labels and exit codes agree with the README table', () => {
  it('the top-level help puts a refused login under 2, not under 3', () => {
    const two = EXIT_CODES_HELP.slice(EXIT_CODES_HELP.indexOf('\n  2  '), EXIT_CODES_HELP.indexOf('\n  3  '))
    const three = EXIT_CODES_HELP.slice(EXIT_CODES_HELP.indexOf('\n  3  '))
    expect(two).toMatch(/login refused/)
    expect(three).not.toMatch(/login/)
  })

  it('run --help counts its example from the catalogue, never a literal', () => {
    const run = COMMANDS.find((c) => c.name === 'run')!
    expect(run.help).not.toMatch(/22 of 299/)
    expect(run.help).toMatch(
      /"CONFORMS \(partial: (\d+ of \d+ checks|N of M checks, counted by ledger-conformance list --check SL-LIFE); selection --check SL-LIFE\)"/,
    )
  })

  it('no help text states a count of checks as a literal', () => {
    for (const c of COMMANDS)
      expect(c.help.replace(/\(partial: \d+ of \d+ checks; selection --check SL-LIFE\)/, ''), c.name).not.toMatch(
        /\b\d+ (of \d+ )?(checks|requirements|invariants)\b/,
      )
  })
})
