import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ENV_VARS, envHelp, RUN_VARS } from '../../common/env-vars'
import { PROJECT_ROOT } from '../../common/project-root'
import { listFiles } from '../../common/fs/list-files'
import { REFERENCE_IMAGE } from '../../runner/run/container/target-env'
import { COMMANDS as commands } from '../../runner/cli/commands'

/** The project's code (what ships and the development harnesses), not its tests. */
function codeFiles(): string[] {
  const dirs = ['helpers', 'runner', 'common', 'scripts', 'reference', 'bin', 'suites']
  const files = dirs.flatMap((d) => [
    ...listFiles(join(PROJECT_ROOT, d), '.ts'),
    ...listFiles(join(PROJECT_ROOT, d), '.mjs'),
    ...listFiles(join(PROJECT_ROOT, d), '.cjs'),
  ])
  return [
    ...files,
    ...['vitest.config.ts', 'vitest.test.config.ts', 'vitest.proof.config.ts'].map((f) => join(PROJECT_ROOT, f)),
  ]
}

/** The variables a source text reads: env.X, env?.X, env['X'], and the names of constants *_ENV = 'X'. */
function envNamesRead(text: string): string[] {
  const patterns = [
    /\benv\??\.([A-Z][A-Z0-9_]+)\b/g,
    /\benv\[\s*['"]([A-Z][A-Z0-9_]+)['"]\s*\]/g,
    /\b[A-Z_]*ENV\s*=\s*['"]([A-Z][A-Z0-9_]+)['"]/g,
  ]
  return [...new Set(patterns.flatMap((p) => [...text.matchAll(p)].map((m) => m[1]!)))]
}

describe('one list of environment variables (common/env-vars.ts)', () => {
  const listed = new Set<string>(ENV_VARS.map((v) => v.name))

  it('names every variable the code reads', () => {
    const missing: string[] = []
    for (const f of codeFiles())
      for (const name of envNamesRead(readFileSync(f, 'utf8')))
        if (!listed.has(name)) missing.push(`${relative(PROJECT_ROOT, f)}: ${name}`)
    expect(missing).toEqual([])
  })

  it('names no variable the code does not use, each once, each with a meaning and a reader', () => {
    const code = codeFiles()
      .filter((f) => !f.endsWith(join('common', 'env-vars.ts')))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n')
    expect(ENV_VARS.filter((v) => !new RegExp(`\\b${v.name}\\b`).test(code)).map((v) => v.name)).toEqual([])
    expect(listed.size).toBe(ENV_VARS.length)
    for (const v of ENV_VARS) expect(v.meaning.length, v.name).toBeGreaterThan(10)
    for (const v of ENV_VARS) expect(v.readBy.length, v.name).toBeGreaterThan(0)
  })

  it('the scan sees each form of reading a variable', () => {
    expect(
      envNamesRead(
        "process.env.A_B; env?.C_D; env['E_F']; export const SELECTION_ENV = 'G_H'; value(env, 'NOT_SEEN')",
      ).sort(),
    ).toEqual(['A_B', 'C_D', 'E_F', 'G_H'])
  })

  it('the help of each command lists the variables it reads, from the list', () => {
    const byName = new Map(commands.map((c) => [c.name, c.help]))
    for (const reader of ['run', 'list', 'validate', 'acceptance', 'report', 'explore', 'replay'] as const) {
      const help = byName.get(reader)!
      expect(help, reader).toContain(envHelp(reader).split('\n').slice(1).join('\n'))
    }
    expect(envHelp('run')).toMatch(/^ {2}TARGET_PROFILE +path of the target profile/m)
  })

  it('the harnesses clear what configures a run; defaults agree with the code', () => {
    expect(RUN_VARS).toEqual(
      expect.arrayContaining([
        'TARGET_PROFILE',
        'SALES_BASE_URL',
        'REPORTS_DIR',
        'REFERENCE_DEFECTS',
        'LEDGER_SELECTED_CHECKS',
      ]),
    )
    expect(RUN_VARS).not.toContain('CI')
    expect(ENV_VARS.find((v) => v.name === 'REFERENCE_IMAGE')!.default).toBe(REFERENCE_IMAGE)
  })
})
