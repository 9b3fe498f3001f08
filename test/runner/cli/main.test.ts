import { describe, expect, it, vi } from 'vitest'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Command } from '../../../runner/commands/command'
import { COMMANDS } from '../../../runner/cli/commands'
import { main, mainHelp } from '../../../runner/cli/main'
import { parseRunArgs, runHelp } from '../../../runner/commands/run/index'
import { PROJECT_ROOT } from '../../../common/project-root'

function fake(name: string): Command & { calls: string[][] } {
  const calls: string[][] = []
  return {
    name,
    summary: `${name} summary`,
    help: `${name} help`,
    target: 'none',
    calls,
    run: async (argv) => (calls.push(argv), 7),
  }
}

describe('ledger-conformance main()', () => {
  it(
    'dispatches to the named command, and to the first one when the first argument is an option or a ' + 'path',
    async () => {
      const run = fake('run')
      const other = fake('init')
      expect(await main(['init', '--x'], [run, other])).toBe(7)
      expect(other.calls).toEqual([['--x']])
      await main(['--check', 'SL-LIFE'], [run, other])
      await main(['suites/auth'], [run, other])
      await main(['run', '--list'], [run, other])
      expect(run.calls).toEqual([['--check', 'SL-LIFE'], ['suites/auth'], ['--list']])
    },
  )

  it('an unknown command is a usage error (exit 2); each command has its own --help', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    try {
      expect(await main(['frobnicate'], [fake('run')])).toBe(2)
      expect(await main(['list', '--help'])).toBe(0)
      expect(String(out.mock.calls.at(-1)?.[0])).toContain('Usage: ledger-conformance list')
    } finally {
      err.mockRestore()
      out.mockRestore()
    }
  })

  it('--version prints the package version', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    try {
      expect(await main(['--version'], [fake('run')])).toBe(0)
      const { version } = JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
      expect(String(out.mock.calls.at(-1)?.[0])).toBe(`ledger-conformance ${version}\n`)
    } finally {
      out.mockRestore()
    }
  })

  it('every command documents its options, environment variables and exit codes', () => {
    const run = COMMANDS.find((c) => c.name === 'run')!
    for (const word of [
      '--check',
      '--section',
      '--operation',
      '--list',
      '--read-only',
      'TARGET_PROFILE',
      'REPORTS_DIR',
      'Exit codes',
      '  3  INCONCLUSIVE',
    ])
      expect(run.help).toContain(word)
    for (const c of COMMANDS) expect(c.help, c.name).toMatch(/exit/i)
    expect(mainHelp()).toMatch(/^ {2}run +run the conformance checks .* \(default\)$/m)
  })

  it('parses the selection; vitest options go after --; -t is refused with a pointer to --check', () => {
    expect(
      parseRunArgs(['--check', 'SL-LIFE,AUTH-', '--section', 'sales §5', 'suites/sales', '--', '--bail=1']),
    ).toMatchObject({
      criteria: { checks: ['SL-LIFE', 'AUTH-'], sections: ['sales §5'], files: ['suites/sales'] },
      vitestArgs: ['--bail=1'],
    })
    expect(() => parseRunArgs(['-t', 'SL-LFE'])).toThrow(/--check/)
  })

  it(
    '--thorough is an option of run (the slow probes: expiry past exp + auth.maxExpiryLeewaySeconds), off by ' +
      'default',
    () => {
      expect(parseRunArgs(['--thorough', '--check', 'AUTH-TOKEN'])).toMatchObject({
        thorough: true,
        criteria: { checks: ['AUTH-TOKEN'] },
      })
      expect(parseRunArgs([]).thorough).toBeUndefined()
      expect(runHelp({})).toMatch(
        /--thorough[\s\S]*auth\.maxExpiryLeewaySeconds[\s\S]*LEDGER_THOROUGH\s+1: [^\n]*same as run --thorough/,
      )
    },
  )

  it('the package exposes the CLI as a bin whose launcher resolves files from the package, not the cwd', () => {
    const pkg = JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>
      scripts: Record<string, string>
      dependencies: Record<string, string>
    }
    expect(pkg.bin['ledger-conformance']).toBe('bin/ledger-conformance.mjs')
    expect(pkg.scripts.conformance).toContain('bin/ledger-conformance.mjs run')
    expect(pkg.dependencies.tsx).toBeDefined()
    const launcher = readFileSync(resolve(PROJECT_ROOT, pkg.bin['ledger-conformance']!), 'utf8')
    expect(launcher).toContain('import.meta.url')
    expect(launcher).not.toContain('process.cwd()')
  })
})

describe('help texts an installed package prints', () => {
  it('name an npm script only as the alternative of a clone', async () => {
    const { COMMANDS } = await import('../../../runner/cli/commands')
    const { mainHelp } = await import('../../../runner/cli/main')
    for (const text of [mainHelp(), ...COMMANDS.map((c) => c.help)]) {
      expect(text.split('\n').filter((l) => /npm run /.test(l) && !/in a clone/.test(l))).toEqual([])
    }
  })
})

describe('the CLI imports only the chosen command', () => {
  it(
    'its entries name every command of COMMANDS, in order, with the same summary and target, and load that ' +
      'command',
    async () => {
      const { COMMAND_ENTRIES } = await import('../../../runner/cli/entries')
      expect(COMMAND_ENTRIES.map(({ name, summary, target }) => ({ name, summary, target }))).toEqual(
        COMMANDS.map(({ name, summary, target }) => ({ name, summary, target })),
      )
      for (const [i, e] of COMMAND_ENTRIES.entries()) expect(await e.load()).toBe(COMMANDS[i])
    },
  )

  it('main.ts imports no command module before one is chosen', () => {
    const source = readFileSync(resolve(PROJECT_ROOT, 'runner/cli/main.ts'), 'utf8')
    const imports = [...source.matchAll(/^import .* from '([^']+)'/gm)].map((m) => m[1] ?? '')
    expect(imports.filter((i) => i === './commands' || /^\.\.\/commands\/[a-z-]+\//.test(i))).toEqual([])
    const entries = readFileSync(resolve(PROJECT_ROOT, 'runner/cli/entries.ts'), 'utf8')
    expect([...entries.matchAll(/^import (?!type ).* from/gm)]).toEqual([])
  })

  it('the main help lists the entries without loading any command', async () => {
    const loaded: string[] = []
    const entries = [fake('run'), fake('init')].map((c) => ({
      name: c.name,
      summary: c.summary,
      target: c.target,
      load: async () => (loaded.push(c.name), c),
    }))
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    try {
      expect(await main(['--help'], entries)).toBe(0)
      expect(await main(['init', '--x'], entries)).toBe(7)
    } finally {
      out.mockRestore()
    }
    expect(loaded).toEqual(['init'])
  })
})
