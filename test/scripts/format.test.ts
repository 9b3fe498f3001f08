import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'

/** The tracked source files (TypeScript and JavaScript) of the project. */
function sources(): string[] {
  const r = spawnSync('git', ['ls-files', '*.ts', '*.mjs', '*.js', '*.cjs'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
  return r.status === 0 ? r.stdout.split('\n').filter(Boolean) : []
}

/**
 * Lines Biome cannot break: regular expression literals and template literals whose text or `${}` leaves no place to
 * split without changing the value. A ceiling, so that it only goes down (issue 38: lines ≤ 120).
 */
const UNBREAKABLE_CEILING = 91

describe('Biome over the whole tree (issue 38)', () => {
  it('biome check (formatter and linter, biome.json) finds nothing', { timeout: 60_000 }, () => {
    const biome = join(PROJECT_ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome')
    const r = spawnSync(process.execPath, [biome, 'check', '.'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
    expect(r.status, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`).toBe(0)
  })

  it(`source lines are at most 120 characters, but for at most ${UNBREAKABLE_CEILING} that Biome cannot break`, () => {
    const files = sources()
    if (files.length === 0) return expect(files, 'not a git checkout: nothing to measure').toEqual([])
    const long = files.flatMap((f) =>
      readFileSync(join(PROJECT_ROOT, f), 'utf8')
        .split('\n')
        .flatMap((l, i) => (l.length > 120 ? [`${f}:${i + 1}`] : [])),
    )
    expect(long.length, long.join('\n')).toBeLessThanOrEqual(UNBREAKABLE_CEILING)
    // a comment is never one of them: a comment can always be wrapped
    const comments = files.flatMap((f) =>
      readFileSync(join(PROJECT_ROOT, f), 'utf8')
        .split('\n')
        .flatMap((l, i) => (l.length > 120 && /^\s*(\/\/|\/\*|\*)/.test(l) ? [`${f}:${i + 1}`] : [])),
    )
    expect(comments).toEqual([])
  })
})
