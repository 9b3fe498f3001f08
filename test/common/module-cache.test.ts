import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { lockfileKey, moduleCachePath } from '../../common/module-cache'
import { tempDir } from '../support/temp-dir'

describe('moduleCachePath: one module cache folder per state of the dependencies', () => {
  it('names the lock file found from the root up, and changes with it', () => {
    const app = tempDir('module-cache')
    const pkg = join(app, 'node_modules', 'ledger-conformance')
    mkdirSync(pkg, { recursive: true })
    expect(lockfileKey(pkg)).toBe('none')
    // the installed package: the caller's lock file, a folder up
    writeFileSync(join(app, 'node_modules', '.package-lock.json'), '{"lockfileVersion":3,"packages":{"a":"1.0.0"}}')
    const before = lockfileKey(pkg)
    expect(before).toMatch(/^[0-9a-f]{12}$/)
    expect(lockfileKey(pkg)).toBe(before)
    expect(lockfileKey(app)).toBe(before)
    // an install that changes the lock file: another folder, which vitest never finds stale and clears
    writeFileSync(join(app, 'node_modules', '.package-lock.json'), '{"lockfileVersion":3,"packages":{"a":"1.0.1"}}')
    expect(lockfileKey(pkg)).not.toBe(before)
    expect(moduleCachePath('/cache/modules', pkg, pkg)).toBe(join('/cache/modules', lockfileKey(pkg)))
    // started from another folder: vitest looks from there as well
    expect(moduleCachePath('/cache/modules', pkg, '/')).toBe(
      join('/cache/modules', `${lockfileKey(pkg)}-${lockfileKey('/')}`),
    )
  })

  it('counts a patch folder next to the lock file', () => {
    const app = tempDir('module-cache')
    mkdirSync(join(app, 'node_modules'), { recursive: true })
    writeFileSync(join(app, 'node_modules', '.package-lock.json'), '{}')
    const before = lockfileKey(app)
    mkdirSync(join(app, 'patches'))
    expect(lockfileKey(app)).not.toBe(before)
  })
})
