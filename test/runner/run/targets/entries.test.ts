import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { suiteFileOf, targetSetName, writeTargetEntries } from '../../../../runner/run/targets/entries'
import { tempDir } from '../../../support/temp-dir'

function project(): string {
  const root = tempDir('entries')
  mkdirSync(join(root, 'suites/sales'), { recursive: true })
  writeFileSync(join(root, 'suites/sales/lifecycle.test.ts'), '')
  writeFileSync(join(root, 'suites/auth.test.ts'), '')
  return root
}

describe('multi-target entries', () => {
  it('maps an entry back to its suite file and leaves other paths alone', () => {
    expect(suiteFileOf('.targets/acme+globex/suites/sales/lifecycle.test.ts')).toBe('suites/sales/lifecycle.test.ts')
    expect(suiteFileOf('/repo/.targets/acme/suites/auth.test.ts')).toBe('suites/auth.test.ts')
    expect(suiteFileOf('suites/auth.test.ts')).toBe('suites/auth.test.ts')
  })

  it('names the set by its keys, or by a digest when that is long', () => {
    expect(targetSetName(['acme', 'globex'])).toBe('acme+globex')
    const many = Array.from({ length: 12 }, (_, i) => `tenant-number-${i}`)
    expect(targetSetName(many)).toMatch(/^12-targets-[0-9a-f]{10}$/)
    expect(targetSetName(many)).toBe(targetSetName([...many]))
  })

  it('writes one entry per suite that loads it once per target, and returns the include glob', () => {
    const root = project()
    expect(writeTargetEntries(root, ['acme', 'globex'])).toEqual(['.targets/acme+globex/suites/**/*.test.ts'])
    const entry = readFileSync(join(root, '.targets/acme+globex/suites/sales/lifecycle.test.ts'), 'utf8')
    expect(entry).toContain(`import { forTarget } from '../../../../helpers/checks/targets/for-target'`)
    expect(entry).toContain(
      `forTarget('acme', 'suites/sales/lifecycle.test.ts', () => ` +
        `import('../../../../suites/sales/lifecycle.test.ts?target=acme'))`,
    )
    expect(entry).toContain(
      `forTarget('globex', 'suites/sales/lifecycle.test.ts', () => ` +
        `import('../../../../suites/sales/lifecycle.test.ts?target=globex'))`,
    )
    expect(existsSync(join(root, '.targets/acme+globex/suites/auth.test.ts'))).toBe(true)
    rmSync(root, { recursive: true, force: true })
  })

  it('removes the entries of other sets of targets not run for a day, and keeps recent ones', () => {
    const root = project()
    const day = 24 * 3600 * 1000
    const t0 = Date.parse('2026-11-20T10:00:00Z')
    writeTargetEntries(root, ['old'], t0)
    writeTargetEntries(root, ['recent'], t0 + day)
    writeTargetEntries(root, ['acme', 'globex'], t0 + day + 3600 * 1000)
    expect(readdirSync(join(root, '.targets')).sort()).toEqual(['acme+globex', 'recent'])
    rmSync(root, { recursive: true, force: true })
  })

  it('leaves up-to-date entries untouched and removes the entry of a suite that is gone', () => {
    const root = project()
    writeTargetEntries(root, ['acme'])
    const entry = join(root, '.targets/acme/suites/auth.test.ts')
    const before = statSync(entry).mtimeMs
    rmSync(join(root, 'suites/sales/lifecycle.test.ts'))
    writeTargetEntries(root, ['acme'])
    expect(statSync(entry).mtimeMs).toBe(before)
    expect(existsSync(join(root, '.targets/acme/suites/sales/lifecycle.test.ts'))).toBe(false)
    rmSync(root, { recursive: true, force: true })
  })
})
